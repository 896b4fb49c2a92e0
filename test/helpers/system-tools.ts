import fs from 'node:fs';
import path from 'node:path';

/** The system programs the suite drives, and the Debian package each comes from. */
export const CHROMIUM = process.env.PARAPH_CHROMIUM ?? '/usr/bin/chromium';

export const SYSTEM_TOOLS: ReadonlyArray<{ program: string; aptPackage: string; usedFor: string }> = [
  { program: CHROMIUM, aptPackage: 'chromium', usedFor: 'the signing page tests (headless Chromium through playwright-core)' },
  { program: 'pdfsig', aptPackage: 'poppler-utils', usedFor: 'checking the signatures of signed PDFs' },
  { program: 'pdftoppm', aptPackage: 'poppler-utils', usedFor: 'rendering PDF pages to check what was stamped, and scanning real PDFs for the OCR tests' },
  { program: 'qpdf', aptPackage: 'qpdf', usedFor: 'encrypting PDFs with an owner password (RC4 and AES) as other software does' },
];

/** In CI (env CI set, as every CI service does and .ci/run does) a missing tool fails; on a desk it skips. */
export const IN_CI = (process.env.CI ?? '') !== '' && process.env.CI !== 'false' && process.env.CI !== '0';

/** The program's path when it is installed: an absolute path as given, a bare name looked up on PATH. */
export function findProgram(program: string): string | null {
  const candidates = path.isAbsolute(program)
    ? [program]
    : (process.env.PATH ?? '')
        .split(path.delimiter)
        .filter(Boolean)
        .map((dir) => path.join(dir, program));
  for (const candidate of candidates) {
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/** Why a test needing `program` cannot run, or false when it can: the skip reason for `test(…, { skip })`. */
export function missingTool(program: string): string | false {
  if (findProgram(program)) return false;
  const tool = SYSTEM_TOOLS.find((t) => t.program === program);
  return `${program} is not installed (apt-get install ${tool?.aptPackage ?? program})`;
}
