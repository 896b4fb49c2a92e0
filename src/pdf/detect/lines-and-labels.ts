/**
 * Words into lines (a row of words close together, in reading order; columns stay apart) and lines into
 * labels: the lexicon's phrases that announce a field, with the party words around them.
 */
import { guessLanguage } from './page-language.js';
import { isSigner, roleAbove, roleOnLine, signsForCompany } from './caption-roles.js';
import { COLON_MARK, DATE_FORMAT, afterOf, arabicWhose, notAField, STOPWORDS, closesSentence, isFillToken, partyAt } from './lexicon.js';
import { splitWord } from './word-tokens.js';
import { lineLabels, matchLabels, type LabelMatch } from './label-matching.js';
import { bothSigned, namedAndSigned, stampedAndSigned } from './signed-and-dated.js';
import { conditionAfter, labelRuns } from './label-runs.js';
import { PLACE_WORDS } from './filled-blanks.js';
import { isRtl } from './token-folding.js';
import { type Word, MAX_LABEL_SIZE, bodySize, type Line, type Label, type Rect, type Segment, union, overlap1, ruledOver } from './page-model.js';

// ------------------------------------------------------------------------------------------ lines
/** The first token of the sentence of `line` that token `k` is in (the line's last sentence for `k` its length): after the last word before it that closes one. */
export function sentenceStart(line: Line, k: number): number {
  let start = 0;
  for (let j = 0; j < k; j++) if (line.tokens[j] !== '\0' && closesSentence((line.words[line.tokenWord[j] as number] as Word).text.trim())) start = j + 1;
  return start;
}

/** Words on one baseline that are close together, in reading order (a colon printed over the start of the blank after it first: "Signature :" over a run set lower in a larger size). Columns stay apart. */
export function buildLines(words: readonly Word[]): Line[] {
  // A mark of a symbol font far larger than the text (a bullet or a pointer printed as "!") is no text: it would stretch its line over the blank above it.
  const body = bodySize(words);
  const mark = (w: Word) => w.size > 1.8 * body && !/[\p{L}\p{N}]/u.test(w.text) && !isFillToken(w.text);
  const sorted = [...words].filter((w) => w.text.trim() && !mark(w)).sort((a, b) => a.baseline - b.baseline || a.box.x0 - b.box.x0);
  const rows: Word[][] = [];
  for (const w of sorted) {
    const row = rows.find((r) => {
      const first = r[0] as Word;
      return Math.abs(first.baseline - w.baseline) <= 0.35 * Math.max(first.size, w.size);
    });
    if (row) row.push(w);
    else rows.push([w]);
  }
  const lines: Line[] = [];
  const colonOver = (c: Word, run: Word) => /^[:：]$/.test(c.text.trim()) && isFillToken(run.text) && Math.abs(c.box.x0 - run.box.x0) < 0.5 * run.size;
  for (const row of rows) {
    row.sort((a, b) => (colonOver(a, b) ? -1 : colonOver(b, a) ? 1 : a.box.x0 - b.box.x0));
    let run: Word[] = [];
    for (const w of row) {
      const last = run[run.length - 1];
      const gap = last ? w.box.x0 - last.box.x1 : 0;
      // (Or set apart and half as large again or more: another column's small print beside a form's row, "… vos données" then "Fait à ……".)
      const column = last !== undefined && Math.max(last.size, w.size) >= 1.5 * Math.min(last.size, w.size) && gap >= 0.6 * Math.max(last.size, w.size);
      if (last && (gap > Math.max(2.2 * Math.max(last.size, w.size), 16) || column)) {
        lines.push(makeLine(run));
        run = [];
      }
      run.push(w);
    }
    if (run.length) lines.push(makeLine(run));
  }
  return lines;
}

