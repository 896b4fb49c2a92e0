// Field detection's layout rules under variation: one place to sign drawn many ways — the caption under,
// before or above its line, drawn or typed as underscores, in several languages, sizes, gaps and
// alignments. Each grid asserts that every variation is found, so a rule tuned to one spacing or one
// alignment fails here. No PDF, no child process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { suggestFields, type Suggestion, type Word } from '../../src/pdf/detect/suggest-fields.js';
import { h, page, paragraph, words } from '../helpers/detect-pages.js';

type Language = 'en' | 'de' | 'it' | 'ar';
/** A signature caption and the language of the paragraph that sets its page's language. */
const CAPTIONS: Array<[string, Language]> = [
  ['Signature', 'en'],
  ['Signature of Parent/Guardian', 'en'],
  ['Signature of Applicant', 'en'],
  ['Unterschrift', 'de'],
  ['Unterschrift des Antragstellers', 'de'],
  ['Firma', 'it'],
  ['(Firma)', 'it'],
  ['Firma del genitore', 'it'],
  ['Assinatura do responsável', 'en'],
  ["Signature de l'élève", 'en'],
];

/** A line from x0 to x1 at y: a drawn rule, or a run of underscores standing on y. */
function line(
  kind: 'drawn' | 'run',
  x0: number,
  x1: number,
  y: number,
  size: number,
): { words: Word[]; segments: Array<{ x0: number; x1: number; y: number }> } {
  return kind === 'drawn'
    ? { words: [], segments: [h(x0, x1, y)] }
    : { words: words('_'.repeat(Math.round((x1 - x0) / (size * 0.5))), x0, y - 2, size), segments: [] };
}

type Part = ReturnType<typeof line>;
type Align = 'start' | 'centre' | 'before';

/** A line with its caption printed `gap` pt under it: from the line's start, centred, or starting 10 pt before it. */
function captioned(kind: 'drawn' | 'run', x0: number, x1: number, y: number, caption: string, gap: number, size: number, align: Align): Part {
  const drawn = line(kind, x0, x1, y, size);
  const width = [...caption].length * size * 0.5;
  const cx = align === 'start' ? x0 : align === 'centre' ? (x0 + x1) / 2 - width / 2 : x0 - 10;
  return { words: [...drawn.words, ...words(caption, cx, y + gap + 0.8 * size, size)], segments: drawn.segments };
}

/** The suggestions for a page holding the parts, its language set by a paragraph at paragraphY. */
const suggest = (language: Language, paragraphY: number, parts: Part[]) =>
  suggestFields(page({ words: [...paragraph(language, paragraphY), ...parts.flatMap((p) => p.words)], segments: parts.flatMap((p) => p.segments) }));

const onLine = (list: Suggestion[], x0: number, x1: number, y: number) =>
  list.some((s) => s.type === 'signature' && s.x < x0 + 0.2 * (x1 - x0) && s.x + s.width > x1 - 0.2 * (x1 - x0) && Math.abs(s.y + s.height - y) <= 6);

test('a signature caption under its line: drawn or underscores, 1 to 11 pt under it, 8 to 12 pt, from its start, centred or starting a little before it', () => {
  const missed: string[] = [];
  for (const kind of ['drawn', 'run'] as const)
    for (const [caption, language] of CAPTIONS)
      for (const gap of [1, 4, 8, 11])
        for (const size of [8, 10, 12])
          for (const align of ['start', 'centre', 'before'] as const) {
            const [x0, x1, y] = [300, 520, 600];
            const found = suggest(language, 500, [captioned(kind, x0, x1, y, caption, gap, size, align)]);
            if (!onLine(found, x0, x1, y)) missed.push(`${kind} "${caption}" gap ${gap} size ${size} ${align}`);
          }
  assert.deepEqual(missed, []);
});

