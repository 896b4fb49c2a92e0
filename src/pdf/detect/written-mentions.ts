/**
 * A handwritten mention standing alone over white space: the French "Lu et approuvé" (or "Mention « Lu et approuvé »",
 * "Bon pour accord") on its own line, where no signature caption nor place to sign is on the page, closes a document the
 * signer writes the mention on and signs under. A mention's blank beside a signature caption's on its row ("Mention « lu et
 * approuvé » ____  le : ____  Signature : ____") is where the mention is written, not a place to sign.
 */
import type { Label, PageModel, Suggestion } from './page-model.js';

/**
 * Words that may stand on the mention's line besides the mention: the word naming it, "Mention", and an instruction
 * to write it and sign ("(Ajouter la mention « Bon pour pouvoir » & signer)").
 */
const NAMING = new Set(['mention', 'manuscrite', 'ajouter', 'ecrire', 'inscrire', 'la', 'et', 'puis', 'signer']);

/** Whether `label` is such a mention: the room under it is where its signer signs. */
export function mentionAlone(label: Label, labels: readonly Label[], found: readonly Suggestion[], page: PageModel): boolean {
  if (label.entry.type !== 'signature' || label.entry.strength !== 'weak' || label.entry.leading) return false;
  const own = new Set(label.entry.tokens);
  if (!label.line.tokens.every((t) => own.has(t) || NAMING.has(t))) return false;
  const strong = labels.some((o) => o !== label && (o.entry.type === 'signature' || o.entry.type === 'initials') && o.entry.strength === 'strong');
  return !strong && !found.some((s) => s.page === page.page && (s.type === 'signature' || s.type === 'initials'));
}

/**
 * Whether a place to sign found on a mention's blank stays: not when a signature caption on the mention's row has a place of
 * its own (`captionOf` names each suggestion's caption).
 */
export function notMentionBeside(found: readonly Suggestion[], captionOf: ReadonlyMap<Suggestion, Label>): (s: Suggestion) => boolean {
  const strongOn = (line: Label['line']) =>
    found.some((o) => o.type === 'signature' && captionOf.get(o)?.line === line && captionOf.get(o)?.entry.strength === 'strong');
  return (s) => {
    const caption = captionOf.get(s);
    return !(s.type === 'signature' && caption?.entry.strength === 'weak' && strongOn(caption.line));
  };
}