export function makeLine(run: Word[]): Line {
  const arabic = run.filter((w) => isRtl(w.text)).length;
  // (Digits and punctuation have no direction of their own: "20 / / التاريخ:" reads right to left.)
  const rtl = arabic * 2 > run.filter((w) => !isFillToken(w.text) && /\p{L}/u.test(w.text)).length;
  const words = rtl ? [...run].reverse() : run;
  const tokens: string[] = [];
  const tokenWord: number[] = [];
  words.forEach((w, i) => {
    const parts = isFillToken(w.text) || /^_{2}$/.test(w.text) ? ['\0'] : splitWord(w.text); // (Two underscores are a blank too, a date's day: "a __ de ____ de 201__".)
    for (const p of parts) {
      tokens.push(p);
      tokenWord.push(i);
    }
  });
  const sizes = words.map((w) => w.size).sort((a, b) => a - b);
  return {
    words,
    tokens,
    tokenWord,
    rtl,
    size: sizes[Math.floor(sizes.length / 2)] ?? 10,
    baseline: Math.max(...words.map((w) => w.baseline)),
    box: union(words.map((w) => w.box)),
  };
}

// ------------------------------------------------------------------------------------------ labels

/** Words that open a condition before a caption ("Bei Minderjährigen", "Per i minori"). */
const CONDITION = new Set(['bei', 'per', 'pour', 'for', 'para']);

/** A label match with the end of its run and whether words of a sentence come before it in the run. */
type RunMatch = LabelMatch & { runEnd: number; sentenceEnd: boolean; valueAfter: boolean; inSentence: boolean; blankWord?: number };

