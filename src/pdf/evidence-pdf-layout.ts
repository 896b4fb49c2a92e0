import { rgb, type Color, type PDFDocument, type PDFFont, type PDFImage, type PDFPage } from '@cantoo/pdf-lib';
import { REPORT_TEXT } from './evidence-pdf-languages.js';
import type { ReportLanguage, ReportText } from './evidence-pdf-text.js';
import type { EvidenceMark } from './evidence-report.js';
import { handFontFor, type Fonts } from './fonts.js';
import { drawLine, drawPositioned, positionedWidth, textWidth, wrap } from './text.js';

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 50;
export const WIDTH = A4[0] - 2 * MARGIN;
const BOTTOM = 64;
const INK = rgb(0.1, 0.1, 0.12);
const MARK_INK = rgb(0.05, 0.12, 0.45);
export const GREY = rgb(0.4, 0.4, 0.45);
const RULE = rgb(0.8, 0.8, 0.84);
const WARN = rgb(0.62, 0.1, 0.08);
const WARN_FILL = rgb(1, 0.94, 0.92);
const LABEL_WIDTH = 150;
export const MARK_BOX = { width: 170, height: 46 };

/**
 * A top-down cursor over A4 pages, left to right or right to left: in a right-to-left section every
 * line is aligned to the right margin and the label column is on the right.
 */
export class Layout {
  readonly #doc: PDFDocument;
  readonly fonts: Fonts;
  #page: PDFPage | undefined;
  #y = 0;
  #rtl = false;
  /** Each page's language, for its footer. */
  readonly #languages: ReportLanguage[] = [];
  #language: ReportLanguage = 'en';

  constructor(doc: PDFDocument, fonts: Fonts) {
    this.#doc = doc;
    this.fonts = fonts;
  }

  /** A new page; with a language, the section in that language starts here. */
  page(language: ReportLanguage = this.#language): void {
    this.#language = language;
    this.#rtl = language === 'ar';
    this.#page = this.#doc.addPage(A4);
    this.#languages.push(language);
    this.#y = A4[1] - MARGIN;
  }

  get #current(): PDFPage {
    if (!this.#page) this.page();
    return this.#page as PDFPage;
  }

