/**
 * What a text layer splits that a reader sees whole, put back together: words some generators write one
 * glyph at a time (Arabic shaped into presentation forms and positioned glyph by glyph: pdf.js gives one
 * item per glyph, in visual order), and rules drawn as a row of dots or dashes (a dotted border: many
 * small squares in a row); and a dotted line OCR reads as letters. And what it writes otherwise than a reader
 * reads: a word printed over itself, ligatures mapped to letters of their own, a caption in pieces. Pure
 * functions over the page's words and rules.
 */
import { LABELS, isFillToken } from './lexicon.js';
import { isRtl, normalizeToken } from './token-folding.js';
import { advance } from './glyph-widths.js';
import type { Rect, Segment, Word } from './page-model.js';

/** The words captions are made of, for letters spaced out one by one. */
const LABEL_WORDS = new Set(LABELS.flatMap((e) => e.tokens));
/** A word's row: its baseline to half a point. */
const row = (w: Word) => Math.round(w.baseline * 2);

/** Words row by row, left to right in each. */
function inRows(words: readonly Word[]): Word[] {
  return [...words].sort((a, b) => row(a) - row(b) || a.box.x0 - b.box.x0);
}

/**
 * Words that touch on one baseline, in the same size, joined into one: glyphs drawn apart form the word
 * they spell (right-to-left glyphs in reading order). Blank runs stay words of their own, and so do words
 * with room between them.
 */
export function joinGlyphs(words: readonly Word[]): Word[] {
  return spacedCapitals(joinTouching(words, touching));
}

/** Words row by row, left to right, each run of them that `touch` pairs one after the other joined into one word. */
function joinTouching(words: readonly Word[], touch: (a: Word, b: Word) => boolean): Word[] {
  const out: Word[] = [];
  let group: Word[] = [];
  const flush = () => {
    if (group.length === 1) out.push(group[0] as Word);
    else if (group.length > 1) out.push(joined(group));
    group = [];
  };
  for (const w of inRows(words)) {
    const last = group[group.length - 1];
    if (last && touch(last, w)) group.push(w);
    else {
      flush();
      group.push(w);
    }
  }
  flush();
  return out;
}

/**
 * Capitals spaced out one by one ("F I R M A", "S I G N A T U R E"): the word they spell; letters of any case
 * spaced out so, when they spell a caption's word ("U n t e r s c h r i f t").
 */
function spacedCapitals(words: Word[]): Word[] {
  const out: Word[] = [];
  for (let i = 0; i < words.length; ) {
    let j = i;
    const letter = (w: Word | undefined) => w !== undefined && /^\p{L}$/u.test(w.text);
    while (
      letter(words[j]) &&
      letter(words[j + 1]) &&
      Math.abs((words[j + 1] as Word).baseline - (words[j] as Word).baseline) <= 0.1 * (words[j] as Word).size &&
      (words[j + 1] as Word).box.x0 - (words[j] as Word).box.x1 >= 0 &&
      (words[j + 1] as Word).box.x0 - (words[j] as Word).box.x1 <= 0.6 * (words[j] as Word).size
    )
      j++;
    const run = words.slice(i, j + 1);
    if (j - i >= 2 && (run.every((w) => /^\p{Lu}$/u.test(w.text)) || LABEL_WORDS.has(normalizeToken(run.map((w) => w.text).join(''))))) out.push(joined(run));
    else for (let k = i; k <= j; k++) out.push(words[k] as Word);
    i = j + 1;
  }
  return out;
}

function touching(a: Word, b: Word): boolean {
  const size = Math.max(a.size, b.size);
  if (Math.abs(a.baseline - b.baseline) > 0.1 * size || Math.abs(a.size - b.size) > 0.15 * size) return false;
  if (isFillToken(a.text) || isFillToken(b.text)) return false;
  const gap = b.box.x0 - a.box.x1;
  // An accent drawn as a glyph of its own ends one item over the letter that starts the next ("soussign´" "e").
  if (ACCENT_END.test(a.text) && /^\p{L}/u.test(b.text)) return gap <= 0.3 * size && gap >= -0.6 * size;
  // Only glyphs a generator drew apart: a right-to-left glyph, or a single letter.
  if (!(isRtl(a.text) || isRtl(b.text) || [...a.text].length === 1 || [...b.text].length === 1)) return false;
  return gap <= 0.08 * size && gap >= -0.3 * size;
}

