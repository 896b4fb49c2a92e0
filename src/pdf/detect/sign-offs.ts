/**
 * Sign-offs: a caption saying who approved, reviewed, authorised, checked or verified what the form holds ("Approved
 * by: ____", "Revisado por: ____", "Genehmigt: ____"). Opening its line before its blank, it is where whoever signs off signs
 * (lexicon.ts); on the row of a signature's own caption ("Signature: ____   Approved by: ____") it asks for that one's name,
 * not for a second signature. The phrases in the lexicon's languages, folded as `normalizeToken` folds them.
 */
import type { Label } from './page-model.js';

export const SIGN_OFFS = [
  ...['approved by', 'reviewed by', 'checked by', 'authorized by', 'authorised by', 'verified by', 'approuve par', 'verifie par'],
  ...['revisado', 'revisado por', 'autorizado', 'autorizado por', 'aprobado', 'aprobado por', 'aprovado por'],
  ...['genehmigt', 'gepruft', 'approvato da', 'verificato da'],
];
const PHRASES = new Set(SIGN_OFFS);

const isSignOff = (label: Label) => label.entry.type === 'signature' && PHRASES.has(label.entry.tokens.join(' '));

/** A sign-off on the row of a caption that asks for a signature of its own: it names who signs there. */
export function signOffBesideSignature(label: Label, labels: readonly Label[]): boolean {
  return isSignOff(label) && labels.some((o) => o.entry.type === 'signature' && !isSignOff(o) && Math.abs(o.line.baseline - label.line.baseline) <= 2);
}
