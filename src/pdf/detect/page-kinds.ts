/**
 * What a page is, for the detection: text, a scan with a text layer, a scan OCR reads, or other; from what the text
 * pass saw of it (page-scan.ts).
 */
import type { PageScan } from './page-scan.js';
import { union } from './page-model.js';

/** Pages with no text layer and at least this share covered by images are scans. */
const SCANNED_COVER = 0.3;
/** A page this much covered by images is a scan, even with a few words over it (a stamp, a page number). */
const IMAGE_BACKED = 0.6;
const STAMP_WORDS = 8;
/**
 * Words one sees typed over a scan, fewer than this, are a form's answers typed onto it (a name, dates, "N/A"), not
 * its text: the form's own words are in the image, and OCR reads them. (An OCR text layer is shown invisible.)
 */
const TYPED_WORDS = 40;
/**
 * Words typed over a scan that stand within this share of the page's height are a form's answers too, however many
 * (a typed paragraph naming the parties over a scanned contract whose captions and rules are in the image below it).
 */
const TYPED_BAND = 0.25;
/**
 * A page with no text layer whose dark fills draw this many curves is text drawn as outlines (a page
 * "printed to PDF" as drawings draws some ten thousand; a logo or a seal a few hundred): OCR reads it as
 * it reads a scan.
 */
const OUTLINED_TEXT_CURVES = 2000;

/**
 * A page whose words are this share or more of glyphs with no letter behind them (a font embedded without its
 * mapping to Unicode: private-use codes) has a text layer no one can read: OCR reads it as it reads a scan.
 */
const UNREADABLE_SHARE = 0.3;
const UNREADABLE_LEAST = 20;

/** A word all of whose characters are private-use or replacement characters: glyphs a font maps to no letter. */
export const unreadable = (text: string): boolean => /^[\ue000-\uf8ff\ufffd\s]+$/u.test(text);

/**
 * What a page is, from its text layer and images: text; a scan with a text layer (`backed`: the text is
 * there, the lines only in the image); a scan OCR reads (no text layer, or only a stamp or a form's typed answers
 * over it, or its text drawn as outlines, or in glyphs mapped to no letter); or other.
 */
export function pageKind(scan: PageScan): 'text' | 'backed' | 'scanned' | 'other' {
  const imageBacked = scan.imageCover >= IMAGE_BACKED;
  const unmapped = scan.words.length >= UNREADABLE_LEAST && scan.words.filter((w) => unreadable(w.text)).length >= UNREADABLE_SHARE * scan.words.length;
  if (unmapped && !imageBacked) return 'scanned';
  if (imageBacked && !scan.hiddenText && typedBand(scan) < TYPED_BAND) return 'scanned';
  if (scan.words.length >= (!imageBacked ? 1 : scan.hiddenText ? STAMP_WORDS : TYPED_WORDS)) return imageBacked ? 'backed' : 'text';
  return scan.imageCover >= SCANNED_COVER || (scan.words.length === 0 && scan.filledCurves >= OUTLINED_TEXT_CURVES) ? 'scanned' : 'other';
}

/** The share of the page's height from its first word's top to its last word's foot. */
function typedBand(scan: PageScan): number {
  if (scan.words.length === 0 || scan.height <= 0) return 1;
  const band = union(scan.words.map((w) => w.box));
  return (band.y1 - band.y0) / scan.height;
}