test('a signature caption before its line on its row: drawn a little under or over the baseline, or underscores, 2 to 40 pt after it, short or long', () => {
  const missed: string[] = [];
  for (const kind of ['drawn', 'run'] as const)
    for (const [caption, language] of [
      ...CAPTIONS.filter(([c]) => !c.startsWith('(')),
      ['Signature:', 'en'] as [string, Language],
      ['Unterschrift:', 'de'] as [string, Language],
    ])
      for (const dx of [2, 8, 20, 40])
        for (const dy of [-1, 1, 3])
          for (const size of [8, 10, 12])
            for (const length of [60, 150, 250]) {
              const baseline = 600;
              const x0 = 72 + [...caption].length * size * 0.5 + dx;
              const drawn = kind === 'drawn' ? line(kind, x0, x0 + length, baseline + dy, size) : line(kind, x0, x0 + length, baseline + 2, size);
              const found = suggestFields(
                page({ words: [...paragraph(language, 500), ...words(caption, 72, baseline, size), ...drawn.words], segments: drawn.segments }),
              );
              const at = found.some(
                (s) =>
                  s.type === 'signature' &&
                  s.x < x0 + 0.3 * length &&
                  s.x + s.width > x0 + 0.7 * length &&
                  s.y + s.height > baseline - 4 &&
                  s.y + s.height < baseline + 8,
              );
              if (!at) missed.push(`${kind} "${caption}" dx ${dx} dy ${dy} size ${size} length ${length}`);
            }
  assert.deepEqual(missed, []);
});

test('a signature caption over its line: 14 to 40 pt over it, drawn or underscores, at the left or the middle of the page', () => {
  const missed: string[] = [];
  for (const kind of ['drawn', 'run'] as const)
    for (const [caption, language] of [...CAPTIONS.filter(([c]) => !c.startsWith('(')), ['Signature:', 'en'] as [string, Language]])
      for (const distance of [14, 22, 30, 40])
        for (const size of [8, 10])
          for (const x of [72, 320]) {
            const baseline = 600;
            const y = baseline + distance;
            const drawn = line(kind, x, x + 200, y, size);
            const found = suggestFields(
              page({
                words: [
                  ...paragraph(language, 500),
                  ...words(caption, x, baseline, size),
                  ...drawn.words,
                  ...words('Nome e cognome del partecipante', 72, y + 40, size),
                ],
                segments: drawn.segments,
              }),
            );
            if (!onLine(found, x, x + 200, y)) missed.push(`${kind} "${caption}" distance ${distance} size ${size} x ${x}`);
          }
  assert.deepEqual(missed, []);
});

test("a date line and a signature line side by side, each captioned under it: either order, from the line's start or centred, in several languages", () => {
  const pairs: Array<[string, string, Language]> = [
    ['Date', 'Signature', 'en'],
    ['Date', 'Signature of Parent/Guardian', 'en'],
    ['Datum', 'Unterschrift', 'de'],
    ['Ort, Datum', 'Unterschrift', 'de'],
    ['Ort und Datum', 'Unterschrift des Mitglieds', 'de'],
    ['Data', 'Firma', 'it'],
    ['Luogo e data', 'Firma del genitore', 'it'],
    ['(Data)', '(Firma)', 'it'],
    ['Date', 'Parent Signature', 'en'],
  ];
  const missed: string[] = [];
  for (const kind of ['drawn', 'run'] as const)
    for (const [dateCaption, signatureCaption, language] of pairs)
      for (const gap of [2, 6, 10])
        for (const size of [8, 10, 12])
          for (const dateFirst of [true, false])
            for (const align of ['start', 'centre'] as const) {
              const y = 600;
              const date: [number, number, string] = dateFirst ? [72, 232, dateCaption] : [360, 520, dateCaption];
              const signature: [number, number, string] = dateFirst ? [300, 520, signatureCaption] : [72, 292, signatureCaption];
              const found = suggest(
                language,
                500,
                [date, signature].map(([x0, x1, caption]) => captioned(kind, x0, x1, y, caption, gap, size, align)),
              );
              const dated = found.some(
                (s) =>
                  s.type === 'date' &&
                  s.x < date[0] + 0.25 * (date[1] - date[0]) &&
                  s.x + s.width > date[1] - 0.25 * (date[1] - date[0]) &&
                  Math.abs(s.y + s.height - y) <= 6,
              );
              if (!dated || !onLine(found, signature[0], signature[1], y))
                missed.push(
                  `${kind} "${dateCaption}" / "${signatureCaption}" gap ${gap} size ${size} ${dateFirst ? 'date first' : 'signature first'} ${align}`,
                );
            }
  assert.deepEqual(missed, []);
});

