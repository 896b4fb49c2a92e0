/**
 * pdf.js takes DOMMatrix, and the canvas it renders on, from @napi-rs/canvas: an optional dependency
 * that comes with OCR. Without it pdf.js would not even load (its module makes a DOMMatrix when it is
 * evaluated). This stand-in lets it load and read text, drawings and form fields; rendering (OCR, and
 * the lines of a scan that has a text layer) then fails, and detection goes on without it. The
 * detection child imports this module before pdf.js.
 */
import { createRequire } from 'node:module';

function canvasInstalled(): boolean {
  try {
    createRequire(import.meta.url).resolve('@napi-rs/canvas');
    return true;
  } catch {
    return false;
  }
}

/** The identity matrix and a 6-number one: all pdf.js asks of DOMMatrix when it does not render. */
class DOMMatrixStandIn {
  a = 1;
  b = 0;
  c = 0;
  d = 1;
  e = 0;
  f = 0;
  constructor(init?: ArrayLike<number>) {
    if (init && init.length === 6) [this.a, this.b, this.c, this.d, this.e, this.f] = Array.from(init) as [number, number, number, number, number, number];
  }
}

const scope = globalThis as { DOMMatrix?: unknown };
if (scope.DOMMatrix === undefined && !canvasInstalled()) scope.DOMMatrix = DOMMatrixStandIn;