const ACCENT_END = /\p{L}[´`¨ˆ˜]$/u;

function joined(group: Word[]): Word {
  const rtl = group.filter((w) => isRtl(w.text)).length * 2 > group.length;
  // Right-to-left glyphs come in visual order: the word reads from the rightmost one.
  const ordered = rtl ? [...group].reverse() : group;
  return {
    text: ordered.map((w, i) => (i < ordered.length - 1 && ACCENT_END.test(w.text) ? w.text.slice(0, -1) : w.text)).join(''),
    box: {
      x0: Math.min(...group.map((w) => w.box.x0)),
      y0: Math.min(...group.map((w) => w.box.y0)),
      x1: Math.max(...group.map((w) => w.box.x1)),
      y1: Math.max(...group.map((w) => w.box.y1)),
    },
    baseline: Math.max(...group.map((w) => w.baseline)),
    size: Math.max(...group.map((w) => w.size)),
    confidence: Math.min(...group.map((w) => w.confidence)),
  };
}

/** Pieces shorter than a rule: a dot or dash of a dotted or dashed line. */
export const MAX_DOT = 8;
const MAX_DOT_THICKNESS = 2;

/**
 * Rows of small dots or dashes, evenly spaced and alone on their row, as the rules they draw (at least
 * `minRule` long, of four pieces or more). A grid of squares (a QR code) has other squares right above or
 * below its rows and is no rule.
 */
export function dottedRules(dots: readonly Rect[], minRule: number): Segment[] {
  const thin = dots.filter((d) => d.x1 - d.x0 <= MAX_DOT && d.y1 - d.y0 <= MAX_DOT_THICKNESS);
  if (thin.length < 4 || thin.length > 20_000) return [];
  const rows = new Map<number, Rect[]>();
  for (const d of thin) {
    const key = Math.round((d.y0 + d.y1) / 2);
    const row = rows.get(key) ?? [];
    row.push(d);
    rows.set(key, row);
  }
  const out: Segment[] = [];
  for (const [, row] of rows) {
    row.sort((a, b) => a.x0 - b.x0);
    let run: Rect[] = [];
    const close = () => {
      if (run.length >= 4 && (run[run.length - 1] as Rect).x1 - (run[0] as Rect).x0 >= minRule && even(run)) {
        const x0 = (run[0] as Rect).x0;
        const x1 = (run[run.length - 1] as Rect).x1;
        const y = run.reduce((s, d) => s + (d.y0 + d.y1) / 2, 0) / run.length;
        // Alone on its row: no other pieces just above or below it.
        const stacked = thin.some(
          (d) => !run.includes(d) && Math.abs((d.y0 + d.y1) / 2 - y) > 0.5 && Math.abs((d.y0 + d.y1) / 2 - y) < 4 && d.x1 > x0 && d.x0 < x1,
        );
        if (!stacked) out.push({ x0, x1, y });
      }
      run = [];
    };
    for (const d of row) {
      const last = run[run.length - 1];
      if (last && d.x0 - last.x1 > Math.max(4, 2 * (last.x1 - last.x0))) close();
      run.push(d);
    }
    close();
  }
  return out;
}

/** Pieces of about one length, evenly spaced (the first and last may be cut short at a corner). */
function even(run: Rect[]): boolean {
  const widths = run.slice(1, -1).map((d) => d.x1 - d.x0);
  const gaps = run.slice(1).map((d, i) => d.x0 - (run[i] as Rect).x1);
  const spread = (xs: number[]) => Math.max(...xs) - Math.min(...xs);
  return spread(widths) <= Math.max(0.6, 0.5 * Math.max(...widths)) && (gaps.length === 0 || spread(gaps) <= Math.max(1, 0.6 * Math.max(...gaps)));
}

/** Small letters OCR reads dots as, with no confidence in them ("eeoeereveeeeees", "eevee fetes eee"). */
const READ_AS_DOTS = /^[.·:,'eocsrvnaufti]{3,}$/i;

/**
 * A dotted line OCR read as small letters it has no confidence in ("Frankfurt am Main, den eer eevee fetes
 * eee" over "(Unterschrift)"): a run of dots, as the text layer would have it, one for the words in a row.
 */
export function dotsRead(words: readonly Word[]): Word[] {
  const dots = (w: Word) => w.confidence <= 0.25 && READ_AS_DOTS.test(w.text) && w.box.x1 - w.box.x0 >= 20;
  const out = words.filter((w) => !dots(w));
  const runs: Word[] = [];
  for (const w of words.filter(dots).sort((a, b) => a.box.x0 - b.box.x0)) {
    const run = runs.find((r) => Math.abs(r.baseline - w.baseline) <= 0.5 * Math.min(r.size, w.size) + 4 && w.box.x0 - r.box.x1 <= 24 && w.box.x0 >= r.box.x0);
    if (run) run.box = { x0: run.box.x0, y0: Math.min(run.box.y0, w.box.y0), x1: Math.max(run.box.x1, w.box.x1), y1: Math.max(run.box.y1, w.box.y1) };
    else runs.push({ ...w, box: { ...w.box } });
  }
  return [...out, ...runs.map((r) => ({ ...r, text: '.'.repeat(Math.max(4, Math.round((r.box.x1 - r.box.x0) / 3))) }))];
}

/**
 * A word drawn again over itself (a bold some generators fake by printing the text two or three times, a
 * fraction of a point apart) kept once: a reader sees one word, and the rules count it once.
 */
export function withoutOverprint(words: Word[]): Word[] {
  const seen = new Map<string, Word[]>();
  const out: Word[] = [];
  for (const w of words) {
    const near = 0.25 * (w.box.y1 - w.box.y0);
    const same = seen.get(w.text) ?? [];
    const over = (o: Word) => Math.abs(o.box.x0 - w.box.x0) <= near && Math.abs(o.box.x1 - w.box.x1) <= near && Math.abs(o.baseline - w.baseline) <= near;
    if (same.some(over)) continue;
    same.push(w);
    seen.set(w.text, same);
    out.push(w);
  }
  return out.length === words.length ? words : out;
}

/**
 * An icon drawn as glyphs layered on one spot (a symbol font's pictogram before a caption, its pieces read as unrelated
 * letters, "Ж Ф Ц Ш" before "Signature :"): dropped, as a reader sees no word there. Two or more
 * single characters, not alike, on the very same box.
 */
export function withoutLayeredIcons(words: Word[]): Word[] {
  const singles = words.filter((w) => [...w.text.trim()].length === 1).sort((a, b) => a.box.x0 - b.box.x0);
  const spot = (a: Word, b: Word) => ['y0', 'x1', 'y1'].every((k) => Math.abs(a.box[k as keyof Rect] - b.box[k as keyof Rect]) <= 0.5);
  const icons = new Set<Word>();
  // (Sorted by their left edge, each is compared with those starting within half a point of it only.)
  for (let i = 0; i < singles.length; i++) {
    const a = singles[i] as Word;
    for (let j = i + 1; j < singles.length && (singles[j] as Word).box.x0 - a.box.x0 <= 0.5; j++) {
      const b = singles[j] as Word;
      if (b.text.trim() !== a.text.trim() && spot(a, b)) icons.add(a).add(b);
    }
  }
  return icons.size === 0 ? words : words.filter((w) => !icons.has(w));
}

/** The words of signature, initials and date captions, four letters or more ("unterschrift", "data"). */
const CAPTION_WORDS = new Set(LABELS.filter((e) => e.type !== 'text').flatMap((e) => e.tokens.filter((t) => t.length >= 4 && t !== '*')));

/**
 * A caption's word a text layer writes in pieces (a wide-tracked font, a first letter set apart: "A
 * ssinatura", "D a ta:"), put back together when the pieces, a little apart on one baseline, spell a word
 * of the lexicon's captions and none of them is one; other words stay as they are.
 */
export function withSplitCaptions(words: Word[]): Word[] {
  const sorted = inRows(words);
  const joined = new Map<Word, Word[]>();
  for (let i = 0; i < sorted.length; i++) {
    const first = sorted[i] as Word;
    if (CAPTION_WORDS.has(normalizeToken(first.text)) || joined.has(first)) continue;
    let text = first.text;
    for (let k = i + 1; k < Math.min(sorted.length, i + 5); k++) {
      const prev = sorted[k - 1] as Word;
      const next = sorted[k] as Word;
      const apart = next.box.x0 - prev.box.x1;
      if (row(next) !== row(first) || Math.abs(next.size - first.size) > 0.5 || apart < 0 || apart > 0.5 * first.size) break;
      if (CAPTION_WORDS.has(normalizeToken(next.text)) || /\s/.test(next.text)) break;
      text += next.text;
      if (CAPTION_WORDS.has(normalizeToken(text))) {
        joined.set(first, sorted.slice(i, k + 1));
        break;
      }
    }
  }
  if (joined.size === 0) return words;
  const skip = new Set([...joined.values()].flatMap((g) => g.slice(1)));
  return words.flatMap((w) => {
    if (skip.has(w)) return [];
    const group = joined.get(w);
    if (!group) return [w];
    const last = group[group.length - 1] as Word;
    return [
      {
        ...w,
        text: group.map((g) => g.text).join(''),
        box: { ...w.box, x1: last.box.x1, y0: Math.min(...group.map((g) => g.box.y0)), y1: Math.max(...group.map((g) => g.box.y1)) },
      },
    ];
  });
}

/**
 * A colon set apart at a tab stop after its caption ("Datum        :", "Handtekening :" with the colons of a
 * column lined up) is the caption's: the caption word takes it, and its box reaches it.
 */
export function withTabbedColons(words: Word[]): Word[] {
  const sorted = inRows(words);
  const merged = new Map<Word, Word>();
  for (let i = 1; i < sorted.length; i++) {
    const colon = sorted[i] as Word;
    const before = sorted[i - 1] as Word;
    if (!/^[:：]$/.test(colon.text.trim()) || row(before) !== row(colon) || !CAPTION_WORDS.has(normalizeToken(before.text))) continue;
    const apart = colon.box.x0 - before.box.x1;
    if (apart > 0.5 * colon.size && apart <= 150) merged.set(before, colon);
  }
  if (merged.size === 0) return words;
  const colons = new Set(merged.values());
  return words.flatMap((w) => {
    if (colons.has(w)) return [];
    const colon = merged.get(w);
    return colon ? [{ ...w, text: `${w.text}:`, box: { ...w.box, x1: colon.box.x1 } }] : [w];
  });
}

/** Ligatures some fonts map to letters of their own in the text layer (Calibri's "ti", "tt", "ft": "UnterschriŌ", "ParƟcipant"). */
const LIGATURES: Record<string, string> = { Ɵ: 'ti', Ʃ: 'tt', Ō: 'ft' };
const LIGATURE = /(?<=\p{Ll})[ƟƩŌ]|Ɵ(?=\p{Ll})/gu;

/** Words with such a ligature spelled out: after a lower-case letter ("ti" also before one), these capitals are the letters they stand for. */
export function withLigaturesSpelled(words: Word[]): Word[] {
  if (!words.some((w) => /[ƟƩŌ]/u.test(w.text))) return words;
  return words.map((w) => (/[ƟƩŌ]/u.test(w.text) ? { ...w, text: w.text.replace(LIGATURE, (c) => LIGATURES[c] ?? c) } : w));
}

/**
 * Pieces of a word a text layer writes apart with no room between them, letters only, on one baseline in one size
 * ("ERZIEHUN" "GSBERE" "CHT" "IG" "TEN", under a twentieth of their size apart, a space being a fifth or more): the word
 * they spell, so that the caption they end ("UNTERSCHRIFT DER/DES ERZIEHUNGSBERECHTIGTEN") reads whole.
 */
export function withTouchingPieces(words: Word[]): Word[] {
  const letters = (w: Word) => /^\p{L}+$/u.test(w.text) && !isRtl(w.text);
  const out = joinTouching(words, (a, b) => {
    const size = Math.max(a.size, b.size);
    const gap = b.box.x0 - a.box.x1;
    return (
      letters(a) &&
      letters(b) &&
      Math.abs(a.baseline - b.baseline) <= 0.1 * size &&
      Math.abs(a.size - b.size) <= 0.15 * size &&
      gap <= 0.05 * size &&
      gap >= -0.1 * size
    );
  });
  return out.length === words.length ? words : out;
}

/**
 * Blank runs a text layer writes as one word with spaces between them ("____________ ____________", a line for
 * each of two signers side by side): a word for each run when every run is a signature's width (100 pt) or more,
 * as the two long runs either side of a slash are two (filled-blanks.ts); its box in proportion to the
 * characters' widths. Blanks spaced out one by one ("_ _ _ _") stay one run.
 */
export function withRunsApart(words: Word[]): Word[] {
  const pieces = (w: Word) => {
    if (!isFillToken(w.text) || !/\S\s+\S/.test(w.text.trim())) return undefined;
    const chars = [...w.text];
    const scale = (w.box.x1 - w.box.x0) / (chars.reduce((sum, ch) => sum + advance(ch), 0) || 1);
    const out: Word[] = [];
    let x = w.box.x0;
    for (const [i, ch] of chars.entries()) {
      const last = out[out.length - 1];
      const x1 = x + advance(ch) * scale;
      if (/\S/.test(ch) && last && /\S/.test(chars[i - 1] ?? '')) out[out.length - 1] = { ...last, text: last.text + ch, box: { ...last.box, x1 } };
      else if (/\S/.test(ch)) out.push({ ...w, text: ch, box: { ...w.box, x0: x, x1 } });
      x = x1;
    }
    return out.every((p) => p.box.x1 - p.box.x0 >= 100) ? out : undefined;
  };
  const split = words.map(pieces);
  return split.some((p) => p !== undefined) ? words.flatMap((w, i) => split[i] ?? [w]) : words;
}

/**
 * A text layer's words as a reader sees them: no icon's layered glyphs, a word printed over itself once, ligatures
 * spelled out, a caption written in pieces whole, with its colon, blank runs written as one word apart.
 */
export function asRead(words: Word[]): Word[] {
  return withRunsApart(withTabbedColons(withSplitCaptions(withLigaturesSpelled(withoutOverprint(withTouchingPieces(withoutLayeredIcons(words)))))));
}
