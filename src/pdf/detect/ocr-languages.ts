/**
 * The OCR languages paraph ships (the @tesseract.js-data packages, `4.0.0_best_int` models) and which of
 * them are installed. No tesseract code here: the server asks this without loading the OCR engine.
 *
 * The engine (tesseract.js and its WebAssembly build, 7 MB) ships in paraph's dist/vendor/
 * (src/platform/vendored.ts). OCR's other parts are optional dependencies of paraph (an install with
 * `--omit=optional` leaves them out, some 50 MB): the canvas pdf.js renders a scanned page on
 * (@napi-rs/canvas) and the language data. Without the canvas, no language is available and OCR is
 * disabled.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { PACKAGE_ROOT } from '../../platform/package-files.js';
import { TESSERACT } from '../../platform/vendored.js';

export type OcrLanguage = 'eng' | 'fra' | 'ara';
export const OCR_LANGUAGES: readonly OcrLanguage[] = ['eng', 'fra', 'ara'];
const MODEL = '4.0.0_best_int';
const require = createRequire(import.meta.url);

/** The directory holding `<lang>.traineddata.gz`, or undefined when the package is missing. */
export function languageDir(lang: OcrLanguage): string | undefined {
  try {
    const dir = path.join(path.dirname(require.resolve(`@tesseract.js-data/${lang}/package.json`)), MODEL);
    return fs.existsSync(path.join(dir, `${lang}.traineddata.gz`)) ? dir : undefined;
  } catch {
    return undefined;
  }
}

/** The packages OCR's engine needs: the canvas, and tesseract.js itself when it is not the copy in dist/vendor/. */
const ENGINE_PARTS = TESSERACT.workerPath ? ['@napi-rs/canvas'] : ['tesseract.js', '@napi-rs/canvas'];
let enginePresent: boolean | undefined;

function installed(name: string): boolean {
  try {
    require.resolve(`${name}/package.json`);
    return true;
  } catch {
    return false;
  }
}

/** The languages OCR can read: those whose data is installed, when the engine and the canvas are. */
export function availableLanguages(): OcrLanguage[] {
  enginePresent ??= ENGINE_PARTS.every(installed);
  return enginePresent ? OCR_LANGUAGES.filter((l) => languageDir(l) !== undefined) : [];
}

/**
 * Why OCR cannot read scans and how to add it, or undefined when every part is installed: the missing
 * packages, and the command that installs them at the versions paraph was made with.
 */
export function missingOcrParts(): string | undefined {
  const wanted = [...ENGINE_PARTS, ...OCR_LANGUAGES.map((l) => `@tesseract.js-data/${l}`)];
  const missing = wanted.filter((name) => (name.startsWith('@tesseract.js-data/') ? !languageDir(name.slice(19) as OcrLanguage) : !installed(name)));
  if (missing.length === 0) return undefined;
  const { optionalDependencies = {} } = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
    optionalDependencies?: Record<string, string>;
  };
  const specs = missing.map((name) => (optionalDependencies[name] ? `${name}@${optionalDependencies[name]}` : name));
  return (
    `OCR is not installed, so scanned pages are not read (missing: ${missing.join(', ')}); ` +
    `paraph was installed without its optional dependencies. Add them to your project with ` +
    `\`npm install --save-dev ${specs.join(' ')}\`, or install paraph again without --omit=optional, then restart paraph serve`
  );
}
