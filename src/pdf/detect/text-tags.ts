/**
 * Text tags: documents prepared for an e-signature service often mark their fields with tags written in
 * the text (often in white, unseen): Dropbox Sign's `[sig|req|signer1]`, `[initial|req|signer2]`,
 * `[date|req|signer1]`; the double-brace tags of Acrobat Sign (`{{Sig_es_:signer1:signature}}`,
 * `{{Int_es_:signer1:initials}}`, `{{Dte_es_:signer1:date}}`), SignWell (`{{signature:2}}`) and BoldSign
 * (`{{sign|1|*}}`); and the anchor strings of DocuSign's examples (`/sn1/`, `**signature_1**`). The field goes
 * where the tag is (standing on its baseline, kept below the text above; as wide as the tag, or a field's
 * width from an anchor, which marks a place and not a size); the signer number gives the role. Tags of other
 * kinds (text, checkbox, merge fields) are left to the labels around them.
 */
import { FIELD_HEIGHT, FIELD_WIDTH, overlap1, type Line, type Rect, type Word } from './page-model.js';
import type { FieldKey, LabelType } from './lexicon.js';

const TAG = /^\[(sig|signature|initials?|date|datesigned)\|(?:req|noreq)\|(signer)(\d{1,2})\]?/i;
/** A double-brace tag: its parts are split at `:` or `|` (an Acrobat Sign field name ends in `_es_`). */
const BRACES = /^\{\{\*?([^{}]+)\}\}/;
/** DocuSign's examples' anchor strings: `/sn1/`, `**signature_1**`. */
const ANCHOR = /^(?:\/sn(\d{1,2})\/|\*\*signature_(\d{1,2})\*\*)$/i;

const KINDS: ReadonlyArray<[RegExp, LabelType]> = [
  [/^(sig|signature|sign)$/, 'signature'],
  [/^(int|init|initial|initials)$/, 'initials'],
  [/^(dte|date|datesigned|date_signed|signdate)$/, 'date'],
];

/** A tag's kind and signer number, or undefined for a word that is no tag of a signature, initials or date. */
function readTag(text: string): { type: LabelType; signer: number; anchor: boolean } | undefined {
  const bracket = TAG.exec(text);
  if (bracket) {
    const kind = (bracket[1] as string).toLowerCase();
    return { type: kind.startsWith('sig') ? 'signature' : kind.startsWith('init') ? 'initials' : 'date', signer: Number(bracket[3]), anchor: false };
  }
  const anchor = ANCHOR.exec(text);
  if (anchor) return { type: 'signature', signer: Number(anchor[1] ?? anchor[2]), anchor: true };
  const braces = BRACES.exec(text);
  if (!braces) return undefined;
  const parts = (braces[1] as string).split(/[:|]/).map((p) => p.trim().toLowerCase().replace(/_es_$/, ''));
  // (The kind is a part of its own, the type after the signer in Acrobat Sign's, the first part elsewhere.)
  const type = [...parts]
    .reverse()
    .map((p) => KINDS.find(([re]) => re.test(p))?.[1])
    .find((t) => t !== undefined);
  if (!type) return undefined;
  const numbered = parts.map((p) => /^signer(\d{1,2})$/.exec(p)?.[1] ?? (/^\d{1,2}$/.test(p) ? p : undefined)).find((n) => n !== undefined);
  return { type, signer: Number(numbered ?? 1), anchor: false };
}

export interface TagField {
  type: LabelType;
  rect: Rect;
  role: string;
  fieldKey?: FieldKey;
}

/** The fields the text tags of a page mark. */
export function tagFields(lines: Line[]): TagField[] {
  const out: TagField[] = [];
  for (const line of lines) {
    for (const { word, tag } of lineTags(line)) {
      out.push({
        type: tag.type,
        rect: onTag(tag.type, word, lines, tag.anchor ? FIELD_WIDTH[tag.type] : 0),
        role: `signer_${tag.signer}`,
        ...(tag.type === 'date' ? { fieldKey: 'sign_date' as const } : {}),
      });
    }
  }
  return out;
}

/**
 * The tags of a line: a tag is read from a word and the words touching it after it, as the text is split at
 * the underscores of a tag (`{{Sig_es_:signer1:signature}}` comes as `{{Sig_`, `es_`, `:signer1:signature}}`).
 */
function lineTags(line: Line): Array<{ word: Word; tag: NonNullable<ReturnType<typeof readTag>> }> {
  const out: Array<{ word: Word; tag: NonNullable<ReturnType<typeof readTag>> }> = [];
  const { words } = line;
  for (let i = 0; i < words.length; i++) {
    let text = '';
    for (let j = i; j < words.length && j < i + 8; j++) {
      const w = words[j] as Word;
      if (j > i && w.box.x0 - (words[j - 1] as Word).box.x1 > 1) break;
      text += w.text.trim();
      const tag = readTag(text);
      if (!tag) continue;
      const first = words[i] as Word;
      out.push({
        word: { ...first, text, box: { ...first.box, x1: w.box.x1, y0: Math.min(first.box.y0, w.box.y0), y1: Math.max(first.box.y1, w.box.y1) } },
        tag,
      });
      i = j;
      break;
    }
  }
  return out;
}

function onTag(type: LabelType, word: Word, lines: Line[], width: number): Rect {
  const x0 = word.box.x0;
  const x1 = Math.max(word.box.x1, x0 + width);
  const y1 = word.box.y1;
  let top = y1 - FIELD_HEIGHT[type];
  for (const l of lines) {
    if (l.box.y1 <= word.box.y0 + 1 && l.box.y1 > top && overlap1(l.box.x0, l.box.x1, x0, x1) > 0) top = l.box.y1 + 1;
  }
  if (y1 - top < word.box.y1 - word.box.y0) top = word.box.y0;
  return { x0, y0: top, x1, y1 };
}

/** Any text tag (`[kind|...]`, `{{...`), whatever its kind: the label before it describes the tag's field. */
export const isTextTag = (text: string): boolean => /^\[[a-z$:_-]+[^\]|]*\||^\{\{[^{}]/i.test(text.trim());

/** The labels not written inside a tag of a signature, initials or date: a tag's words are no caption (`**signature_1**`). */
export function outsideTags<L extends { box: Rect }>(labels: L[], lines: Line[]): L[] {
  const tags = lines.flatMap((l) => lineTags(l).map((t) => t.word.box));
  return labels.filter((l) => !tags.some((t) => l.box.x0 >= t.x0 - 1 && l.box.x1 <= t.x1 + 1 && overlap1(l.box.y0, l.box.y1, t.y0, t.y1) > 0));
}