test('a stacked signature block — a line each for the signature, the printed name and the date, captioned under — in several languages and spacings: the signature and the date found, the name line no signature', () => {
  const blocks: Array<[string[], Language]> = [
    [['Signature', 'Printed Name', 'Date'], 'en'],
    [['Signature of Parent/Guardian', 'Print Name', 'Date'], 'en'],
    [['Authorized Signature', 'Name and Title', 'Date'], 'en'],
    [['Unterschrift', 'Name in Druckbuchstaben', 'Datum'], 'de'],
    [['Firma', 'Nome e cognome', 'Data'], 'it'],
  ];
  const missed: string[] = [];
  for (const kind of ['drawn', 'run'] as const)
    for (const [captions, language] of blocks)
      for (const pitch of [30, 40, 55])
        for (const size of [8, 10])
          for (const x of [72, 320]) {
            const ys = captions.map((_, i) => 560 + i * pitch);
            const found = suggest(
              language,
              400,
              captions.map((caption, i) => captioned(kind, x, x + 200, ys[i] as number, caption, 2, size, 'start')),
            );
            const dated = found.some((s) => s.type === 'date' && s.x < x + 40 && s.x + s.width > x + 160 && Math.abs(s.y + s.height - (ys[2] as number)) <= 6);
            const nameSigned = found.some((s) => s.type === 'signature' && Math.abs(s.y + s.height - (ys[1] as number)) <= 6);
            if (!onLine(found, x, x + 200, ys[0] as number) || !dated || nameSigned) missed.push(`${kind} "${captions[0]}" pitch ${pitch} size ${size} x ${x}`);
          }
  assert.deepEqual(missed, []);
});

test('a signature line and a date line on one row, each after its caption: either order, with or without colons, drawn or underscores', () => {
  const rows: Array<[string, string, Language]> = [
    ['Signature:', 'Date:', 'en'],
    ['Signature', 'Date', 'en'],
    ['Parent Signature:', 'Date:', 'en'],
    ['Unterschrift:', 'Datum:', 'de'],
    ['Firma', 'Data', 'it'],
    ['Firma:', 'Data:', 'it'],
  ];
  const missed: string[] = [];
  for (const kind of ['drawn', 'run'] as const)
    for (const [signatureCaption, dateCaption, language] of rows)
      for (const size of [8, 10, 12])
        for (const signatureFirst of [true, false])
          for (const length of [120, 200]) {
            const y = 600;
            const w = [...paragraph(language, 400)];
            const segments: Array<{ x0: number; x1: number; y: number }> = [];
            const at: Record<string, [number, number]> = {};
            let x = 72;
            const order: Array<[string, 'signature' | 'date', number]> = [
              [signatureCaption, 'signature', length],
              [dateCaption, 'date', 90],
            ];
            for (const [caption, type, long] of signatureFirst ? order : order.reverse()) {
              w.push(...words(caption, x, y, size));
              x += [...caption].length * size * 0.5 + 4;
              if (kind === 'drawn') segments.push(h(x, x + long, y + 1));
              else w.push(...words('_'.repeat(Math.round(long / (size * 0.5))), x, y, size));
              at[type] = [x, x + long];
              x += long + 12;
            }
            const found = suggestFields(page({ words: w, segments }));
            const on = (type: 'signature' | 'date') => {
              const [x0, x1] = at[type] as [number, number];
              return found.some(
                (s) => s.type === type && s.x < x0 + 0.3 * (x1 - x0) && s.x + s.width > x1 - 0.3 * (x1 - x0) && Math.abs(s.y + s.height - y) <= 6,
              );
            };
            if (!on('signature') || !on('date'))
              missed.push(
                `${kind} "${signatureCaption}" / "${dateCaption}" size ${size} ${signatureFirst ? 'signature first' : 'date first'} length ${length}`,
              );
          }
  assert.deepEqual(missed, []);
});

