import { PDFArray, PDFName, PDFNumber, type PDFObject, type PDFPage } from '@cantoo/pdf-lib';

/** A rectangle in PDF user space. */
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export type Rotation = 0 | 90 | 180 | 270;

// What readers assume when a page has no usable MediaBox (US Letter).
const DEFAULT_BOX: Box = { x0: 0, y0: 0, x1: 612, y1: 792 };

/**
 * The page as displayed: its CropBox clipped to its MediaBox, turned clockwise by /Rotate. Upload
 * inspection and stamping both read pages through this, so a field lands where it was checked.
 */
export function displayedBox(page: PDFPage): { box: Box; rotation: Rotation } {
  const media = readBox(page, 'MediaBox') ?? DEFAULT_BOX;
  const crop = readBox(page, 'CropBox');
  return { box: (crop && intersect(crop, media)) ?? media, rotation: readRotation(page) };
}

// Inheritable attributes are looked up by hand: pdf-lib's accessors throw on a wrongly typed value,
// where readers fall back to the default.
function inherited(page: PDFPage, key: string): PDFObject | undefined {
  return page.doc.context.lookup(page.node.getInheritableAttribute(PDFName.of(key)));
}

function readBox(page: PDFPage, key: string): Box | undefined {
  const array = inherited(page, key);
  if (!(array instanceof PDFArray) || array.size() !== 4) return undefined;
  const n: number[] = [];
  for (let i = 0; i < 4; i++) {
    const value = array.lookup(i);
    if (!(value instanceof PDFNumber) || !Number.isFinite(value.asNumber())) return undefined;
    n.push(value.asNumber());
  }
  const [a = 0, b = 0, c = 0, d = 0] = n;
  const box = { x0: Math.min(a, c), y0: Math.min(b, d), x1: Math.max(a, c), y1: Math.max(b, d) };
  return box.x1 > box.x0 && box.y1 > box.y0 ? box : undefined;
}

function intersect(a: Box, b: Box): Box | undefined {
  const box = { x0: Math.max(a.x0, b.x0), y0: Math.max(a.y0, b.y0), x1: Math.min(a.x1, b.x1), y1: Math.min(a.y1, b.y1) };
  return box.x1 > box.x0 && box.y1 > box.y0 ? box : undefined;
}

function readRotation(page: PDFPage): Rotation {
  const value = inherited(page, 'Rotate');
  const angle = value instanceof PDFNumber ? value.asNumber() : 0;
  // Readers ignore angles that are not a multiple of 90.
  if (!Number.isInteger(angle) || angle % 90 !== 0) return 0;
  return (((angle % 360) + 360) % 360) as Rotation;
}
