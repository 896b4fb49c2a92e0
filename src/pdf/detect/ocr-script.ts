/**
 * Which OCR language a scanned page is read in: the order languages are tried in (the signers', then the
 * document's own text), and whether a reading shows the page to be in the other script (Latin or Arabic),
 * so that it is read again in that one. Runs in the detection child.
 */
import { splitWord } from './word-tokens.js';
import { matchLabels } from './label-matching.js';
import { isArabic } from './token-folding.js';
import { buildLines, type Word } from './suggest-fields.js';
import type { OcrLanguage } from './ocr-languages.js';
import type { InkPage } from './ocr-image.js';
import type { OcrEngine, OcrResult } from './ocr-engine.js';

/**
 * A page read in one script may be in the other when its mean word confidence is below this: an Arabic
 * page read in English reads at about 0.3, a Latin page read in Arabic below 0.5, while a page in the
 * right script, even a noisy scan or a photo once binarised, reads at 0.8 and more, or somewhat less
 * when a form's rules and specks make short low-confidence "words".
 */
const OTHER_SCRIPT_BELOW = 0.6;
/**
 * A page is in the script it was read in when at least this share of its words of three letters or
 * more read at SURE or better: 0.55 and more on a page in the right script (a noisy scan or photo of a
 * form included), under 0.1 on a page in the other script, where almost no word reads that well; a page
 * mostly in the other script, with some of this one, still reads below it. Reading a page again in the
 * other script costs as much as the first reading, or more.
 */
const SURE_SHARE = 0.35;
const SURE = 0.85;

/**
 * The order in which OCR languages are tried: the signers' languages first, then the script of the
 * document's own text, then English, then the other script.
 */
export function languageOrder(hints: OcrLanguage[], words: Word[], available: OcrLanguage[]): OcrLanguage[] {
  const order: OcrLanguage[] = [...hints];
  if (words.length > 0) {
    const arabic = words.filter((w) => isArabic(w.text)).length;
    if (arabic * 2 > words.length) order.push('ara');
    else if (looksFrench(words)) order.push('fra');
    else order.push('eng');
  }
  order.push('eng', 'ara', 'fra');
  return [...new Set(order)].filter((l) => available.includes(l));
}

const FRENCH = new Set(['le', 'la', 'les', 'des', 'du', 'et', 'est', 'une', 'pour', 'dans', 'sur', 'au', 'aux', 'par']);
const ENGLISH = new Set(['the', 'and', 'of', 'to', 'is', 'for', 'in', 'on', 'by', 'with', 'shall', 'this']);
function looksFrench(words: Word[]): boolean {
  let fr = 0;
  let en = 0;
  for (const w of words) {
    for (const t of splitWord(w.text)) {
      if (FRENCH.has(t)) fr++;
      if (ENGLISH.has(t)) en++;
    }
  }
  return fr > en;
}

/**
 * Reads the page in the first language; if that reading shows the page to be in the other script (it
 * reads poorly and hardly a word of it reads surely), tries the other script (Latin or Arabic) and keeps
 * whichever finds more labels, then reads more confidently.
 */
export async function readBest(
  ocr: OcrEngine,
  image: InkPage,
  order: OcrLanguage[],
  generation = ocr.generation,
): Promise<{ result: OcrResult; language: OcrLanguage }> {
  const first = order[0] as OcrLanguage;
  const result = await ocr.readPage(image, first, generation);
  if (!otherScriptLikely(result)) return { result, language: first };
  const otherScript = order.find((l) => (l === 'ara') !== (first === 'ara'));
  if (!otherScript) return { result, language: first };
  const labels = countLabels(result.words);
  const second = await ocr.readPage(image, otherScript, generation);
  const labels2 = countLabels(second.words);
  const better = labels2 > labels || (labels2 === labels && second.confidence > result.confidence);
  return better ? { result: second, language: otherScript } : { result, language: first };
}

/** Whether a reading looks like a page in the other script: a low mean confidence and few words read surely. */
export function otherScriptLikely(result: OcrResult): boolean {
  if (result.confidence >= OTHER_SCRIPT_BELOW) return false;
  const long = result.words.filter((w) => (w.text.match(/[\p{L}\p{N}]/gu) ?? []).length >= 3);
  const sure = long.filter((w) => w.confidence >= SURE).length;
  return sure < SURE_SHARE * long.length || long.length === 0;
}

function countLabels(words: Word[]): number {
  return buildLines(words.filter((w) => w.confidence >= 0.3)).reduce((n, line) => n + matchLabels(line.tokens).length, 0);
}
