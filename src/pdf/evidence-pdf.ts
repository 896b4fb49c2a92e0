import { PDFDocument, type PDFImage } from '@cantoo/pdf-lib';
import { GREY, Layout, MARK_BOX, WIDTH } from './evidence-pdf-layout.js';
import { REPORT_TEXT, reportLanguages } from './evidence-pdf-languages.js';
import { eventName, type ReportLanguage, type ReportText } from './evidence-pdf-text.js';
import type { EvidenceReport } from './evidence-report.js';
import { embedFonts, type FontName } from './fonts.js';

export type { EvidenceMark, EvidenceReport } from './evidence-report.js';

/**
 * The readable evidence report of a completed request (A4): the English version, then a French and
 * an Arabic one (right to left) when a signer of the request uses that language. Each version
 * starts on a page of its own and states the same facts.
 */
export async function renderEvidencePdf(report: EvidenceReport): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const when = new Date(report.generatedAt);
  doc.setTitle(`Evidence report ${report.evidenceRef}`);
  doc.setSubject(`Signature request ${report.requestId}`);
  doc.setProducer('paraph sandbox');
  doc.setCreator('paraph sandbox');
  doc.setCreationDate(when);
  doc.setModificationDate(when);
  const languages = reportLanguages(report.signers.map((s) => s.locale));
  // The document's language is that of its first version, which prevails.
  doc.setLanguage('en');
  const typed = report.signers.some((s) => s.marks?.some((m) => m.method === 'typed'));
  const names: FontName[] = ['sans', 'bold', 'mono', ...(typed ? (['script', 'handLatin', 'handLatinExt', 'handArabic'] as const) : [])];
  const fonts = await embedFonts(doc, names);
  const out = new Layout(doc, fonts);
  const images = await embedMarks(doc, report);
  for (const language of languages) section(out, report, language, languages, images);
  out.footers((t, page, pages) => [t.footer(report.evidenceRef, page, pages), t.generated(time(report.generatedAt))]);
  return doc.save({ useObjectStreams: false });
}

/** The drawn marks as images, once each; a PNG that does not decode is left out (and said so). */
async function embedMarks(doc: PDFDocument, report: EvidenceReport): Promise<Map<Uint8Array, PDFImage | null>> {
  const images = new Map<Uint8Array, PDFImage | null>();
  for (const mark of report.signers.flatMap((s) => s.marks ?? [])) {
    if (mark.method !== 'drawn' || images.has(mark.png)) continue;
    try {
      images.set(mark.png, await doc.embedPng(mark.png));
    } catch {
      // The signing API checks only the PNG signature: a damaged image must not block the report.
      images.set(mark.png, null);
    }
  }
  return images;
}

/** The whole report in one language, from a new page. */
function section(out: Layout, report: EvidenceReport, language: ReportLanguage, languages: ReportLanguage[], images: Map<Uint8Array, PDFImage | null>): void {
  const t = REPORT_TEXT[language];
  const fonts = out.fonts;
  out.page(language);
  out.text(t.title, { font: fonts.bold, size: 22, after: 4 });
  out.text(`${t.reference} ${report.evidenceRef}`, { font: language === 'ar' ? fonts.sans : fonts.mono, size: 12, after: 4 });
  const note =
    language === 'en'
      ? languages.length > 1
        ? t.contentsNote(languages.slice(1).map((l) => `${t.languages[l] ?? l} (${REPORT_TEXT[l].languageName})`))
        : ''
      : t.translationNote;
  if (note) out.text(note, { color: GREY, after: 4 });
  out.space(8);
  out.warning(t.warningTitle, t.warning);

  out.heading(t.document);
  out.row(t.name, report.documentName);
  out.row(t.signatureRequest, report.requestId, fonts.mono);
  out.row(t.clientReference, report.clientReference);
  out.row(t.status, t.requestStatus[report.status] ?? report.status);
  out.row(t.signingOrder, report.sequentialSigning ? t.sequential : t.anyOrder);
  out.row(t.created, time(report.createdAt));
  out.row(t.completed, time(report.completedAt));
  out.row(t.purgedAfter, time(report.retentionExpiresAt));

  out.heading(t.integrity);
  out.row(t.originalHash, report.hashes.original, fonts.mono);
  out.row(t.signedHash, report.hashes.signed, fonts.mono);
  out.row(t.seal, t.sealValue(report.timestamps.length > 0 ? 'B-T' : 'B-B'));
  out.row(t.certificate, report.certificate.subject);
  out.row(t.certificateHash, report.certificate.sha256, fonts.mono);
  out.row(t.certificateSerial, report.certificate.serialNumber, fonts.mono);
  out.row(t.certificateValidity, t.validityRange(time(report.certificate.notBefore), time(report.certificate.notAfter)));
  out.row(t.trust, t.trustValue);

  timestampSection(out, report, t);
  signersSection(out, report, t, images);

  out.heading(t.timeline);
  out.table(
    [
      { title: t.columns.number, width: 28 },
      { title: t.columns.time, width: 126 },
      { title: t.columns.event, width: 168 },
      { title: t.columns.actor, width: WIDTH - 28 - 126 - 168 },
    ],
    report.events.map((e) => [String(e.id), time(e.createdAt), eventName(e.type, t), actorOf(e, t)]),
  );

  chainSection(out, report, t);
}

