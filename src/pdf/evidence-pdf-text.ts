import type { Locale } from '../domain/locales.js';
import { type AuditEventType, isAuditEventType } from '../domain/audit-events.js';

/**
 * The words of the evidence report, in the languages a signer can use: English (always printed),
 * French and Arabic (printed when a signer of the request uses them). Times and hashes stay as they
 * are in every language: ISO dates in UTC, Western digits, so the sections compare at a glance.
 * This module holds what every language must say; the words themselves are in evidence-pdf-text-en.ts,
 * -fr.ts and -ar.ts, and evidence-pdf-languages.ts picks a request's languages.
 */

/** The report is written in the languages paraph speaks to signers. */
export type ReportLanguage = Locale;

export interface ReportText {
  /** Names the section in the language list of the first page. */
  languageName: string;
  title: string;
  reference: string;
  warningTitle: string;
  warning: string;
  /** Under the title of a translated section. */
  translationNote: string;
  /** Under the title of the English section when translations follow. */
  contentsNote: (others: string[]) => string;
  document: string;
  name: string;
  signatureRequest: string;
  clientReference: string;
  status: string;
  signingOrder: string;
  sequential: string;
  anyOrder: string;
  created: string;
  completed: string;
  purgedAfter: string;
  integrity: string;
  originalHash: string;
  signedHash: string;
  seal: string;
  sealValue: (level: string) => string;
  certificate: string;
  certificateHash: string;
  certificateSerial: string;
  certificateValidity: string;
  validityRange: (from: string, to: string) => string;
  trust: string;
  trustValue: string;
  timestampHeading: string;
  noTimestamp: string;
  timestamp: string;
  authority: string;
  stamped: (algorithm: string) => string;
  timestampStatus: Record<string, string>;
  timestampNote: string;
  signers: string;
  signerReference: string;
  language: string;
  signed: string;
  verification: string;
  verificationOtp: (at: string) => string;
  verificationNone: string;
  signature: string;
  initials: string;
  method: Record<'drawn' | 'typed', string>;
  noMark: string;
  values: string;
  prefilled: string;
  timeline: string;
  columns: { number: string; time: string; event: string; actor: string };
  actors: Record<string, string>;
  auditTrail: string;
  auditIntro: (count: number) => string;
  headCovers: (id: number, event: string, at: string) => string;
  nextEvent: (id: number, event: string) => string;
  verifyAnswer: (count: number) => string;
  chainHead: string;
  coversEvent: string;
  checkIt: string;
  footer: (ref: string, page: number, pages: number) => string;
  generated: (at: string) => string;
  requestStatus: Record<string, string>;
  signerStatus: Record<string, string>;
  languages: Record<string, string>;
  /** A label for every audit event type: a type without one fails the build. */
  events: Record<AuditEventType, string>;
}

/** An event's readable name; a stored type paraph does not record (never written by it) shows as its code. */
export function eventName(type: string, text: ReportText): string {
  return isAuditEventType(type) ? text.events[type] : type;
}
