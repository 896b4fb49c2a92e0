/**
 * Caption words OCR misread by a letter ("Unterschyift", "Signatvre", "Assinafura"): on a scanned page,
 * a long word it read with less than full confidence that is one letter away (one changed, added or
 * dropped) from a long word of the captions' lexicon is that word, so that the caption is still read.
 * Short words are left as read: one letter turns them into other words.
 */
import { LABELS, normalizeToken } from './lexicon.js';
import { SIGNER_WORDS } from './lexicon-european.js';
import type { Word } from './page-model.js';

const MIN_LENGTH = 8;
const LEXICON = [...new Set([...LABELS.flatMap((e) => e.tokens), ...SIGNER_WORDS.map(normalizeToken)])].filter(
  (t) => t.length >= MIN_LENGTH && /^\p{L}+$/u.test(t),
);
const KNOWN = new Set(LEXICON);

/** Whether a and b are at most one edit apart (a change, an addition or a removal of one letter). */
function oneEdit(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) return a.slice(i + 1) === b.slice(i + 1);
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

export function misreadCaptions(words: readonly Word[]): Word[] {
  return words.map((w) => {
    if (w.confidence >= 0.95) return w;
    const m = /^(\P{L}*)(\p{L}+)(\P{L}*)$/u.exec(w.text);
    if (!m) return w;
    const core = normalizeToken(m[2] as string);
    if (core.length < MIN_LENGTH || KNOWN.has(core)) return w;
    const near = LEXICON.filter((t) => oneEdit(core, t));
    return near.length === 1 ? { ...w, text: `${m[1]}${near[0]}${m[3]}` } : w;
  });
}