export function findLabels(lines: Line[], bodySize = 10, rules: readonly Segment[] = []): Label[] {
  const labels: Label[] = [];
  // Labels are body-sized text: a line much larger than the page's body text is a heading. (A form's captions may be a
  // third larger than its fine print, "Datum/Unterschrift" in 16 pt over 12 pt conditions, and a little more: a capital's
  // word OCR sizes from its height over the baseline, "Firma" alone.)
  const maxSize = Math.max(MAX_LABEL_SIZE, 1.45 * bodySize);
  // Captions that are other words in other languages ("Firma", "Data") count on pages of their languages.
  const language = guessLanguage(lines.flatMap((l) => l.tokens));
  const widest = Math.max(0, ...lines.map((l) => width(l.box)));
  for (const line of lines) {
    // (A caption alone with its colon asks for what follows it, even in larger type: "Signature :" in 20 pt over 14 pt text.)
    if (line.size > maxSize && !(line.size <= 1.5 * bodySize && /^[\p{L}' ]+ ?[:：]$/u.test(line.words.map((w) => w.text).join(' ')))) continue;
    // "Company A" names a party; "Company" alone asks for one.
    const partyTokens = new Set<number>();
    const extra = new Set<number>();
    for (let k = 0; k < line.tokens.length; k++) {
      const party = partyAt(line.tokens, k);
      if (party) for (let j = 0; j < party.length; j++) extra.add(k + j);
      else if (isSigner(line.tokens[k] as string) || DATE_FORMAT.has(line.tokens[k] as string)) extra.add(k);
      if (party && party.length > 1) for (let j = 0; j < party.length; j++) partyTokens.add(k + j);
    }
    const all = stampedAndSigned(line, namedAndSigned(line, bothSigned(line, lineLabels(line, language))), extra).filter(
      (m) => ![...Array(m.end - m.start + 1).keys()].some((j) => partyTokens.has(m.start + j)) && !signsForCompany(line.tokens, m),
    );
    if (all.length === 0) continue;
    if (paragraphTail(line, lines, rules) || contentsEntry(line)) continue;
    // (The words opening its line before a slash right before a caption are its translation: "अभिभावक के हस्ताक्षर / Signature of Parents".)
    for (const m of all) {
      const slash = line.words[(line.tokenWord[m.start] as number) - 1];
      if (m.entry.type !== 'text' && slash && /\/$/.test(slash.text.trim()) && m.start <= 6 && !line.tokens.slice(0, m.start).includes('\0'))
        for (let k = 0; k < m.start; k++) extra.add(k);
    }
    // A line holds label runs (a caption and its blank, a parenthesis, a sentence); each is judged alone.
    const matches: RunMatch[] = [];
    const labelTokens = new Set<number>();
    for (const m of all) for (let k = m.start; k <= m.end; k++) labelTokens.add(k);
    for (const run of labelRuns(line)) {
      const inRun = all.filter((m) => m.start >= run.start && m.start < run.end);
      if (inRun.length === 0) continue;
      // A label that spans runs ("Fait à ____, le ____") takes them in.
      const end = Math.max(run.end, ...inRun.map((m) => m.end + 1));
      const tokens = line.tokens.slice(run.start, end);
      if (notAField(tokens)) continue;
      // "For the Company:", "Per la Società" name a party that signs, not a company to fill in.
      if (FOR_PARTY.has(tokens[0] as string) && inRun.every((m) => m.entry.fieldKey === 'company')) continue;
      // Whatever is neither label, party, filler nor blank: a filled-in value or a sentence.
      const residue: string[] = [];
      for (let k = run.start; k < end; k++) {
        const t = line.tokens[k] as string;
        // (A possessive's "s" is no word of its own: "Parent's Signature".)
        if (t !== '\0' && t !== 's' && !labelTokens.has(k) && !extra.has(k) && !STOPWORDS.has(t)) residue.push(t);
      }
      // A value typed after the caption's colon ("Vendedor: ACME Ltd", "Assinatura do recebedor: Imobiliária
      // Vila Nova") says who signs: such a caption still names the line over it (and nothing else).
      let valueAfter = false;
      // A caption opening its run on to a colon and its blank is one, whatever qualifies it ("(Signature of Parent if Under 18): ____").
      // (Or after a condition naming who signs, not in parentheses: "Bei Minderjährigen Unterschrift des gesetzlichen
      // Vertreters", "Per i minori firma di chi esercita la responsabilità genitoriale".)
      const remark = /^\(/.test((line.words[line.tokenWord[run.start] as number] as Word).text);
      const opening = line.tokens
        .slice(run.start, (inRun[0] as LabelMatch).start)
        .every((t, j, lead) => extra.has(run.start + j) || STOPWORDS.has(t) || t === 's' || (!remark && CONDITION.has(lead[0] as string) && j <= 2));
      const blankAt = line.tokens.indexOf('\0', run.start);
      const toBlank =
        opening &&
        blankAt > run.start &&
        blankAt < end &&
        line.tokens.slice(blankAt, end).every((t) => t === '\0') &&
        // (No colon for a signature before a blank long enough to sign on: "Firma del genitore o di chi … ____", not "Signed this ___ day".)
        (/[:：]$/.test((line.words[line.tokenWord[blankAt - 1] as number] as Word).text.trim()) ||
          ((inRun[0] as LabelMatch).entry.type === 'signature' && width(line.words[line.tokenWord[blankAt] as number] as Word) >= 80)) &&
        residue.length <= 8;
      // So is a signature caption that is its whole line, however long, short of a sentence or a line of running
      // text ("Firma del genitore o di chi esercita la responsabilità genitoriale" over its line; as wide as the text under its rule).
      const wholeLine =
        opening &&
        run.start === 0 &&
        end >= line.tokens.length &&
        (inRun[0] as LabelMatch).entry.type === 'signature' &&
        residue.length <= 8 &&
        !endsSentence(line) &&
        (width(line.box) <= 0.8 * widest || ruledOver(line.box, line.size, rules));
      // (Two words after a caption opening its run, without a colon, qualify it however long they are: German
      // compounds, "Name in Druckbuchstaben" — not words before it, "Alderson Reporting Company", nor a remark
      // in parentheses, "(bei Minderjährigen Unterschrift des Erziehungsberechtigten)".)
      const runWords = line.words.slice(line.tokenWord[run.start] as number, (line.tokenWord[end - 1] as number) + 1);
      const compound = opening && !runWords.some((w) => /[:：]/.test(w.text)) && !/^\(/.test(runWords[0]?.text ?? '');
      if (!toBlank && !wholeLine && (residue.length > 2 || (residue.join('').length > 14 && !compound))) {
        // The caption's colon: at most two words of its own between the label and it.
        const last = Math.max(...inRun.map((m) => m.end));
        let k = last + 1;
        const own: string[] = [];
        while (k < end && !/[:：]$/.test((line.words[line.tokenWord[k - 1] as number] as Word).text.trim())) {
          const t = line.tokens[k] as string;
          if (!extra.has(k) && !STOPWORDS.has(t)) own.push(t);
          k++;
        }
        const colon = k > last + 1 || /[:：]$/.test((line.words[line.tokenWord[last] as number] as Word).text.trim());
        if (!colon || k >= end || own.length > 2 || own.join('').length > 14 || line.tokens.slice(k, end).includes('\0')) continue;
        valueAfter = true;
      }
      // A run that opens with words of its own and ends on the label is the end of a sentence ("... as signed.").
      const first = inRun[0] as LabelMatch;
      // (A possessive before it is a caption: "Spouse's signature.")
      const lead = line.tokens
        .slice(run.start, first.start)
        .filter((t, j, all) => !extra.has(run.start + j) && !STOPWORDS.has(t) && t !== 's' && all[j + 1] !== 's');
      for (const m of inRun) {
        // Two captions of one kind in a run: the same caption in two languages ("Unterschrift / Signature:") is
        // the one nearer its blank; one after words of a clause qualifies the first ("Parent's Signature, if
        // Signatory is minor"); one after party words is a caption of its own ("Unterschrift des Mieters Unterschrift des Vermieters").
        const between = (o: LabelMatch, p: LabelMatch) => line.tokens.slice(o.end + 1, p.start);
        const clause = (o: LabelMatch, p: LabelMatch) => between(o, p).some((t, j) => !extra.has(o.end + 1 + j) && !STOPWORDS.has(t) && t !== 's');
        const slash = (o: LabelMatch, p: LabelMatch) =>
          between(o, p).length === 0 &&
          line.words
            .slice(line.tokenWord[o.end] as number, (line.tokenWord[p.start] as number) + 1)
            .map((w) => w.text)
            .join(' ')
            .includes('/');
        if (inRun.some((o) => o.start > m.start && o.entry.type === m.entry.type && slash(m, o))) continue;
        if (inRun.some((o) => o.start < m.start && o.entry.type === m.entry.type && clause(o, m))) continue;
        // Words of a sentence right before it in its run ("notificato in data ____", "issued on the date ____"), not a place and its comma
        // ("Roma, data ____"), nor a date's place word ("Ciudad y fecha: ____").
        const words = line.tokens
          .slice(run.start, m.start)
          .filter(
            (t, j) =>
              !labelTokens.has(run.start + j) &&
              !extra.has(run.start + j) &&
              !STOPWORDS.has(t) &&
              t !== 's' &&
              !(m.entry.type === 'date' && PLACE_WORDS.has(t)),
          );
        const before = line.words[(line.tokenWord[m.start] as number) - 1];
        const inSentence = words.length > 0 && !(before && /,$/.test(before.text.trim()));
        matches.push({
          ...m,
          runEnd: end,
          sentenceEnd: lead.length > 0,
          valueAfter,
          inSentence,
          ...(toBlank ? { blankWord: line.tokenWord[blankAt] as number } : {}),
        });
      }
    }
    matches.forEach((m, i) => {
      const nextMatch = matches[i + 1];
      const runEnd = m.runEnd;
      const stop = nextMatch && nextMatch.start < runEnd ? nextMatch.start : runEnd;
      const anchorWord = line.tokenWord[m.anchor] as number;
      const firstWord = line.tokenWord[m.start] as number;
      // The label reaches over the party words and stopwords that follow it ("Signature of the Client"; a text caption not past its colon, "Title: Manager").
      let reachWord = anchorWord;
      let k = m.end + 1;
      while (k < stop) {
        const t = line.tokens[k] as string;
        if (t === '\0' || (m.entry.type === 'text' && COLON_MARK.test((line.words[reachWord] as Word).text.slice(-1)))) break;
        const party = partyAt(line.tokens, k);
        // (So does the one word ending a caption that opens its line, a stamp's words before it or none, after "of" and maybe an
        // article: "Signature du licencié(e)", "Stempel und Unterschrift des Arztes", "Signature du représentant de l'agence".)
        // (Or, on a German page, the one noun ending a signature caption that opens its line: "Unterschrift Vorstand", not "Signature Pen";
        // in Arabic, the one or two words naming whose it is right after it: "توقيع المشرف", "توقيع مقدم الطلب".)
        const last = k + 1 >= stop || line.tokens[k + 1] === '\0';
        const capital = /^\p{Lu}[\p{L}/-]*$/u.test((line.words[line.tokenWord[k] as number] as Word).text);
        const named = language === 'de' && k === m.end + 1 && m.entry.type === 'signature' && capital;
        const whose =
          line.tokens.slice(0, m.start).every((t) => STOPWORDS.has(t)) &&
          ((last && (afterOf(line.tokens, k, m.end + 1) || named)) || arabicWhose(line.tokens, m.end + 1, stop));
        // (Or a number ending it, telling signers apart: "Signature Parent / Représentant légal 1 :".)
        if (!party && !STOPWORDS.has(t) && !isSigner(t) && !whose && !(last && /^\d{1,2}$/.test(t))) break;
        k += party ? party.length : 1;
        reachWord = line.tokenWord[k - 1] as number;
      }
      // (And a signature's over the condition ending its run: "Guardian signature if the player is under 18".)
      if (m.entry.type === 'signature' && !line.rtl) k += conditionAfter(line.tokens, k, stop);
      reachWord = k > m.end + 1 ? (line.tokenWord[k - 1] as number) : reachWord;
      // Punctuation after it (a colon) belongs to it too.
      let next = reachWord + 1;
      while (next < line.words.length && isPunctuation((line.words[next] as Word).text)) {
        const gap = line.rtl
          ? (line.words[next - 1] as Word).box.x0 - (line.words[next] as Word).box.x1
          : (line.words[next] as Word).box.x0 - (line.words[next - 1] as Word).box.x1;
        if (gap > line.size) break;
        next++;
      }
      const trailing = line.words
        .slice(reachWord, next)
        .map((w) => w.text)
        .join('');
      const colon = COLON_MARK.test(trailing.slice(-3));
      // (A clause ended by a semicolon is running text too: "… à la date de la signature ;".)
      if (/[^.][.;]\s*$/.test(trailing) && !colon && m.sentenceEnd) return;
      const labelWords = line.words.slice(Math.min(firstWord, anchorWord), anchorWord + 1);
      const box = m.entry.tokens.includes('*') ? (line.words[anchorWord] as Word).box : union(labelWords.map((w) => w.box));
      // A remark in parentheses between the caption and its blank is part of it ("Firma (leggibile) ____", "Date (mm/dd/yyyy): ____").
      let remarkColon = false;
      // (A caption qualified up to its colon reaches to its blank.)
      if (m.blankWord !== undefined && m === matches.filter((o) => o.blankWord === m.blankWord).at(-1) && next < m.blankWord) {
        next = m.blankWord;
        remarkColon = true;
      }
      if (next < line.words.length && /^\(/.test((line.words[next] as Word).text.trim())) {
        let close = next;
        while (close < line.words.length && close - next < 10 && !/\)[:：.]?$/.test((line.words[close] as Word).text.trim())) close++;
        let after = close + 1;
        while (after < line.words.length && isPunctuation((line.words[after] as Word).text)) after++;
        if (close - next < 10 && close < line.words.length && (after >= line.words.length || isFillToken((line.words[after] as Word).text))) {
          remarkColon = /[:：]/.test(
            line.words
              .slice(close, after)
              .map((w) => w.text)
              .join('')
              .slice(-3),
          );
          next = after;
        }
      }
      const limitWord = nextMatch ? line.words[line.tokenWord[nextMatch.start] as number] : undefined;
      // (Qualified up to a colon ending its line, it reaches to it: "Signature du 2ème représentant légal (si applicable) :".)
      if (!colon && !remarkColon && !limitWord && line.words.length - next <= 6 && endsColon(line)) [next, remarkColon] = [line.words.length, true];
      const reach = union([box, ...line.words.slice(anchorWord, next).map((w) => w.box)]);
      labels.push({
        line,
        entry: m.entry,
        box,
        reach,
        next: next < line.words.length ? next : -1,
        limit: limitWord ? (line.rtl ? limitWord.box.x1 : limitWord.box.x0) : undefined,
        colon: colon || remarkColon,
        bare: line.tokens.slice(k, stop).every((t) => t === '\0'),
        role: roleOnLine(line) ?? roleAbove(line, lines),
        confidence: Math.min(...labelWords.map((w) => w.confidence)),
        done: false,
        ...(m.valueAfter ? { valueAfter: true } : {}),
        ...(m.inSentence ? { inSentence: true } : {}),
        tokens: line.tokens.slice(Math.max(0, m.start - 4), Math.min(runEnd, m.end + 5)),
      });
    });
  }
  // A caption that wraps ("Signature du demandeur ou de son / représentant légal"): its second line, not
  // across a rule drawn between them (a cell's bottom), is part of it: the blank is looked for under both.
  for (const label of labels) {
    const { line } = label;
    // A caption ending with a colon is whole; so is a line with a blank.
    if (label.colon || line.tokens.includes('\0') || endsColon(line)) continue;
    const next = lines.find(
      (l) =>
        l !== line &&
        l.baseline - line.baseline > 0 &&
        l.baseline - line.baseline <= 1.6 * line.size &&
        Math.abs(l.size - line.size) < 1 &&
        (line.rtl ? Math.abs(l.box.x1 - line.box.x1) : Math.abs(l.box.x0 - line.box.x0)) <= 2 * line.size &&
        // (Under the caption itself: the line after a caption that ends a longer line is other text.)
        overlap1(l.box.x0, l.box.x1, label.box.x0, label.box.x1) > 0 &&
        l.tokens.length > 0 &&
        l.tokens.length <= 6 &&
        !l.tokens.includes('\0') &&
        !/[:：]\s*$/.test((l.words[l.words.length - 1] as Word).text) &&
        matchLabels(l.tokens).length === 0 &&
        !labels.some((o) => o.line === l) &&
        !rules.some((s) => s.y > line.baseline && s.y < l.box.y0 + 1 && overlap1(s.x0, s.x1, label.box.x0, label.box.x1) > 0),
    );
    if (next) label.box = union([label.box, next.box]);
  }
  // "Signature: ____   Date: ____": the date belongs to whoever the signature on its row belongs to.
  for (const label of labels) {
    if (label.role) continue;
    const row = labels
      .filter((o) => o.role && o !== label && Math.abs(o.line.baseline - label.line.baseline) <= 0.5 * label.line.size)
      .sort((a, b) => Math.abs(a.box.x0 - label.box.x0) - Math.abs(b.box.x0 - label.box.x0))[0];
    if (row) label.role = row.role;
  }
  return labels;
}

export const isPunctuation = (text: string): boolean => text.trim().length <= 2 && /^[^\p{L}\p{N}_.…\-~]*$/u.test(text.trim());

/** The last line of a paragraph: under a long line of its size ending neither a sentence nor with a colon (what follows a colon is asked for). */
export function paragraphTail(line: Line, lines: Line[], rules: readonly Segment[] = []): boolean {
  // A blank on the line or on the line above ("… ____" over "Date:"), or a rule between it and the text above, makes it no tail.
  if (line.tokens.includes('\0')) return false;
  const prose = (l: Line) => l.tokens.length >= 8 && !l.tokens.includes('\0') && !endsSentence(l) && !endsColon(l);
  return lines.some(
    (l) =>
      l !== line &&
      prose(l) &&
      Math.abs(l.size - line.size) < 1 &&
      line.baseline - l.baseline > 0 &&
      line.baseline - l.baseline <= 1.7 * line.size &&
      overlap1(l.box.x0, l.box.x1, line.box.x0, line.box.x1) > 0 &&
      !rules.some((r) => r.y > l.baseline && r.y < line.box.y0 + 1 && overlap1(r.x0, r.x1, line.box.x0, line.box.x1) > 0),
  );
}

/** A line whose last word ends with a colon; one whose last word closes a sentence ("... any knowledge."), not an abbreviation ("Inc.", "No."). */
export const endsColon = (line: Line): boolean => /[:：]$/.test((line.words.at(-1) as Word).text.trim());
export const endsSentence = (line: Line): boolean => closesSentence((line.words[line.words.length - 1] as Word).text.trim());

const FOR_PARTY = new Set(['for', 'pour', 'per', 'fur', 'por', 'pela', 'pelo', 'namens']);
const width = (w: Word | Rect): number => ('box' in w ? width(w.box) : w.x1 - w.x0);

/** A table of contents' entry: its title, a leader of dots, then its page's number ("Signature des parties ........ 12"). */
function contentsEntry(line: Line): boolean {
  const [leader, number] = line.words.slice(-2).map((w) => w.text.trim());
  return number !== undefined && /^\d{1,3}$/.test(number) && leader !== undefined && /^[.…·]{4,}$/.test(leader) && line.words.length >= 3;
}
