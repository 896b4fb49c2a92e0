import { PDFDocument, rgb, type Color, type PDFFont, type PDFPage } from 'pdf-lib';
import { embedFonts, type Fonts } from './fonts.js';
import { drawLine, textWidth, wrap } from './text.js';

/** What the evidence report states, all of it already decided by the caller. */
export interface EvidenceReport {
  evidenceRef: string;
  /** ISO times (sandbox clock). */
  generatedAt: string;
  requestId: string;
  clientReference: string;
  documentName: string;
  status: string;
  sequentialSigning: boolean;
  createdAt: string;
  completedAt: string | null;
  retentionExpiresAt: string | null;
  hashes: { original: string; signed: string };
  certificate: { subject: string; sha256: string; serialNumber: string; notBefore: string; notAfter: string };
  signers: Array<{
    reference: string;
    name: string;
    email: string;
    signingOrder: number | null;
    status: string;
    signedAt: string | null;
    verification: string;
    verifiedAt: string | null;
  }>;
  events: Array<{ id: number; type: string; actorType: string; actorEmail: string; createdAt: string }>;
  chain: { head: string; count: number };
  /** The seal's RFC 3161 timestamps (empty: a B-B seal). */
  timestamps: Array<{ provider: string; hashAlgorithm: string; documentHash: string; generatedAt: string | null; verificationStatus: string }>;
}

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 50;
const WIDTH = A4[0] - 2 * MARGIN;
const BOTTOM = 64;
const INK = rgb(0.1, 0.1, 0.12);
const GREY = rgb(0.4, 0.4, 0.45);
const RULE = rgb(0.8, 0.8, 0.84);
const WARN = rgb(0.62, 0.1, 0.08);
const WARN_FILL = rgb(1, 0.94, 0.92);
const LABEL_WIDTH = 150;

/** The readable evidence report of a completed request (English, A4). */
export async function renderEvidencePdf(report: EvidenceReport): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const when = new Date(report.generatedAt);
  doc.setTitle(`Evidence report ${report.evidenceRef}`);
  doc.setSubject(`Signature request ${report.requestId}`);
  doc.setProducer('paraph sandbox');
  doc.setCreator('paraph sandbox');
  doc.setCreationDate(when);
  doc.setModificationDate(when);
  const fonts = await embedFonts(doc, ['sans', 'bold', 'mono']);
  const out = new Layout(doc, fonts);

  out.page();
  out.text('Evidence report', { font: fonts.bold, size: 22, after: 4 });
  out.text(`Evidence reference ${report.evidenceRef}`, { font: fonts.mono, size: 12, after: 14 });
  out.warning(
    'TEST ENVIRONMENT - NO LEGAL VALUE',
    'This document was sealed by the paraph sandbox with its self-signed test certificate. It is not an ' +
      'advanced or qualified electronic signature: no production trust service, no identity verification, ' +
      'no qualified timestamp and no long-term archive were involved. Use it for integration testing with ' +
      'fictitious data only.',
  );

  out.heading('Document');
  out.row('Name', report.documentName);
  out.row('Signature request', report.requestId, fonts.mono);
  out.row('Client reference', report.clientReference);
  out.row('Status', report.status);
  out.row('Signing order', report.sequentialSigning ? 'sequential' : 'any order');
  out.row('Created', time(report.createdAt));
  out.row('Completed', time(report.completedAt));
  out.row('Content purged after', time(report.retentionExpiresAt));

  out.heading('Integrity');
  out.row('Original PDF SHA-256', report.hashes.original, fonts.mono);
  out.row('Signed PDF SHA-256', report.hashes.signed, fonts.mono);
  out.row(
    'Seal',
    `PAdES baseline ${report.timestamps.length > 0 ? 'B-T' : 'B-B'} (ETSI.CAdES.detached), one signature over the whole signed PDF`,
  );
  out.row('Certificate', report.certificate.subject);
  out.row('Certificate SHA-256', report.certificate.sha256, fonts.mono);
  out.row('Certificate serial', report.certificate.serialNumber, fonts.mono);
  out.row('Certificate validity', `${time(report.certificate.notBefore)} to ${time(report.certificate.notAfter)}`);
  out.row('Trust', 'test/self-signed certificate; not issued by a trust service');

  timestampSection(out, report, fonts);

  out.heading('Signers');
  for (const signer of report.signers) {
    out.keep(5 * 16);
    out.text(signer.name ? `${signer.name} <${signer.email}>` : signer.email, { font: fonts.bold, size: 10.5, after: 2 });
    out.row('Reference', signer.reference);
    if (signer.signingOrder !== null) out.row('Signing order', String(signer.signingOrder));
    out.row('Status', signer.status);
    out.row('Signed', time(signer.signedAt));
    out.row('Verification', signer.verification === 'email_otp' ? `email code, entered ${time(signer.verifiedAt)}` : 'none (access through the signing link)');
    out.space(6);
  }

  out.heading('Event timeline');
  out.table(
    [
      { title: '#', width: 28 },
      { title: 'Time (UTC)', width: 126 },
      { title: 'Event', width: 140 },
      { title: 'Actor', width: WIDTH - 28 - 126 - 140 },
    ],
    report.events.map((e) => [String(e.id), time(e.createdAt), e.type, e.actorEmail ? `${e.actorType} ${e.actorEmail}` : e.actorType]),
  );

  out.heading('Audit trail');
  out.paragraph(
    `The ${report.chain.count} events above are paraph's audit trail of this request. The trail is append-only ` +
      "and hash-chained: each event's SHA-256 covers its content and the previous event's hash, so a changed, " +
      'removed or reordered event breaks the chain.',
  );
  out.row('Chain head', report.chain.head, fonts.mono);
  out.row('Check it', `paraph audit verify ${report.requestId}`, fonts.mono);

  out.footers(`paraph evidence report ${report.evidenceRef}`, `generated ${time(report.generatedAt)} (sandbox clock)`);
  return doc.save({ useObjectStreams: false });
}

