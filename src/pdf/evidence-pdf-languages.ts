import { DEFAULT_LOCALE, LOCALES } from '../domain/locales.js';

import { AR } from './evidence-pdf-text-ar.js';
import { EN } from './evidence-pdf-text-en.js';
import { FR } from './evidence-pdf-text-fr.js';
import type { ReportLanguage, ReportText } from './evidence-pdf-text.js';

/** The evidence report's words, by language. */
export const REPORT_TEXT: Readonly<Record<ReportLanguage, ReportText>> = { en: EN, fr: FR, ar: AR };

/** The report's languages: English first, then French and Arabic when a signer uses them. */
export function reportLanguages(locales: ReadonlyArray<string | null | undefined>): ReportLanguage[] {
  const used = new Set(locales.map((l) => (l ?? '').toLowerCase().split(/[-_]/)[0]));
  return [DEFAULT_LOCALE, ...LOCALES.filter((l) => l !== DEFAULT_LOCALE && used.has(l))];
}