test("a line with only who signs under it — a party, a role, with or without its article — alone or beside another's, from its start or centred", () => {
  const roles: Array<[string, string, Language]> = [
    ['Tenant', 'Landlord', 'en'],
    ['The Employee', 'The Employer', 'en'],
    ['Parent/Guardian', 'Student', 'en'],
    ['Participant', 'Witness', 'en'],
    ['Der Mieter', 'Der Vermieter', 'de'],
    ['Der Antragsteller', 'Der Vorstand', 'de'],
    ['Il Dichiarante', 'Il Presidente', 'it'],
    ['Il Fornitore', 'Il Committente', 'it'],
    ['Der Lieferant', 'Der Auftraggeber', 'de'],
  ];
  const missed: string[] = [];
  for (const kind of ['drawn', 'run'] as const)
    for (const [first, second, language] of roles)
      for (const gap of [2, 6])
        for (const size of [9, 11])
          for (const two of [false, true])
            for (const align of ['start', 'centre'] as const) {
              const y = 620;
              const columns: Array<[string, number, number]> = two
                ? [
                    [first, 72, 272],
                    [second, 330, 530],
                  ]
                : [[first, 330, 530]];
              const found = suggest(
                language,
                400,
                columns.map(([caption, x0, x1]) => captioned(kind, x0, x1, y, caption, gap, size, align)),
              );
              if (!columns.every(([, x0, x1]) => onLine(found, x0, x1, y)))
                missed.push(`${kind} "${first}"${two ? ` / "${second}"` : ''} gap ${gap} size ${size} ${align}`);
            }
  assert.deepEqual(missed, []);
});

test('a signature caption under its line with a paragraph close over the line (16 to 24 pt from its last baseline): the line is still the place to sign', () => {
  const text: Record<Language, string> = {
    ar: 'يقر الطرف الثاني بأنه قد اطلع على شروط هذا العقد وأنه يوافق عليها',
    en: 'The undersigned declares that he has read the terms of this agreement and agrees to them in full',
    de: 'Der Unterzeichner erklärt, dass er die Bedingungen des Vertrages gelesen hat und mit ihnen einverstanden ist',
    it: 'Il sottoscritto dichiara di aver letto e compreso le condizioni del presente contratto e di accettarle per intero',
  };
  const missed: string[] = [];
  for (const kind of ['drawn', 'run'] as const)
    for (const [caption, language] of CAPTIONS.filter(([c]) => !c.startsWith('(')))
      for (const above of [16, 24])
        for (const bodySize of [9, 11])
          for (const size of [6, 8, 10]) {
            const y = 640;
            const paragraph = [0, 1, 2].flatMap((i) => words(text[language], 60, y - above - (2 - i) * bodySize * 1.3, bodySize));
            const part = captioned(kind, 60, 260, y, caption, 2, size, 'start');
            const found = suggestFields(page({ words: [...paragraph, ...part.words], segments: part.segments }));
            if (!onLine(found, 60, 260, y)) missed.push(`${kind} "${caption}" ${above} pt under the text at ${bodySize} pt, caption at ${size} pt`);
          }
  assert.deepEqual(missed, []);
});

test('a signing date after its caption beside, under or over a signature after its caption, each with its own line: both found, each on its own line', () => {
  const pairs: Array<[string, string, Language]> = [
    ['Signature:', 'Date:', 'en'],
    ['Signature', 'Date', 'en'],
    ['Parent/Guardian Signature:', 'Date:', 'en'],
    ['Unterschrift:', 'Datum:', 'de'],
    ['Firma', 'Data', 'it'],
    ['Firma:', 'Data:', 'it'],
  ];
  const missed: string[] = [];
  for (const kind of ['drawn', 'run'] as const)
    for (const [signatureCaption, dateCaption, language] of pairs)
      for (const [where, distance] of [
        ['beside', 20],
        ['beside', 80],
        ['under', 24],
        ['under', 40],
        ['over', 24],
        ['over', 40],
      ] as const)
        for (const size of [9, 11]) {
          const parts: Part[] = [];
          /** A caption and its line after it on its row: where the line runs. */
          const after = (caption: string, x: number, y: number, length: number): [number, number, number] => {
            const x0 = x + [...caption].length * size * 0.5 + 4;
            const drawn = kind === 'drawn' ? line(kind, x0, x0 + length, y + 1, size) : line(kind, x0, x0 + length, y + 2, size);
            parts.push({ words: [...words(caption, x, y, size), ...drawn.words], segments: drawn.segments });
            return [x0, x0 + length, y];
          };
          const signature = after(signatureCaption, 72, 620, 180);
          const date =
            where === 'beside'
              ? after(dateCaption, signature[1] + distance, 620, 90)
              : after(dateCaption, 72, where === 'under' ? 620 + distance : 620 - distance, 90);
          const found = suggest(language, 400, parts);
          const on = (type: 'signature' | 'date', [x0, x1, y]: [number, number, number]) =>
            found.some((s) => s.type === type && s.x < x0 + 0.3 * (x1 - x0) && s.x + s.width > x1 - 0.3 * (x1 - x0) && Math.abs(s.y + s.height - y) <= 6);
          if (!on('signature', signature) || !on('date', date))
            missed.push(`${kind} "${signatureCaption}" / "${dateCaption}" ${where} ${distance} pt, ${size} pt`);
        }
  assert.deepEqual(missed, []);
});