/** The seal's timestamps: when, by which authority, and whether paraph could check the token. */
function timestampSection(out: Layout, report: EvidenceReport, fonts: Fonts): void {
  out.heading('Timestamp');
  if (report.timestamps.length === 0) {
    out.paragraph('The seal carries no timestamp (PAdES B-B): its time is the signing time in the signature dictionary, stated by paraph alone.');
    return;
  }
  const statusText: Record<string, string> = {
    verified: "verified: the token's signature and content were checked against the authority's certificate",
    unverified: "not verified: the authority's certificate (trust anchor) was not available to paraph",
    failed: 'FAILED: the token does not check against its authority',
  };
  for (const stamp of report.timestamps) {
    out.keep(5 * 16);
    out.row('Timestamp', time(stamp.generatedAt));
    out.row('Authority', stamp.provider);
    out.row('Status', statusText[stamp.verificationStatus] ?? stamp.verificationStatus);
    out.row(`Stamped ${stamp.hashAlgorithm.toUpperCase()}`, stamp.documentHash, fonts.mono);
    out.space(6);
  }
  out.paragraph(
    "Each is an RFC 3161 token over the SHA-256 of the seal's signature value (signature-time-stamp attribute); " +
      'none is a qualified timestamp.',
  );
}

function time(iso: string | null): string {
  return iso === null ? '-' : `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}

/** A top-down cursor over A4 pages. */
class Layout {
  readonly #doc: PDFDocument;
  readonly #fonts: Fonts;
  #page: PDFPage | undefined;
  #y = 0;

  constructor(doc: PDFDocument, fonts: Fonts) {
    this.#doc = doc;
    this.#fonts = fonts;
  }

  page(): void {
    this.#page = this.#doc.addPage(A4);
    this.#y = A4[1] - MARGIN;
  }

  get #current(): PDFPage {
    if (!this.#page) this.page();
    return this.#page as PDFPage;
  }

  /** Starts a new page unless `height` points still fit on this one. */
  keep(height: number): void {
    if (this.#y - height < BOTTOM) this.page();
  }

  space(height: number): void {
    this.#y -= height;
  }

  text(text: string, options: { font?: PDFFont; size?: number; color?: Color; after?: number; x?: number; width?: number } = {}): void {
    const font = options.font ?? this.#fonts.sans;
    const size = options.size ?? 9.5;
    for (const line of wrap(text, font, size, options.width ?? WIDTH)) {
      this.keep(size * 1.35);
      this.#y -= size * 1.35;
      drawLine(this.#current, line, MARGIN + (options.x ?? 0), this.#y, { font, size, color: options.color ?? INK });
    }
    this.#y -= options.after ?? 0;
  }

  paragraph(text: string): void {
    this.text(text, { after: 6 });
  }

  heading(title: string): void {
    this.keep(60);
    this.#y -= 14;
    this.text(title, { font: this.#fonts.bold, size: 13, after: 3 });
    this.#current.drawLine({ start: { x: MARGIN, y: this.#y }, end: { x: MARGIN + WIDTH, y: this.#y }, thickness: 0.6, color: RULE });
    this.#y -= 6;
  }

  /** A label and its value; the value wraps in its column. */
  row(label: string, value: string, font: PDFFont = this.#fonts.sans): void {
    // Monospaced values are hashes and ids: 8 pt keeps a SHA-256 on one line.
    const size = font === this.#fonts.mono ? 8 : 9.5;
    const lines = wrap(value, font, size, WIDTH - LABEL_WIDTH);
    this.keep(lines.length * size * 1.4);
    const top = this.#y;
    drawLine(this.#current, label, MARGIN, top - size * 1.4, { font: this.#fonts.sans, size: 9.5, color: GREY });
    for (const line of lines) {
      this.#y -= size * 1.4;
      drawLine(this.#current, line, MARGIN + LABEL_WIDTH, this.#y, { font, size, color: INK });
    }
    this.#y -= 2;
  }

  warning(title: string, body: string): void {
    const size = 9.5;
    const lines = wrap(body, this.#fonts.sans, size, WIDTH - 24);
    const height = 24 + 14 + lines.length * size * 1.4;
    this.keep(height);
    const page = this.#current;
    page.drawRectangle({ x: MARGIN, y: this.#y - height, width: WIDTH, height, color: WARN_FILL, borderColor: WARN, borderWidth: 1.5 });
    let y = this.#y - 22;
    drawLine(page, title, MARGIN + 12, y, { font: this.#fonts.bold, size: 12, color: WARN });
    y -= 6;
    for (const line of lines) {
      y -= size * 1.4;
      drawLine(page, line, MARGIN + 12, y, { font: this.#fonts.sans, size, color: INK });
    }
    this.#y -= height + 6;
  }

  table(columns: Array<{ title: string; width: number }>, rows: string[][]): void {
    const size = 8.5;
    const header = () => {
      this.keep(size * 3);
      this.#y -= size * 1.5;
      let x = MARGIN;
      for (const column of columns) {
        drawLine(this.#current, column.title, x, this.#y, { font: this.#fonts.bold, size, color: GREY });
        x += column.width;
      }
      this.#y -= 4;
    };
    header();
    for (const row of rows) {
      const cells = row.map((cell, i) => wrap(cell, this.#fonts.sans, size, (columns[i]?.width ?? 0) - 6));
      const height = Math.max(...cells.map((c) => c.length)) * size * 1.35 + 3;
      if (this.#y - height < BOTTOM) {
        this.page();
        header();
      }
      let x = MARGIN;
      cells.forEach((lines, i) => {
        lines.forEach((line, n) => drawLine(this.#current, line, x, this.#y - (n + 1) * size * 1.35, { font: this.#fonts.sans, size, color: INK }));
        x += columns[i]?.width ?? 0;
      });
      this.#y -= height;
      this.#current.drawLine({ start: { x: MARGIN, y: this.#y + 1 }, end: { x: MARGIN + WIDTH, y: this.#y + 1 }, thickness: 0.3, color: RULE });
    }
    this.#y -= 4;
  }

  footers(left: string, right: string): void {
    const pages = this.#doc.getPages();
    pages.forEach((page, i) => {
      const size = 7.5;
      const label = `${left} - page ${i + 1} of ${pages.length}`;
      drawLine(page, label, MARGIN, 36, { font: this.#fonts.sans, size, color: GREY });
      drawLine(page, right, MARGIN + WIDTH - textWidth(right, this.#fonts.sans, size), 36, { font: this.#fonts.sans, size, color: GREY });
    });
  }
}
