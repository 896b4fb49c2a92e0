// Hand-built page models for the detection rules' unit tests: words on a baseline, a page holding them,
// a paragraph of running text that sets the page's language, rules, and suggestions in brief.
import { splitItem } from '../../src/pdf/detect/page-scan.js';
import type { PageModel, Suggestion, Word } from '../../src/pdf/detect/suggest-fields.js';

/** Words laid out left to right (or right to left) on one baseline, Helvetica-ish widths. */
export function words(text: string, x: number, baseline: number, size = 10, rtl = false): Word[] {
  return splitItem(text, x, baseline, [...text].length * size * 0.5, size, rtl);
}

/** An A4 page with nothing on it but `parts`. */
export function page(parts: Partial<PageModel>): PageModel {
  return { page: 1, width: 595.28, height: 841.89, words: [], segments: [], verticals: [], boxes: [], widgets: [], ocr: false, ...parts };
}

/** A paragraph of running text in a language, so that the page's language is known. */
export function paragraph(language: 'en' | 'it' | 'de' | 'fr' | 'es' | 'pt' | 'ar', y: number): Word[] {
  const text = {
    en: 'The undersigned declares that he has read the terms of this agreement and that he agrees to them and to the processing of the data',
    it: 'Il sottoscritto dichiara di aver letto e compreso le condizioni del presente contratto e di accettarle per intero con la firma',
    fr: 'Le soussigné déclare avoir pris connaissance des conditions du présent contrat et les accepter ainsi que le traitement de ses données',
    es: 'La persona que suscribe declara haber leído las condiciones del presente contrato y que las acepta en su totalidad y el tratamiento de sus datos',
    pt: 'O abaixo assinado declara que leu as condições do presente contrato e que as aceita na totalidade assim como o tratamento dos seus dados',
    de: 'Der Unterzeichner erklärt, dass er die Bedingungen des Vertrages gelesen hat und mit der Verarbeitung der Daten einverstanden ist',
    ar: 'يقر الطرف الثاني بأنه قد اطلع على شروط هذا العقد وأنه يوافق عليها وعلى معالجة البيانات الشخصية الخاصة به في هذا العقد',
  }[language];
  return [0, 1, 2, 3].flatMap((i) => words(text, 50, y + i * 14, 9, language === 'ar'));
}

/** The same paragraph without the word naming who signs ("The undersigned", "Der Unterzeichner"): a page that does not speak of signing. */
export function plainParagraph(language: 'en' | 'de' | 'it' | 'fr' | 'es', y: number): Word[] {
  const signer: Record<string, string> = {
    undersigned: 'customer',
    Unterzeichner: 'Kunde',
    sottoscritto: 'cliente',
    soussigné: 'client',
    suscribe: 'contrata',
  };
  return paragraph(language, y).map((w) => (signer[w.text] ? { ...w, text: signer[w.text] as string } : w));
}

/** Suggestions as type and rounded geometry. */
export const brief = (list: Suggestion[]) =>
  list.map((s) => ({ type: s.type, x: Math.round(s.x), y: Math.round(s.y), w: Math.round(s.width), h: Math.round(s.height) }));
/** The suggestions' types, sorted. */
export const types = (list: Suggestion[]) => list.map((s) => s.type).sort();
/** A horizontal rule from x0 to x1 at y. */
export const h = (x0: number, x1: number, y: number) => ({ x0, x1, y });
/** A vertical rule at x from y0 to y1. */
export const v = (x: number, y0: number, y1: number) => ({ x, y0, y1 });
