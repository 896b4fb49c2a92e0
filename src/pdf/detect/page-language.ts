/**
 * A page's language guessed from its commonest words, for the captions that are captions in some languages
 * only (lexicon-european.ts): German "Firma" is a company, English "data" is not a date.
 */

export type PageLanguage = 'en' | 'fr' | 'de' | 'pt' | 'es' | 'it' | 'nl' | 'nordic';

/** Stopwords that tell a language: the commonest short words of running text. */
const MARKERS: Record<PageLanguage, readonly string[]> = {
  en: ['the', 'and', 'of', 'to', 'is', 'for', 'that', 'with', 'this', 'you', 'are', 'be'],
  // (A word of several languages counts for each: "de" is as much Portuguese, Spanish and French as Dutch.)
  fr: ['le', 'les', 'des', 'du', 'de', 'et', 'est', 'pour', 'dans', 'une', 'qui', 'avec', 'sur'],
  de: ['der', 'die', 'das', 'und', 'ist', 'nicht', 'mit', 'den', 'dem', 'des', 'ein', 'eine', 'zu', 'von', 'fur', 'auf', 'ich', 'wird'],
  pt: ['os', 'as', 'do', 'da', 'de', 'e', 'dos', 'das', 'que', 'em', 'para', 'com', 'um', 'uma', 'nao', 'ao', 'pelo', 'pela'],
  es: ['el', 'los', 'las', 'del', 'de', 'que', 'en', 'por', 'para', 'con', 'una', 'es', 'se', 'y', 'al'],
  it: ['il', 'lo', 'gli', 'della', 'del', 'che', 'di', 'per', 'con', 'una', 'sono', 'e', 'nel', 'alla', 'dei'],
  nl: ['het', 'een', 'van', 'en', 'de', 'voor', 'niet', 'met', 'zijn', 'dat', 'ook', 'wordt'],
  // Danish, Norwegian and Swedish, one for their captions ("Dato", "Navn"): "og"/"och", "til", "af"/"av", "ikke"/"inte".
  nordic: ['og', 'och', 'til', 'till', 'af', 'av', 'som', 'jeg', 'jag', 'ikke', 'inte', 'skal', 'ska', 'fra', 'eller', 'ved', 'hvis', 'att', 'det', 'pa'],
};

/**
 * The page's language from its normalised tokens, or undefined when too few of its words tell (a form
 * of blanks and captions): the language whose markers are most frequent, if they are frequent enough.
 */
export function guessLanguage(tokens: Iterable<string>): PageLanguage | undefined {
  const counts = new Map<PageLanguage, number>();
  const index = new Map<string, PageLanguage[]>();
  for (const [lang, words] of Object.entries(MARKERS) as Array<[PageLanguage, readonly string[]]>)
    for (const w of words) index.set(w, [...(index.get(w) ?? []), lang]);
  for (const t of tokens) for (const lang of index.get(t) ?? []) counts.set(lang, (counts.get(lang) ?? 0) + 1);
  const ranked = [...counts].sort((a, b) => b[1] - a[1]);
  const [best, second] = ranked;
  if (!best || best[1] < 4 || (second && best[1] < 1.25 * second[1])) return undefined;
  return best[0];
}