test('right to left, and a party before its line: an Arabic caption before its blank (on its left) or under its line, a party named before a drawn line or underscores, in English, German and Arabic', () => {
  const missed: string[] = [];
  const arabic = ['التوقيع', 'التوقيع:', 'توقيع الطرف الأول', 'توقيع المستأجر', 'توقيع العميل:', 'الطرف الأول', 'المؤجر'];
  for (const kind of ['drawn', 'run'] as const)
    for (const caption of arabic)
      for (const layout of ['before', 'under'] as const)
        for (const size of [10, 12])
          for (const right of [540, 300]) {
            const width = [...caption].length * size * 0.5;
            const y = 620;
            const [x0, x1] = layout === 'before' ? [right - width - 186, right - width - 6] : [right - 200, right];
            const drawn =
              layout === 'before' && kind === 'run'
                ? { words: words('_'.repeat(Math.round(180 / (size * 0.5))), x0, y, size, true), segments: [] }
                : line(kind, x0, x1, layout === 'before' ? y + 1 : y, size);
            const cx = layout === 'before' ? right - width : (x0 + x1) / 2 - width / 2;
            const found = suggest('ar', 300, [
              { words: [...drawn.words, ...words(caption, cx, layout === 'before' ? y : y + 3 + 0.8 * size, size, true)], segments: drawn.segments },
            ]);
            if (!onLine(found, x0, x1, y + (layout === 'before' ? 1 : 0))) missed.push(`${kind} "${caption}" ${layout} ${size} pt at ${right}`);
          }
  for (const [caption, language] of [
    ['Tenant', 'en'],
    ['The Landlord', 'en'],
    ['Der Mieter', 'de'],
  ] as Array<[string, Language]>)
    for (const size of [9, 11]) {
      const x0 = 72 + [...caption].length * size * 0.5 + 6;
      const found = suggest(language, 300, [{ words: words(caption, 72, 620, size), segments: [h(x0, x0 + 180, 621)] }]);
      if (!onLine(found, x0, x0 + 180, 621)) missed.push(`drawn "${caption}" before its line, ${size} pt`);
    }
  assert.deepEqual(missed, []);
  // A party's caption with its colon asks for a value, and the one who signs named before a line asks for a name.
  for (const [caption, language] of [
    ['Kontoinhaber:', 'de'],
    ['Il Sottoscritto', 'it'],
  ] as Array<[string, Language]>) {
    const x0 = 72 + [...caption].length * 5 + 6;
    const found = suggest(language, 300, [{ words: words(caption, 72, 620), segments: [h(x0, x0 + 180, 621)] }]);
    assert.ok(!found.some((s) => s.type === 'signature'), `${caption}: ${JSON.stringify(found)}`);
  }
});

test("every line made of a sentence, a place, a date's word, a blank and a caption (each or none, in seven languages' words) is answered without an error", () => {
  const sentences = ['', 'Letto e approvato.', 'Lu et approuvé,'];
  const places = ['', 'Roma,', 'Fait à', 'A', 'En', 'O Requerente,', 'Eu,'];
  const leads = ['', 'Lì', 'le', 'Le', 'den', 'il', 'a', 'de', 'on', 'Datum', 'Date:'];
  const blanks = ['______________', '__/__/____', '……………………', '____ de ____________ de 20__'];
  const captions = ['', 'Signature', 'Firma:', 'Name:', 'X', 'التوقيع'];
  let lines = 0;
  for (const sentence of sentences)
    for (const place of places)
      for (const lead of leads)
        for (const blank of blanks)
          for (const caption of captions) {
            const text = [sentence, place, lead, blank, caption].filter((p) => p).join(' ');
            assert.doesNotThrow(() => suggestFields(page({ words: [...paragraph('it', 100), ...words(text, 50, 600, 9)] })), text);
            lines++;
          }
  assert.equal(lines, 3 * 7 * 11 * 4 * 6);
});
