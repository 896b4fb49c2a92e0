/**
 * Text tags: documents prepared for an e-signature service often mark their fields with tags written in
 * the text, such as `[sig|req|signer1]`, `[initial|req|signer2]` or `[date|req|signer1]`. The field goes
 * where the tag is (standing on its baseline, kept below the text above); the signer number gives the
 * role. Tags of other kinds (text, checkbox, merge fields) are left to the labels around them.
 */
import { FIELD_HEIGHT, overlap1, type Line, type Rect, type Word } from './page-model.js';
import type { FieldKey, LabelType } from './lexicon.js';

const TAG = /^\[(sig|signature|initials?|date|datesigned)\|(?:req|noreq)\|(signer)(\d{1,2})\]?/i;

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
    for (const word of line.words) {
      const m = TAG.exec(word.text.trim());
      if (!m) continue;
      const kind = (m[1] as string).toLowerCase();
      const type: LabelType = kind.startsWith('sig') ? 'signature' : kind.startsWith('init') ? 'initials' : 'date';
      out.push({
        type,
        rect: onTag(type, word, lines),
        role: `signer_${Number(m[3])}`,
        ...(type === 'date' ? { fieldKey: 'sign_date' as const } : {}),
      });
    }
  }
  return out;
}

function onTag(type: LabelType, word: Word, lines: Line[]): Rect {
  const { x0, x1 } = word.box;
  const y1 = word.box.y1;
  let top = y1 - FIELD_HEIGHT[type];
  for (const l of lines) {
    if (l.box.y1 <= word.box.y0 + 1 && l.box.y1 > top && overlap1(l.box.x0, l.box.x1, x0, x1) > 0) top = l.box.y1 + 1;
  }
  if (y1 - top < word.box.y1 - word.box.y0) top = word.box.y0;
  return { x0, y0: top, x1, y1 };
}

/** Any text tag (`[kind|...]`), whatever its kind: the label before it describes the tag's field. */
export const isTextTag = (text: string): boolean => /^\[[a-z$:_-]+[^\]|]*\|/i.test(text.trim());
