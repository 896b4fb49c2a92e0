/**
 * The OCR languages paraph ships (the @tesseract.js-data packages, `4.0.0_best_int` models) and which of
 * them are installed. No tesseract code here: the server asks this without loading the OCR engine.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

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

/** The languages whose data is installed. */
export function availableLanguages(): OcrLanguage[] {
  return OCR_LANGUAGES.filter((l) => languageDir(l) !== undefined);
}
