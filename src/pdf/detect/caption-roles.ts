/**
 * The role of whoever signs under a caption: a party named on the caption's line, or by a short line
 * above it in its column (a block heading such as "The Client").
 */
import { partyAt } from './lexicon.js';
import { SIGNER_WORDS } from './lexicon-european.js';
import { ROLE_SEARCH, overlap1, type Line } from './page-model.js';

const SIGNERS = new Set(SIGNER_WORDS);
const LONG_SIGNERS = SIGNER_WORDS.filter((w) => w.length >= 7);

/**
 * A word naming who signs (normalised), or a compound ending with one ("Vereinsvorsitzender", "Sorgeberechtigter"
 * are written as one word in German: "Unterschrift Vereinsvorsitzender:").
 */
export const isSigner = (token: string): boolean => SIGNERS.has(token) || LONG_SIGNERS.some((w) => token.length >= w.length + 4 && token.endsWith(w));

/** The role a party named on the line gives. */
export function roleOnLine(line: Line): string | undefined {
  for (let k = 0; k < line.tokens.length; k++) {
    const party = partyAt(line.tokens, k);
    if (party) return party.role;
  }
  return undefined;
}

/** The party named by a short line above, in the same column (a block heading such as "The Client"). */
export function roleAbove(line: Line, lines: Line[]): string | undefined {
  const column = line.rtl ? { x0: line.box.x1 - 220, x1: line.box.x1 + 20 } : { x0: line.box.x0 - 20, x1: line.box.x0 + 220 };
  const above = lines
    .filter((l) => l !== line && l.baseline < line.baseline - 1 && line.baseline - l.baseline <= ROLE_SEARCH)
    .filter((l) => overlap1(l.box.x0, l.box.x1, column.x0, column.x1) > 0)
    .filter((l) => (line.rtl ? Math.abs(l.box.x1 - line.box.x1) <= 40 : Math.abs(l.box.x0 - line.box.x0) <= 40))
    .sort((a, b) => b.baseline - a.baseline);
  for (const l of above) {
    if (l.tokens.length > 6) return undefined;
    const role = roleOnLine(l);
    if (role) return role;
  }
  return undefined;
}
