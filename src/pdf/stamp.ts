import {
  clip,
  concatTransformationMatrix,
  endPath,
  popGraphicsState,
  pushGraphicsState,
  rectangle,
  rgb,
  type PDFDocument,
  type PDFPage,
} from '@cantoo/pdf-lib';
import { handFontFor, type Fonts } from './fonts.js';
import { displayedBox } from './page-box.js';
import { directionOf, drawLine, drawPositioned, positionedWidth, textWidth, wrap } from './text.js';

/** One field with what the signers put in it. Geometry as the contract says: displayed page, top-left origin, y down. */
export interface StampField {
  type: 'signature' | 'initials' | 'text' | 'date';
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  /** Text and date fields: the value (sender prefill, identity value or the signer's input). */
  value: string | null;
  /** The signer's language (`fr`, `ar`, `en`…); dates are written in ISO 8601 whatever it is. */
  locale?: string | null;
  /** Signature and initials fields: the signer's mark. */
  mark: { method: 'typed'; text: string } | { method: 'drawn'; png: Uint8Array } | null;
}

const INK = rgb(0.05, 0.12, 0.45);
const TEXT = rgb(0.05, 0.05, 0.05);
const MIN_TEXT_SIZE = 5;
const MAX_TEXT_SIZE = 11;

/** Draws every field's value at its place on its page. */
export async function stampFields(doc: PDFDocument, fields: readonly StampField[], fonts: Fonts): Promise<void> {
  const pages = doc.getPages();
  const images = new Map<Uint8Array, Awaited<ReturnType<PDFDocument['embedPng']>>>();
  for (const field of fields) {
    const page = pages[field.page - 1];
    if (!page) throw new Error(`field on page ${field.page}, but the document has ${pages.length} pages`);
    const [a, b, c, d, e, f] = fieldMatrix(page, field);
    // Each field draws in its own coordinate system: origin at its bottom-left corner as displayed,
    // x to the right, y up, clipped to its box, whatever the page's /Rotate and boxes are.
    page.pushOperators(pushGraphicsState(), concatTransformationMatrix(a, b, c, d, e, f), rectangle(0, 0, field.width, field.height), clip(), endPath());
    if (field.type === 'text' || field.type === 'date') {
      // Dates are written as entered (ISO 8601, YYYY-MM-DD): one format on a document whatever each signer's language.
      drawValue(page, field, field.value ?? '', fonts);
    } else if (field.mark?.method === 'typed') {
      drawTypedMark(page, field, field.mark.text, fonts);
    } else if (field.mark?.method === 'drawn') {
      let image = images.get(field.mark.png);
      if (!image) {
        try {
          image = await doc.embedPng(field.mark.png);
        } catch {
          // The signing API checks only the PNG signature: a damaged image must not block the seal.
          drawTypedMark(page, field, '[signature image unreadable]', fonts);
          page.pushOperators(popGraphicsState());
          continue;
        }
        images.set(field.mark.png, image);
      }
      const pad = Math.min(field.width, field.height) * 0.05;
      const scale = Math.min((field.width - 2 * pad) / image.width, (field.height - 2 * pad) / image.height);
      const width = image.width * scale;
      const height = image.height * scale;
      page.drawImage(image, { x: (field.width - width) / 2, y: (field.height - height) / 2, width, height });
    }
    page.pushOperators(popGraphicsState());
  }
}

/** Text and date values: wrapped and shrunk (down to 5 pt) to fit the box; right-aligned when Arabic leads. */
function drawValue(page: PDFPage, field: StampField, value: string, fonts: Fonts): void {
  const pad = Math.min(2, field.width * 0.05);
  const width = field.width - 2 * pad;
  let size = Math.max(MIN_TEXT_SIZE, Math.min(MAX_TEXT_SIZE, field.height * 0.7));
  let lines = wrap(value, fonts.sans, size, width);
  while (size > MIN_TEXT_SIZE && (lines.length * size * 1.2 > field.height || lines.some((l) => textWidth(l, fonts.sans, size) > width))) {
    size = Math.max(MIN_TEXT_SIZE, size - 0.5);
    lines = wrap(value, fonts.sans, size, width);
  }
  const leading = size * 1.2;
  const block = lines.length * leading;
  // Centred vertically; the first line's baseline sits one ascent below the block's top.
  let baseline = (field.height + block) / 2 - size * 0.95;
  for (const line of lines) {
    const rtl = directionOf(line) === 'rtl';
    const x = rtl ? field.width - pad - textWidth(line, fonts.sans, size) : pad;
    drawLine(page, line, x, baseline, { font: fonts.sans, size, color: TEXT });
    baseline -= leading;
  }
}

/**
 * A typed signature or initials: the text in the handwriting font the signing page previews it in,
 * as large as the box allows; a long name shrinks to fit, never cut.
 */
function drawTypedMark(page: PDFPage, field: StampField, text: string, fonts: Fonts): void {
  const font = handFontFor(text, fonts);
  // One script in its handwriting face: drawn where the face puts each glyph (joins, dots).
  const hand = font === fonts.handLatin || font === fonts.handLatinExt || font === fonts.handArabic;
  const measure = (size: number) => (hand ? positionedWidth(text, font, size) : textWidth(text, font, size));
  const pad = Math.min(field.width, field.height) * 0.08;
  let size = (field.height - 2 * pad) * 0.8;
  const width = measure(size);
  if (width > field.width - 2 * pad) size *= (field.width - 2 * pad) / width;
  size = Math.max(size, 1);
  const x = (field.width - measure(size)) / 2;
  const y = (field.height - size * 0.7) / 2;
  (hand ? drawPositioned : drawLine)(page, text, x, y, { font, size, color: INK });
}

/**
 * The matrix from a field's own coordinates to the page's user space. Displayed pages are the CropBox
 * (clipped to the MediaBox) turned clockwise by /Rotate; the field is placed on that displayed page.
 */
export function fieldMatrix(page: PDFPage, field: Pick<StampField, 'x' | 'y' | 'height'>): [number, number, number, number, number, number] {
  const { box, rotation } = displayedBox(page);
  // Displayed point (dx, dy), origin top-left, y down -> user space.
  const toUser = (dx: number, dy: number): [number, number] => {
    switch (rotation) {
      case 90:
        return [box.x0 + dy, box.y0 + dx];
      case 180:
        return [box.x1 - dx, box.y0 + dy];
      case 270:
        return [box.x1 - dy, box.y1 - dx];
      default:
        return [box.x0 + dx, box.y1 - dy];
    }
  };
  const bottom = field.y + field.height;
  const [e, f] = toUser(field.x, bottom);
  const [ax, ay] = toUser(field.x + 1, bottom);
  const [cx, cy] = toUser(field.x, bottom - 1);
  return [ax - e, ay - f, cx - e, cy - f, e, f];
}
