/**
 * Sign-offs: a caption saying who approved, reviewed, authorised, checked or verified what the form holds ("Approved
 * by: ____", "Revisado por: ____", "Genehmigt: ____"). Opening its line before its blank, it is where whoever signs off
 * signs (lexicon.ts); on the row of a signature's own caption ("Signature: ____   Approved by: ____") it asks for that
 * one's name, not for a second signature (caption-rows.ts). The phrases in the lexicon's languages, folded as
 * `normalizeToken` folds them. Pure data.
 */
export const SIGN_OFFS = [
  ...['approved by', 'reviewed by', 'checked by', 'authorized by', 'authorised by', 'verified by', 'approuve par', 'verifie par'],
  ...['revisado', 'revisado por', 'autorizado', 'autorizado por', 'aprobado', 'aprobado por', 'aprovado por'],
  ...['genehmigt', 'gepruft', 'approvato da', 'verificato da'],
];
const PHRASES = new Set(SIGN_OFFS);

/** Whether a caption's phrase, its normalised tokens, is a sign-off's. */
export const isSignOff = (tokens: readonly string[]): boolean => PHRASES.has(tokens.join(' '));