/** The seal's timestamps: when, by which authority, and whether paraph could check the token. */
function timestampSection(out: Layout, report: EvidenceReport, t: ReportText): void {
  out.heading(t.timestampHeading);
  if (report.timestamps.length === 0) {
    out.paragraph(t.noTimestamp);
    return;
  }
  for (const stamp of report.timestamps) {
    out.keep(5 * 16);
    out.row(t.timestamp, time(stamp.generatedAt));
    out.row(t.authority, stamp.provider);
    out.row(t.status, t.timestampStatus[stamp.verificationStatus] ?? stamp.verificationStatus);
    out.row(t.stamped(stamp.hashAlgorithm.toUpperCase()), stamp.documentHash, out.fonts.mono);
    out.space(6);
  }
  out.paragraph(t.timestampNote);
}

/** Each signer: name before email, status, verification, marks with their method, values entered. */
function signersSection(out: Layout, report: EvidenceReport, t: ReportText, images: Map<Uint8Array, PDFImage | null>): void {
  out.heading(t.signers, 8 * 16 + MARK_BOX.height);
  for (const signer of report.signers) {
    out.keep(6 * 16 + MARK_BOX.height);
    out.person(signer.name, signer.email);
    out.row(t.signerReference, signer.reference);
    if (signer.locale) out.row(t.language, `${t.languages[signer.locale.toLowerCase().split(/[-_]/)[0] ?? ''] ?? signer.locale} (${signer.locale})`);
    if (signer.signingOrder !== null) out.row(t.signingOrder, String(signer.signingOrder));
    out.row(t.status, t.signerStatus[signer.status] ?? signer.status);
    out.row(t.signed, time(signer.signedAt));
    out.row(t.verification, signer.verification === 'email_otp' ? t.verificationOtp(time(signer.verifiedAt)) : t.verificationNone);
    for (const mark of signer.marks ?? []) {
      const label = mark.kind === 'initials' ? t.initials : t.signature;
      out.row(label, t.method[mark.method]);
      out.mark(mark, mark.method === 'drawn' ? (images.get(mark.png) ?? null) : null);
    }
    const values = signer.values ?? [];
    if (values.length > 0) {
      out.subheading(t.values);
      for (const value of values) out.row(value.label, value.prefilled ? `${value.value} (${t.prefilled})` : value.value);
    }
    out.space(8);
  }
}

/** Which event the chain head is, and why `paraph audit verify` then counts one event more. */
function chainSection(out: Layout, report: EvidenceReport, t: ReportText): void {
  const last = report.events.at(-1);
  const lastId = last?.id ?? report.chain.count;
  out.heading(t.auditTrail);
  out.paragraph(t.auditIntro(report.chain.count));
  if (last) out.paragraph(t.headCovers(last.id, eventName(last.type, t), time(last.createdAt)));
  out.paragraph(t.nextEvent(lastId + 1, eventName('artifacts_generated', t)));
  out.paragraph(t.verifyAnswer(report.chain.count + 1));
  out.row(t.coversEvent, report.events.length > 0 ? `#1 - #${lastId}` : '-');
  out.row(t.chainHead, report.chain.head, out.fonts.mono);
  out.row(t.checkIt, `paraph audit verify ${report.requestId}`, out.fonts.mono);
}

function actorOf(event: EvidenceReport['events'][number], t: ReportText): string {
  const role = t.actors[event.actorType] ?? event.actorType;
  return event.actorEmail ? `${role} ${event.actorEmail}` : role;
}

function time(iso: string | null): string {
  return iso === null ? '-' : `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}