  /** The x where a line starts `offset` points from the leading margin (the right one in right to left). */
  #x(offset: number, width = 0): number {
    return this.#rtl ? MARGIN + WIDTH - offset - width : MARGIN + offset;
  }

  /** Draws a line `offset` points from the leading margin, aligned to it. */
  #draw(line: string, offset: number, y: number, font: PDFFont, size: number, color: Color = INK): void {
    const width = this.#rtl ? textWidth(line, font, size) : 0;
    drawLine(this.#current, line, this.#x(offset, width), y, { font, size, color });
  }

  /** Starts a new page unless `height` points still fit on this one. */
  keep(height: number): void {
    if (this.#y - height < BOTTOM) this.page();
  }

  space(height: number): void {
    this.#y -= height;
  }

  text(text: string, options: { font?: PDFFont; size?: number; color?: Color; after?: number } = {}): void {
    const font = options.font ?? this.fonts.sans;
    const size = options.size ?? 9.5;
    for (const line of wrap(text, font, size, WIDTH)) {
      this.keep(size * 1.35);
      this.#y -= size * 1.35;
      this.#draw(line, 0, this.#y, font, size, options.color ?? INK);
    }
    this.#y -= options.after ?? 0;
  }

  paragraph(text: string): void {
    this.text(text, { after: 6 });
  }

  /** A section title, kept on a page with at least `next` points of what follows. */
  heading(title: string, next = 30): void {
    this.keep(30 + next);
    this.#y -= 14;
    this.text(title, { font: this.fonts.bold, size: 13, after: 3 });
    this.#current.drawLine({ start: { x: MARGIN, y: this.#y }, end: { x: MARGIN + WIDTH, y: this.#y }, thickness: 0.6, color: RULE });
    this.#y -= 6;
  }

  subheading(title: string): void {
    this.keep(30);
    this.#y -= 4;
    this.text(title, { font: this.fonts.bold, size: 9.5, color: GREY, after: 1 });
  }

  /**
   * A person's line: the name, then the email in angle brackets, in the reading order of the
   * section (drawn as two pieces, so an Arabic name in an English section still comes first).
   */
  person(name: string, email: string): void {
    const font = this.fonts.bold;
    const size = 10.5;
    this.keep(size * 1.5);
    this.#y -= size * 1.4;
    const mail = `<${email}>`;
    if (!name) {
      this.#draw(mail, 0, this.#y, font, size);
    } else {
      this.#draw(name, 0, this.#y, font, size);
      this.#draw(mail, textWidth(name, font, size) + textWidth(' ', font, size), this.#y, font, size);
    }
    this.#y -= 2;
  }

  /** A label and its value; the value wraps in its column. */
  row(label: string, value: string, font: PDFFont = this.fonts.sans): void {
    // Monospaced values are hashes and ids: 8 pt keeps a SHA-256 on one line.
    const size = font === this.fonts.mono ? 8 : 9.5;
    const labels = wrap(label, this.fonts.sans, 9.5, LABEL_WIDTH - 8);
    const lines = wrap(value, font, size, WIDTH - LABEL_WIDTH);
    this.keep(Math.max(lines.length * size, labels.length * 9.5) * 1.4);
    const top = this.#y;
    labels.forEach((line, i) => this.#draw(line, 0, top - (i + 1) * 9.5 * 1.4, this.fonts.sans, 9.5, GREY));
    for (const line of lines) {
      this.#y -= size * 1.4;
      this.#draw(line, LABEL_WIDTH, this.#y, font, size);
    }
    this.#y = Math.min(this.#y, top - labels.length * 9.5 * 1.4) - 2;
  }

  /** A signature or initials as made: the image, or the typed text in the handwriting font, in a box in the value column. */
  mark(mark: EvidenceMark, image: PDFImage | null): void {
    const { width, height } = MARK_BOX;
    this.keep(height + 6);
    const page = this.#current;
    const x = this.#x(LABEL_WIDTH, width);
    const y = this.#y - height - 2;
    page.drawRectangle({ x, y, width, height, borderColor: RULE, borderWidth: 0.6 });
    const pad = 4;
    if (mark.method === 'drawn' && image) {
      const scale = Math.min((width - 2 * pad) / image.width, (height - 2 * pad) / image.height);
      const w = image.width * scale;
      const h = image.height * scale;
      page.drawImage(image, { x: x + (width - w) / 2, y: y + (height - h) / 2, width: w, height: h });
    } else {
      const text = mark.method === 'typed' ? mark.text : '[image unreadable]';
      const font = mark.method === 'typed' ? handFontFor(text, this.fonts) : this.fonts.sans;
      // One script in its handwriting face: drawn where the face puts each glyph, as in the signed PDF.
      const hand = font === this.fonts.handLatin || font === this.fonts.handLatinExt || font === this.fonts.handArabic;
      const measure = (size: number) => (hand ? positionedWidth(text, font, size) : textWidth(text, font, size));
      let size = (height - 2 * pad) * 0.6;
      const natural = measure(size);
      if (natural > width - 2 * pad) size *= (width - 2 * pad) / natural;
      (hand ? drawPositioned : drawLine)(page, text, x + (width - measure(size)) / 2, y + (height - size * 0.7) / 2, { font, size, color: MARK_INK });
    }
    this.#y = y - 6;
  }

  warning(title: string, body: string): void {
    const size = 9.5;
    const lines = wrap(body, this.fonts.sans, size, WIDTH - 24);
    const height = 24 + 14 + lines.length * size * 1.4;
    this.keep(height);
    const page = this.#current;
    page.drawRectangle({ x: MARGIN, y: this.#y - height, width: WIDTH, height, color: WARN_FILL, borderColor: WARN, borderWidth: 1.5 });
    let y = this.#y - 22;
    this.#draw(title, 12, y, this.fonts.bold, 12, WARN);
    y -= 6;
    for (const line of lines) {
      y -= size * 1.4;
      this.#draw(line, 12, y, this.fonts.sans, size);
    }
    this.#y -= height + 6;
  }

  table(columns: Array<{ title: string; width: number }>, rows: string[][]): void {
    const size = 8.5;
    const offsets = columns.map((_, i) => columns.slice(0, i).reduce((sum, c) => sum + c.width, 0));
    const header = () => {
      this.keep(size * 3);
      this.#y -= size * 1.5;
      columns.forEach((column, i) => this.#draw(column.title, offsets[i] ?? 0, this.#y, this.fonts.bold, size, GREY));
      this.#y -= 4;
    };
    header();
    for (const row of rows) {
      const cells = row.map((cell, i) => wrap(cell, this.fonts.sans, size, (columns[i]?.width ?? 0) - 6));
      const height = Math.max(...cells.map((c) => c.length)) * size * 1.35 + 3;
      if (this.#y - height < BOTTOM) {
        this.page();
        header();
      }
      cells.forEach((lines, i) => {
        lines.forEach((line, n) => this.#draw(line, offsets[i] ?? 0, this.#y - (n + 1) * size * 1.35, this.fonts.sans, size));
      });
      this.#y -= height;
      this.#current.drawLine({ start: { x: MARGIN, y: this.#y + 1 }, end: { x: MARGIN + WIDTH, y: this.#y + 1 }, thickness: 0.3, color: RULE });
    }
    this.#y -= 4;
  }

  /** Each page's footer in its section's language: what it is and the page number at the leading side, the time at the other. */
  footers(texts: (t: ReportText, page: number, pages: number) => [string, string]): void {
    const pages = this.#doc.getPages();
    const size = 7.5;
    pages.forEach((page, i) => {
      const language = this.#languages[i] ?? 'en';
      const [lead, trail] = texts(REPORT_TEXT[language], i + 1, pages.length);
      const rtl = language === 'ar';
      const leadWidth = textWidth(lead, this.fonts.sans, size);
      const trailWidth = textWidth(trail, this.fonts.sans, size);
      drawLine(page, lead, rtl ? MARGIN + WIDTH - leadWidth : MARGIN, 36, { font: this.fonts.sans, size, color: GREY });
      drawLine(page, trail, rtl ? MARGIN : MARGIN + WIDTH - trailWidth, 36, { font: this.fonts.sans, size, color: GREY });
    });
  }
}
