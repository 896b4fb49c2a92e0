/**
 * Words as field detection compares them: case, accents and Arabic letter variants folded
 * (`normalizeToken`), and the scripts written right to left. Pure string functions.
 */

import { remembering } from '../../platform/string-memo.js';

const ARABIC = /[\u0600-\u06ff\u0750-\u077f\ufb50-\ufdff\ufe70-\ufeff]/;
export const isArabic = (s: string): boolean => ARABIC.test(s);
const RTL = /[\u0590-\u05ff\ufb1d-\ufb4f\u0600-\u06ff\u0750-\u077f\ufb50-\ufdff\ufe70-\ufeff]/;
/** Written right to left: Arabic or Hebrew. */
export const isRtl = (s: string): boolean => RTL.test(s);

/**
 * Case, accents, the German sharp s, soft hyphens and zero-width marks, and Arabic letter variants folded: "Approuvé" -> "approuve", "Straße" -> "strasse", "الأول" -> "الاول",
 * tatweel and harakat dropped; punctuation at either end removed. The same words come back on every
 * line and page: each is folded once (the last 50,000 are kept).
 */
export const normalizeToken = remembering(fold, 50_000);

function fold(raw: string): string {
  let s = raw
    // The cross marking a place to sign reads as the letter.
    .replace(/^[×✗✘]$/u, 'x')
    // A degree sign after a number is the ordinal's "º" ("1° Testemunha", typed or read so by OCR).
    .replace(/(\d)°/gu, '$1º')
    // (Soft hyphens and zero-width marks a text layer leaves inside a word: "Unter\u00ADschrift" is "Unterschrift".)
    .replace(/[\u00ad\u200b-\u200d\u2060\ufeff]/gu, '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    // (German sharp s as Swiss German writes it, and as the lexicon does: "Straße" -> "strasse", "Grüßen" -> "grussen".)
    .replace(/ß/g, 'ss');
  s = s
    .replace(/[\u064b-\u065f\u0670\u0640\u0591-\u05c7]/g, '')
    .replace(/[أإآٱ]/g, 'ا')
    .replace(/ى/g, 'ي')
    // Persian and Urdu letter forms that Arabic text typed with their keyboards or fonts carries ("توقیع", "مدیر").
    .replace(/ی/g, 'ي')
    .replace(/ک/g, 'ك')
    .replace(/[ھە]/g, 'ه')
    .replace(/ة/g, 'ه')
    .replace(/ؤ/g, 'و')
    .replace(/ئ/g, 'ي')
    // A lam-alef ligature often comes out of a PDF's text layer as alef-lam: match both the same way.
    .replace(/لا/g, 'ال');
  return s.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
}
