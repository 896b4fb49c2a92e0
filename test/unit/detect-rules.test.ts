// The pure parts of field detection: the lexicon, word boxes from text items, the label rules on hand-built
// pages, and rules found in pixels. No PDF, no child process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { splitItem } from '../../src/pdf/detect/page-scan.js';
import { partyAt } from '../../src/pdf/detect/lexicon.js';
import { splitWord } from '../../src/pdf/detect/word-tokens.js';
import { matchLabels } from '../../src/pdf/detect/label-matching.js';
import { normalizeToken } from '../../src/pdf/detect/token-folding.js';
import { otherDate } from '../../src/pdf/detect/signing-dates.js';
import type { Label } from '../../src/pdf/detect/page-model.js';
import { fieldFromName, roleFromName, widgetMeaning } from '../../src/pdf/detect/acroform-widgets.js';
import { cellAt, dedupe, suggestFields, type PageModel, type Suggestion, type Word } from '../../src/pdf/detect/suggest-fields.js';
import { rulesFromInk, rulesFromPixels } from '../../src/pdf/detect/ocr-drawn-lines.js';
import { binarise } from '../../src/pdf/detect/ocr-image.js';
import { labelRegions } from '../../src/pdf/detect/ocr-regions.js';
import { pageSuggestions, suggestAcross } from '../../src/pdf/detect/continued-tables.js';
import { blanksApart, blanksOnRows, withoutRules, withoutSpecks } from '../../src/pdf/detect/ocr-words.js';
import { brief, page, paragraph } from '../helpers/detect-pages.js';
import { fillLines } from '../../src/pdf/detect/filled-blanks.js';
import { buildLines } from '../../src/pdf/detect/lines-and-labels.js';

const tokens = (text: string) => text.split(/\s+/).flatMap(splitWord);
const labels = (text: string) => matchLabels(tokens(text)).map((m) => `${m.entry.type}${m.entry.fieldKey ? `:${m.entry.fieldKey}` : ''}`);

/** Words laid out left to right (or right to left) on one baseline, Helvetica-ish widths. */
function words(text: string, x: number, baseline: number, size = 11, rtl = false): Word[] {
  const width = [...text].length * size * 0.5;
  return splitItem(text, x, baseline, width, size, rtl);
}

test('normalised tokens: case, accents, the German sharp s, soft hyphens and zero-width marks, Arabic letter variants, lam-alef as extracted, punctuation, a degree sign for an ordinal', () => {
  assert.equal(normalizeToken('Approuvé'), 'approuve');
  assert.equal(normalizeToken('Straße,'), 'strasse');
  assert.equal(normalizeToken('GRÜẞEN'), normalizeToken('Grüssen'));
  assert.equal(normalizeToken('Unter\u00ADschrift'), 'unterschrift');
  assert.equal(normalizeToken('Sig\u200Bnature\uFEFF'), 'signature');
  assert.equal(normalizeToken('1°'), normalizeToken('1º'));
  assert.equal(normalizeToken('20°C'), '20oc');
  assert.equal(normalizeToken('«Signature:»'), 'signature');
  assert.equal(normalizeToken('الأول'), normalizeToken('األول'));
  assert.equal(normalizeToken('الاسم:'), normalizeToken('االسم'));
  assert.equal(normalizeToken('التَّوقِيع'), normalizeToken('التوقيع'));
  assert.deepEqual(splitWord("l'acheteur"), ['l', 'acheteur']);
  assert.deepEqual(splitWord('E-mail'), ['e', 'mail']);
  assert.deepEqual(splitWord('l‘élève'), ['l', 'eleve']);
  assert.deepEqual(splitWord('lʼélève'), ['l', 'eleve']);
  assert.deepEqual(splitWord('Signature—Date'), ['signature', 'date']);
  assert.deepEqual(splitWord('Signature–Date'), ['signature', 'date']);
  // A feminine or plural ending in parentheses, whichever bracket OCR read at either end.
  for (const read of ['intéressé(e)', 'intéressé(e}', 'intéressé{e)', 'intéressé[e]']) assert.deepEqual(splitWord(read), ['interesse']);
  // So is one after a slash, an asterisk or a colon ("Vollmachtgeber/in", "Teilnehmer*innen", "Teilnehmer:in",
  // "interessado/a", "intéressé/e"); two words joined by a slash stay two ("Le/la", "e/ou", "des/der").
  for (const [read, word] of [
    ['Vollmachtgeber/in', 'vollmachtgeber'],
    ['Teilnehmer*innen', 'teilnehmer'],
    ['Teilnehmer:in', 'teilnehmer'],
    ['interessado/a', 'interessado'],
    ['intéressé/e', 'interesse'],
    ['Antragsteller/innen)', 'antragsteller'],
  ])
    assert.deepEqual(splitWord(read as string), [word], read);
  assert.deepEqual(splitWord('Le/la'), ['le', 'la']);
  assert.deepEqual(splitWord('e/ou'), ['e', 'ou']);
  assert.deepEqual(splitWord('des/der'), ['des', 'der']);
  // A ligature drawn as one glyph its font left unmapped (the replacement character) is read as the one that makes a label
  // word ("Unterschri\ufffd": Calibri's "ft"); a word that none makes one stays as it comes.
  assert.deepEqual(splitWord('Unterschri\ufffd'), ['unterschrift']);
  assert.deepEqual(splitWord('Datum,'), ['datum']);
  assert.deepEqual(splitWord('Kommunika\ufffdon'), ['kommunika\ufffdon']);
});

test('a signature caption whose ligature its font left unmapped is still one: "Ort, Datum, Unterschri\ufffd" under its line', () => {
  const found = suggestFields(page({ words: words('Ort, Datum, Unterschri\ufffd', 72, 320), segments: [{ x0: 72, x1: 500, y: 305 }] }));
  assert.ok(
    found.some((s) => s.type === 'signature'),
    JSON.stringify(found),
  );
});

test('labels in English, French and Arabic, longest first; "Fait à … le" anchors on "le"; an OCR split is joined', () => {
  assert.deepEqual(labels('Signature:'), ['signature']);
  assert.deepEqual(labels('Signed by:'), ['signature']);
  // ("Sig." only with its "of": the Italian "Sig." before a name is "Mr.".)
  assert.deepEqual(labels('Sig. of TG'), ['signature']);
  assert.deepEqual(labels('Sig. Mario Rossi'), []);
  assert.deepEqual(labels('Date of signature'), ['date:sign_date']);
  assert.deepEqual(labels('Print name'), ['text:signer_name']);
  assert.deepEqual(labels('Company name'), ['text:company']);
  // (A tax form's "Spouse's occupation" cell asks for a job, not the spouse's signature.)
  assert.deepEqual(labels("Spouse's occupation"), ['text:job_title']);
  assert.deepEqual(labels('Initials'), ['initials']);
  assert.deepEqual(labels('Signature du client'), ['signature']);
  assert.deepEqual(labels('Lu et approuvé'), ['signature']);
  // (The date the signatures are given is a date, however many sign: "Date de signature", "(Date de signatures du présent contrat)".)
  for (const caption of ['Date de signature', 'Date de signatures du présent contrat', 'Date des signatures'])
    assert.deepEqual(labels(caption), ['date:sign_date'], caption);
  assert.deepEqual(labels('Nom et prénom'), ['text:signer_name']);
  assert.deepEqual(labels('Paraphe :'), ['initials']);
  assert.deepEqual(labels('التوقيع:'), ['signature']);
  assert.deepEqual(labels('التاريخ'), ['date:sign_date']);
  assert.deepEqual(labels('الاسم'), ['text:signer_name']);
  const fait = matchLabels(tokens('Fait à Paris , le'));
  assert.equal(fait.length, 1);
  assert.equal(fait[0]?.entry.type, 'date');
  assert.equal(fait[0]?.anchor, tokens('Fait à Paris , le').indexOf('le'));
  assert.deepEqual(labels('إلا سم:'), ['text:signer_name']);
  // "By" is a label only at the start of a line.
  assert.deepEqual(labels('By'), ['signature']);
  assert.deepEqual(labels('Made by hand'), []);
});

/** The role the first party named in a text gives. */
function role(text: string): string | undefined {
  const t = tokens(text);
  for (let i = 0; i < t.length; i++) {
    const p = partyAt(t, i);
    if (p) return p.role;
  }
  return undefined;
}

test('party words give role hints: named, numbered, French, Arabic', () => {
  assert.equal(role('The Client'), 'client');
  assert.equal(role('Signer 2'), 'signer_2');
  assert.equal(role('Second party'), 'party_2');
  assert.equal(role('Company B'), 'company_2');
  assert.equal(role("L'acheteur"), 'buyer');
  assert.equal(role('Le vendeur'), 'seller');
  assert.equal(role('Le prestataire'), 'provider');
  assert.equal(role('الطرف الأول'), 'party_1');
  assert.equal(role('العميل'), 'client');
  assert.equal(role('مقدم الخدمة'), 'provider');
  assert.equal(role('ESTAGIÁRIO'), 'intern');
  assert.equal(role('A Concedente'), 'host');
  assert.equal(role('Nothing here'), undefined);
});

test('AcroForm names: what the field holds and whose it is', () => {
  assert.deepEqual(fieldFromName('client_signature'), { type: 'signature' });
  assert.deepEqual(fieldFromName('DateSigned'), { type: 'date', fieldKey: 'sign_date' });
  // (German, Portuguese, Dutch, Romanian, Polish and Swedish names of a signature's widget; not "Firma", a company in German and a signature elsewhere.)
  assert.deepEqual(fieldFromName('Unterschrift_Mieter'), { type: 'signature' });
  assert.deepEqual(fieldFromName('assinatura_contratante'), { type: 'signature' });
  assert.deepEqual(fieldFromName('Handtekening'), { type: 'signature' });
  assert.deepEqual(fieldFromName('semnatura'), { type: 'signature' });
  assert.deepEqual(fieldFromName('Podpis_najemcy'), { type: 'signature' });
  assert.deepEqual(fieldFromName('Underskrift'), { type: 'signature' });
  assert.deepEqual(fieldFromName('Unterschrift_Datum'), { type: 'date', fieldKey: 'sign_date' });
  assert.equal(fieldFromName('Firma'), null);
  assert.deepEqual(fieldFromName('signature_date'), { type: 'date', fieldKey: 'sign_date' });
  assert.deepEqual(fieldFromName('CompanyName'), { type: 'text', fieldKey: 'company' });
  assert.deepEqual(fieldFromName('email'), { type: 'text', fieldKey: 'signer_email' });
  assert.deepEqual(fieldFromName('full_name'), { type: 'text', fieldKey: 'signer_name' });
  assert.deepEqual(fieldFromName('job_title'), { type: 'text', fieldKey: 'job_title' });
  assert.deepEqual(fieldFromName('initials'), { type: 'text', fieldKey: 'initials' });
  assert.equal(fieldFromName('reference_number'), null);
  assert.equal(roleFromName('client_signature'), 'client');
  assert.equal(roleFromName('signer2_date'), 'signer_2');
  assert.equal(roleFromName('Text1'), undefined);
});

test('word boxes inside a text item: blanks to fill are words of their own; right-to-left items from the right', () => {
  const ltr = splitItem('Signature:______', 100, 500, 160, 10, false);
  assert.deepEqual(
    ltr.map((w) => w.text),
    ['Signature:', '______'],
  );
  assert.ok(Math.abs((ltr[1]?.box.x1 ?? 0) - 260) < 0.01);
  assert.ok((ltr[0]?.box.x1 ?? 0) <= (ltr[1]?.box.x0 ?? 0) + 0.01);
  assert.equal(ltr[0]?.baseline, 500);
  const rtl = splitItem('الطرف الأول', 100, 500, 100, 12, true);
  assert.equal(rtl[0]?.text, 'الطرف');
  assert.ok((rtl[0]?.box.x0 ?? 0) > (rtl[1]?.box.x0 ?? 0), 'the first word is on the right');
  assert.deepEqual(
    splitItem('a... b', 0, 0, 60, 10, false).map((w) => w.text),
    ['a...', 'b'],
  );
});

test('Romanian and Indonesian captions: "Semnătura", "Nume și prenume", "Tanda tangan"; Romanian party words', () => {
  assert.deepEqual(labels('Semnătura'), ['signature']);
  assert.deepEqual(labels('Semnătura și ștampila'), ['signature']);
  assert.deepEqual(labels('Nume și prenume'), ['text:signer_name']);
  assert.deepEqual(labels('Tanda tangan'), ['signature']);
  assert.equal(role('MANDATAR'), 'agent');
  assert.equal(role('Cumpărător'), 'buyer');
  // (Not Romanian "locator", the lessor: an English word too.)
  assert.equal(role('Record Locator'), undefined);
  const found = suggestFields(page({ words: words('Semnătura ___________________________', 283, 737, 12) }));
  assert.ok(
    found.some((s) => s.type === 'signature' && s.x >= 330),
    JSON.stringify(found),
  );
});

test('Turkish and Greek captions: "İmza", "Tarih", "Adı Soyadı"; "Υπογραφή", "Ημερομηνία", "Ονοματεπώνυμο"', () => {
  for (const caption of ['İmza', 'İMZASI', 'Veli İmzası', 'Υπογραφή', 'ΥΠΟΓΡΑΦΗ']) assert.deepEqual(labels(caption), ['signature'], caption);
  for (const caption of ['Tarih', 'TARİH', 'Ημερομηνία']) assert.deepEqual(labels(caption), ['date:sign_date'], caption);
  for (const caption of ['Adı Soyadı', 'ADI SOYADI', 'Ονοματεπώνυμο']) assert.deepEqual(labels(caption), ['text:signer_name'], caption);
});

test('label beside a drawn line: the field stands on the line; a line over a caption likewise', () => {
  const beside = suggestFields(page({ words: words('Signature:', 64, 300), segments: [{ x0: 140, x1: 380, y: 302 }] }));
  assert.equal(beside.length, 1);
  assert.deepEqual(pick(beside[0]), { type: 'signature', reason: 'label_with_geometry', x: 140, y: 262, width: 240, height: 40 });
  // A bare "Date" is a signing date beside a place to sign: here a signature line captioned on the same row.
  const caption = suggestFields(
    page({
      words: [...words('Date', 64, 311, 8), ...words('Signature', 300, 311, 8)],
      segments: [
        { x0: 64, x1: 264, y: 300 },
        { x0: 300, x1: 500, y: 300 },
      ],
    }),
  );
  const date = caption.find((s) => s.type === 'date');
  assert.deepEqual(pick(date), { type: 'date', reason: 'label_with_geometry', x: 64, y: 280, width: 200, height: 20 });
  assert.equal(date?.fieldKey, 'sign_date');
  assert.deepEqual(pick(caption.find((s) => s.type === 'signature')), {
    type: 'signature',
    reason: 'label_with_geometry',
    x: 300,
    y: 260,
    width: 200,
    height: 40,
  });
  // Alone on its page, it is some date a form asks for, not a signing date.
  assert.deepEqual(suggestFields(page({ words: words('Date', 64, 311, 8), segments: [{ x0: 64, x1: 264, y: 300 }] })), []);
});

test('right to left: the line to the left of an Arabic label', () => {
  const found = suggestFields(page({ words: words('التوقيع:', 480, 300, 12, true), segments: [{ x0: 200, x1: 430, y: 302 }] }));
  assert.deepEqual(pick(found[0]), { type: 'signature', reason: 'label_with_geometry', x: 200, y: 262, width: 230, height: 40 });
});

test('blank space: beside a label with a colon, below one without; never beside a filled-in value', () => {
  const colon = suggestFields(page({ words: words('Signature:', 64, 300) }));
  assert.equal(colon[0]?.reason, 'label_with_whitespace');
  assert.ok((colon[0]?.x ?? 0) > 64 + 50 && Math.abs((colon[0]?.y ?? 0) + (colon[0]?.height ?? 0) - 304) < 0.01);
  const heading = suggestFields(page({ words: [...words('Signature', 64, 300), ...words('du', 120, 300), ...words('client', 135, 300)] }));
  assert.equal(heading[0]?.reason, 'label_with_whitespace');
  assert.equal(heading[0]?.roleHint, 'client');
  assert.ok((heading[0]?.y ?? 0) > 300, 'below the label');
  assert.deepEqual(suggestFields(page({ words: words('Date: 1 March 2024', 64, 300) })), []);
  assert.deepEqual(suggestFields(page({ words: words('We reviewed the signature process and the date of signature with the client.', 64, 300) })), []);
});

test('table cells: the empty cell after the label is the field; ruled rows are not lines to sign on', () => {
  const h = [200, 244, 270].map((y) => ({ x0: 64, x1: 484, y }));
  const v = [64, 184, 484].map((x) => ({ x, y0: 200, y1: 270 }));
  const model = page({ words: [...words('Signature', 70, 226, 10.5), ...words('Name', 70, 261, 10.5)], segments: h, verticals: v });
  assert.deepEqual(cellAt({ h, v }, 100, 222), { x0: 64, y0: 200, x1: 184, y1: 244 });
  const found = suggestFields(model);
  assert.deepEqual(found.map(pick), [
    { type: 'signature', reason: 'label_with_geometry', x: 185, y: 201, width: 298, height: 42 },
    { type: 'text', reason: 'label_with_geometry', x: 185, y: 245, width: 298, height: 24 },
  ]);
});

test('a form widget beats a label on the same spot, and labels next to widgets add nothing', () => {
  const model = page({
    words: words('Signature', 64, 300, 10),
    segments: [{ x0: 64, x1: 264, y: 348 }],
    widgets: [{ kind: 'signature', name: 'buyer_signature', box: { x0: 64, y0: 308, x1: 264, y1: 348 } }],
  });
  const found = suggestFields(model);
  assert.equal(found.length, 1);
  assert.deepEqual(
    { reason: found[0]?.reason, role: found[0]?.roleHint, confidence: found[0]?.confidence },
    { reason: 'acroform', role: 'buyer', confidence: 0.98 },
  );
  const a: Suggestion = { type: 'signature', page: 1, x: 10, y: 10, width: 100, height: 40, confidence: 0.9, reason: 'label_with_whitespace' };
  const b: Suggestion = { ...a, x: 14, y: 12, reason: 'label_with_geometry', confidence: 0.8 };
  assert.deepEqual(dedupe([a, b]), [b]);
  assert.equal(dedupe([a, { ...a, page: 2 }]).length, 2);
});

test('party-name signature blocks: a line captioned by a party alone, in English, French and Arabic', () => {
  const under = suggestFields(
    page({
      words: [...words('Seller', 80, 320, 10), ...words('Buyer', 340, 320, 10)],
      segments: [
        { x0: 64, x1: 264, y: 308 },
        { x0: 330, x1: 530, y: 308 },
      ],
    }),
  );
  assert.deepEqual(
    under.map((s) => [s.type, s.roleHint, s.x, s.y + s.height]),
    [
      ['signature', 'seller', 64, 308],
      ['signature', 'buyer', 330, 308],
    ],
  );
  // Underscores printed over the caption are the line too; "PER: CONSULTANT ____" has it after.
  const fill = suggestFields(
    page({ words: [...words('______________________', 64, 300, 11), ...words('Owner', 80, 314, 10), ...words('PER: CONSULTANT ____________', 300, 300, 11)] }),
  );
  assert.deepEqual(fill.map((s) => [s.type, s.roleHint]).sort(), [
    ['signature', 'consultant'],
    ['signature', 'owner'],
  ]);
  const fr = suggestFields(page({ words: words('Le Bailleur', 64, 300, 11), segments: [{ x0: 64, x1: 244, y: 340 }] }));
  assert.deepEqual(
    fr.map((s) => [s.type, s.roleHint, s.y + s.height]),
    [['signature', 'landlord', 340]],
  );
  const ar = suggestFields(page({ words: words('الطرف الأول', 480, 320, 11, true), segments: [{ x0: 380, x1: 540, y: 306 }] }));
  assert.deepEqual(
    ar.map((s) => [s.type, s.roleHint]),
    [['signature', 'party_1']],
  );
  // A party named in a sentence, or a line with a caption of its own beside it, is not a signature block.
  assert.deepEqual(suggestFields(page({ words: words('The Seller shall deliver the goods.', 64, 320, 10), segments: [{ x0: 64, x1: 264, y: 308 }] })), []);
  assert.deepEqual(
    suggestFields(page({ words: [...words('Tenant', 64, 300, 10), ...words('ID no.', 30, 338, 10)], segments: [{ x0: 64, x1: 200, y: 340 }] })),
    [],
  );
});

test('label runs: a caption followed by an instruction, and captions sharing one rule, each get their part', () => {
  const row = suggestFields(
    page({
      words: [...words("Employee's signature (This form is not valid unless you sign it.)", 64, 320, 8), ...words('Date', 440, 320, 8)],
      segments: [{ x0: 60, x1: 540, y: 310 }],
    }),
  );
  const sig = row.find((s) => s.type === 'signature');
  const date = row.find((s) => s.type === 'date');
  assert.ok(sig && date, JSON.stringify(row));
  assert.ok(sig.x === 60 && sig.x + sig.width <= 440 && date.x >= 430 && date.x + date.width === 540, JSON.stringify(row));
  assert.equal(date.fieldKey, 'sign_date');
  // Under the certification paragraph, but below its own line: a caption, not the paragraph's last line.
  const spouse = suggestFields(
    page({
      words: [
        ...words('Under penalties of perjury, I declare that I have examined this return and to the best of my knowledge', 64, 290, 8),
        ...words("Spouse's signature. If a joint return, both must sign.", 64, 320, 8),
      ],
      segments: [{ x0: 60, x1: 300, y: 310 }],
    }),
  );
  assert.deepEqual(
    spouse.map((s) => s.type),
    ['signature'],
  );
});

test('signing dates only: not birth or issue dates; dates written as month/day/year blanks when executed then', () => {
  const birth = suggestFields(
    page({
      words: [
        ...words('Signature: ______________', 64, 300),
        ...words('Date of birth: __________', 64, 330),
        ...words('Date / Lieu de naissance : ________', 64, 360),
      ],
    }),
  );
  assert.deepEqual(
    birth.map((s) => s.type),
    ['signature'],
  );
  const executed = suggestFields(
    page({ words: [...words('This Contract is executed on', 64, 300), ...words('(month) ________ (day) _____, (year) ______, at ______ (a.m.)', 64, 316)] }),
  );
  assert.deepEqual(
    executed.map((s) => [s.type, s.fieldKey, s.reason]),
    [['date', 'sign_date', 'label_with_geometry']],
  );
  const informed = suggestFields(
    page({ words: [...words('Buyer informed of the addendum', 64, 300), ...words('(month) ________ (day) _____, (year) ______', 64, 316)] }),
  );
  assert.deepEqual(informed, []);
});

test('a blank already filled is no place to sign: a value on the line, an image over it; hidden anchors do not fill it', () => {
  const model = { words: words('Signature: ________________', 64, 300), segments: [] };
  assert.equal(suggestFields(page(model)).length, 1);
  assert.deepEqual(suggestFields(page({ ...model, images: [{ x0: 130, y0: 280, x1: 200, y1: 305 }] })), []);
  // A signature image set over its line with room between (its foot a few points into the room), not a logo
  // across a cell's border over it nor a letterhead with words printed on it.
  const line = { words: words('CONTRATADA: LIFE CONNECTIONS', 64, 510), segments: [{ x0: 64, x1: 214, y: 494 }] };
  assert.equal(suggestFields(page(line)).length, 1);
  const signedImage = { x0: 64, y0: 374, x1: 184, y1: 458 };
  assert.deepEqual(suggestFields(page({ ...line, images: [signedImage] })), []);
  const border = { x0: 40, x1: 240, y: 420 };
  assert.equal(suggestFields(page({ ...line, segments: [...line.segments, border], images: [signedImage] })).length, 1);
  assert.equal(suggestFields(page({ ...line, words: [...line.words, ...words('CREEK', 90, 400)], images: [signedImage] })).length, 1);
  const anchored = suggestFields(page({ words: [...words('Signed:', 64, 300), ...words('/sn1/', 112, 300, 6)], segments: [{ x0: 108, x1: 300, y: 302 }] }));
  assert.deepEqual(
    anchored.map((s) => s.type),
    ['signature'],
  );
  // A name typed over the blank is read on the label's own line, after the underscores (text layer) or
  // after the label over a drawn line (OCR): it fills the blank all the same.
  const typed = page({ words: [...words('Printed Name: ________________', 64, 300), ...words('Tracy Cravey', 180, 298)] });
  assert.deepEqual(suggestFields(typed), []);
  const read = page({ words: [...words('Signature:', 64, 300), ...words('Craep', 150, 300)], segments: [{ x0: 120, x1: 330, y: 303 }], ocr: true });
  assert.deepEqual(suggestFields(read), []);
  assert.equal(suggestFields({ ...read, words: words('Signature:', 64, 300) }).length, 1);
});

test('text tags of e-signature services; captions in Hebrew; labels the size of the body text', () => {
  const tags = suggestFields(page({ words: [...words('Sign: [sig|req|signer1]', 64, 300), ...words('Date: [date|req|signer2]', 64, 330)] }));
  assert.deepEqual(
    tags.map((s) => [s.type, s.roleHint, s.fieldKey]),
    [
      ['signature', 'signer_1', undefined],
      ['date', 'signer_2', 'sign_date'],
    ],
  );
  // Other services' tags: double braces (Acrobat Sign's, split at their underscores as the text layer splits them;
  // SignWell's; BoldSign's) and DocuSign's examples' anchors, which mark a place, not a size. Their words are no captions.
  const braces = suggestFields(
    page({
      words: [
        ...words('Signature: {{Sig_es_:signer1:signature}}', 64, 300),
        ...words('Date: {{Dte_es_:signer1:date}}', 64, 330),
        ...words('{{Int_es_:signer2:initials}}', 300, 330),
        ...words('{{signature:2:n}}', 64, 400),
        ...words('{{sign|3|*}}', 300, 400),
        ...words('{{text|1|*|Enter name|field_1}}', 64, 460),
        ...words('{{Name_es_:signer1:fullname}}', 300, 460),
        ...words('/sn1/', 64, 520),
        ...words('**signature_2**', 300, 520),
      ],
    }),
  );
  assert.deepEqual(
    braces.map((s) => [s.type, s.roleHint, s.fieldKey, Math.round(s.x), Math.round(s.width)]),
    [
      ['signature', 'signer_1', undefined, 121, 163],
      ['initials', 'signer_2', undefined, 300, 154],
      ['date', 'signer_1', 'sign_date', 94, 135],
      ['signature', 'signer_2', undefined, 64, 94],
      ['signature', 'signer_3', undefined, 300, 66],
      ['signature', 'signer_1', undefined, 64, 180],
      ['signature', 'signer_2', undefined, 300, 180],
    ],
  );
  const he = suggestFields(page({ words: words('חתימה:', 500, 300, 10, true), segments: [{ x0: 380, x1: 490, y: 302 }] }));
  assert.deepEqual(
    he.map((s) => [s.type, s.x]),
    [['signature', 380]],
  );
  // 18 pt labels on an 18 pt page are labels; an 18 pt "Signatures" over 10 pt text is a heading.
  const big = suggestFields(
    page({ words: [...words('Signature:', 64, 300, 18), ...words('Name of the person signing', 64, 400, 18)], segments: [{ x0: 170, x1: 400, y: 302 }] }),
  );
  assert.deepEqual(
    big.map((s) => s.type),
    ['signature'],
  );
  const heading = suggestFields(
    page({ words: [...words('Signatures', 64, 300, 18), ...words('The parties sign this agreement in two copies, one for each of them.', 64, 340, 10)] }),
  );
  assert.deepEqual(heading, []);
  // A form's 16 pt captions over its 12 pt fine print (a third larger) are captions; a title half as large again is not.
  const form = (size: number) =>
    suggestFields(
      page({
        words: [
          ...words('Datum/Unterschrift', 189, 568, size),
          ...words('Hiermit erkläre ich widerruflich den Verein, den von mir zu entrichtenden Betrag abzubuchen.', 60, 640, 12),
          ...words('Das Formular kann per Post oder als PDF-Datei per Mail geschickt werden.', 60, 654, 12),
        ],
        segments: [{ x0: 189, x1: 561, y: 580 }],
      }),
    ).map((s) => s.type);
  assert.deepEqual(form(16), ['signature']);
  assert.deepEqual(form(18), []);
});

test('AcroForm: names read part by part, date abbreviations; a nameless widget takes its label; a signature label keeps its field', () => {
  assert.deepEqual(widgetMeaning('Sign_1_Nom'), { type: 'text', fieldKey: 'signer_name' });
  assert.deepEqual(widgetMeaning('Signature.Name'), { type: 'text', fieldKey: 'signer_name' });
  assert.deepEqual(widgetMeaning('Signature.Telephone'), { type: 'text' });
  for (const name of ['D.DATSIG', 'date5', 'currdate', 'DateSigned']) assert.deepEqual(widgetMeaning(name), { type: 'date', fieldKey: 'sign_date' }, name);
  assert.deepEqual(widgetMeaning('DateOfBirth'), { type: 'text' });
  assert.deepEqual(widgetMeaning('client_signature'), { type: 'signature' });
  // (A caption's words asking for the date and the signature name the place to sign; an identifier of them names the date of signing.)
  assert.deepEqual(widgetMeaning('Datum Unterschrift Wohnungsgeber'), { type: 'signature' });
  for (const name of ['date_signature', 'dateSignature']) assert.deepEqual(widgetMeaning(name), { type: 'date', fieldKey: 'sign_date' }, name);
  // (Where it is signed is no place to sign: "lieuSign".)
  for (const name of ['lieuSign', 'PlaceOfSignature']) assert.deepEqual(widgetMeaning(name), { type: 'text' }, name);
  assert.equal(widgetMeaning('Text7'), null);
  const form = suggestFields(
    page({
      words: [...words('Signature', 64, 300, 10), ...words('Date', 300, 300, 10)],
      segments: [{ x0: 64, x1: 264, y: 340 }],
      widgets: [{ kind: 'text', name: 'Text7', box: { x0: 300, y0: 306, x1: 420, y1: 326 } }],
    }),
  );
  assert.deepEqual(form.map((s) => [s.type, s.reason, s.fieldKey]).sort(), [
    ['date', 'acroform', 'sign_date'],
    ['signature', 'label_with_geometry', undefined],
  ]);
});

test('AcroForm: a nameless text field right under a signature caption is the place to sign, unless words before it on its row caption it', () => {
  const form = (caption?: string) =>
    suggestFields(
      page({
        words: [...paragraph('de', 100), ...words('Unterschrift des Mitglieds', 64, 300, 10), ...(caption ? words(caption, 20, 320, 7) : [])],
        widgets: [{ kind: 'text', name: 'Text12', box: { x0: 64, y0: 306, x1: 264, y1: 330 } }],
      }),
    ).map((s) => [s.type, s.reason]);
  assert.deepEqual(form(), [['signature', 'acroform']]);
  assert.deepEqual(
    form('Tel.:').filter(([, reason]) => reason === 'acroform'),
    [['text', 'acroform']],
  );
});

test('AcroForm: a mark before a nameless field ("✗ [____]") or a note\'s mark ending the field before it ("[____ * 1)] [____]") is no caption of it: the signature captions under them name them', () => {
  const form = (before: Word[]) =>
    suggestFields(
      page({
        words: [
          ...paragraph('de', 100),
          ...before,
          ...words('Unterschrift', 170, 558, 8),
          ...words('ggf. Unterschrift der / des Familienangehörigen', 360, 558, 8),
        ],
        widgets: [
          { kind: 'text', name: 'Textfeld 418', box: { x0: 184, y0: 493, x1: 348, y1: 547 } },
          { kind: 'text', name: 'Textfeld 419', box: { x0: 375, y0: 493, x1: 538, y1: 547 } },
        ],
      }),
    )
      .filter((s) => s.reason === 'acroform')
      .map((s) => [s.type, Math.round(s.x)]);
  // (A large cross reaching under each field's bottom, before it; a note's number at the first field's end.)
  assert.deepEqual(form([...words('✗', 170, 548, 21), ...words('*', 334, 502, 6), ...words('1)', 339, 502, 6), ...words('✗', 360, 548, 21)]), [
    ['signature', 184],
    ['signature', 375],
  ]);
  // (Words before a field on its row caption it.)
  assert.deepEqual(form([...words('Tel.', 150, 540, 8), ...words('Fax', 345, 540, 8)]), [
    ['text', 184],
    ['text', 375],
  ]);
});

test('AcroForm: a caption without its colon ending its row right after a nameless field ("______ Ort, Datum", the field on the line\'s end) names that field; with its colon it asks for what follows', () => {
  const form = (caption: string) =>
    suggestFields(
      page({
        words: [...paragraph('de', 100), ...words('_'.repeat(90), 36, 533, 10), ...words(caption, 487, 533, 10)],
        widgets: [{ kind: 'text', name: 'text_24kq', box: { x0: 319, y0: 520, x1: 480, y1: 533 } }],
      }),
    )
      .filter((s) => s.reason === 'acroform')
      .map((s) => [s.type, s.fieldKey]);
  assert.deepEqual(form('Ort, Datum'), [['date', 'sign_date']]);
  assert.deepEqual(form('Datum:'), [['text', undefined]]);
});

test('AcroForm: captions printed under their fields ("Ort, Datum" under each of two rows) each take the field over them, not the next row\'s right under them', () => {
  const found = suggestFields(
    page({
      words: [
        ...paragraph('de', 100),
        ...words('Ort, Datum', 65, 182, 9),
        ...words('Unterschrift', 384, 182, 9),
        ...words('Ort, Datum', 66, 215, 9),
        ...words('Unterschrift', 384, 215, 9),
      ],
      segments: [
        { x0: 278, x1: 526, y: 169 },
        { x0: 278, x1: 526, y: 202 },
      ],
      widgets: [
        { kind: 'text', name: 'Text29', box: { x0: 65, y0: 152, x1: 264, y1: 172 } },
        { kind: 'text', name: 'Text30', box: { x0: 65, y0: 186, x1: 263, y1: 206 } },
      ],
    }),
  );
  assert.deepEqual(
    found.filter((s) => s.reason === 'acroform').map((s) => [s.type, s.fieldKey, Math.round(s.y)]),
    [
      ['date', 'sign_date', 152],
      ['date', 'sign_date', 186],
    ],
  );
});

test('AcroForm: a nameless text field drawn from the last letters of a signature caption on its row ("Unterschrift:" with "Text13" over its colon) is the place to sign', () => {
  // "Unterschrift:" spans 72 to 150; the field starts 5 pt before its end, as fields drawn a little wide do.
  const form = (x0: number) =>
    suggestFields(
      page({
        words: [...paragraph('de', 100), ...words('Unterschrift:', 72, 426, 12)],
        widgets: [{ kind: 'text', name: 'Text13', box: { x0, y0: 408, x1: 534, y1: 429 } }],
      }),
    ).map((s) => [s.type, s.reason, Math.round(s.x)]);
  assert.deepEqual(form(145), [['signature', 'acroform', 145]]);
  assert.deepEqual(form(150), [['signature', 'acroform', 150]]);
});

test('"1° Testemunha" (a degree sign for the ordinal) under a line names a witness\'s place to sign as "1º Testemunha" does', () => {
  const witnesses = (ordinal: string) =>
    suggestFields(
      page({
        words: [...words(`${ordinal} Testemunha`, 126, 756, 12), ...words(`2${ordinal.slice(1)} Testemunha`, 384, 756, 12)],
        segments: [
          { x0: 52, x1: 279, y: 740 },
          { x0: 295, x1: 542, y: 740 },
        ],
      }),
    ).map((s) => [s.type, Math.round(s.x), Math.round(s.y + s.height)]);
  assert.deepEqual(witnesses('1º'), [
    ['signature', 52, 740],
    ['signature', 295, 740],
  ]);
  assert.deepEqual(witnesses('1°'), witnesses('1º'));
});

test('form rows: a row border with text right above is not the signature line; a heading takes no line below it', () => {
  const row = suggestFields(
    page({
      words: [
        ...words('Under penalties of perjury, I declare that this return is true, correct and complete.', 60, 290, 8),
        ...words('Your signature', 100, 302, 8),
      ],
      segments: [
        { x0: 60, x1: 540, y: 294 },
        { x0: 60, x1: 540, y: 330 },
      ],
    }),
  );
  assert.equal(row.length, 1, JSON.stringify(row));
  assert.ok((row[0]?.y ?? 0) >= 302 && (row[0]?.y ?? 0) + (row[0]?.height ?? 0) <= 330.01, JSON.stringify(row));
  const block = suggestFields(
    page({
      words: [...words('Signatures', 64, 300, 16), ...words('Body text of the agreement in a smaller size.', 64, 260, 10), ...words('Seller', 64, 352, 10)],
      segments: [{ x0: 64, x1: 244, y: 340 }],
    }),
  );
  assert.deepEqual(
    block.map((s) => [s.type, s.roleHint]),
    [['signature', 'seller']],
  );
});

test('form grids: a small caption at the top of a cell leaves the rest of the cell, for a signature, its date and the occupation', () => {
  const h = [400, 424].map((y) => ({ x0: 60, x1: 540, y }));
  const v = [60, 300, 400, 540].map((x) => ({ x, y0: 400, y1: 424 }));
  const found = suggestFields(
    page({
      words: [...words('Your signature', 62, 407, 6), ...words('Date', 302, 407, 6), ...words('Your occupation', 402, 407, 6)],
      segments: h,
      verticals: v,
    }),
  );
  assert.deepEqual(
    found.map((s) => [s.type, s.x, Math.round(s.y), s.x + s.width, s.y + s.height, s.fieldKey]),
    [
      ['signature', 61, 410, 299, 423, undefined],
      ['date', 301, 410, 399, 423, 'sign_date'],
      ['text', 401, 410, 539, 423, 'job_title'],
    ],
  );
});

test("form grids: in a cell much taller than a signature, a signature's height right under its caption; a bare date at the foot of the next cell still goes with it", () => {
  const h = [400, 600].map((y) => ({ x0: 60, x1: 540, y }));
  const v = [60, 320, 540].map((x) => ({ x, y0: 400, y1: 600 }));
  const found = suggestFields(
    page({
      words: [...words('Signature of the Client', 64, 412, 10), ...words('Date:', 324, 590, 10)],
      segments: h,
      verticals: v,
    }),
  );
  assert.deepEqual(
    found.map((s) => [s.type, s.x, Math.round(s.y), s.x + s.width, Math.round(s.y + s.height), s.fieldKey]),
    [
      ['signature', 61, 416, 319, 456, undefined],
      ['date', 354, 574, 539, 594, 'sign_date'],
    ],
  );
});

test('a caption that wraps to a second line: the blank is under both lines', () => {
  const found = suggestFields(
    page({
      words: [...words('Signature du demandeur ou de son', 64, 300, 9), ...words('représentant légal', 64, 311, 9)],
      segments: [{ x0: 64, x1: 264, y: 350 }],
    }),
  );
  assert.deepEqual(
    found.map((s) => [s.type, s.reason, s.x, s.y + s.height]),
    [['signature', 'label_with_geometry', 64, 350]],
  );
  assert.ok((found[0]?.y ?? 0) >= 311, 'below the second line');
});

test('rules in pixels: a thin long run is a line, a short one and a thick block are not; four rules make a cell', () => {
  const w = 400;
  const h = 200;
  const rgba = new Uint8ClampedArray(w * h * 4).fill(255);
  const ink = (x0: number, y0: number, x1: number, y1: number) => {
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) rgba.fill(0, (y * w + x) * 4, (y * w + x) * 4 + 3);
  };
  ink(20, 50, 220, 52); // a signature line, 2 px thick
  ink(20, 80, 40, 81); // too short
  ink(250, 20, 390, 60); // a filled block
  ink(20, 120, 200, 121); // a box from four rules
  ink(20, 170, 200, 171);
  ink(20, 120, 21, 171);
  ink(199, 120, 200, 171);
  const { segments, verticals } = rulesFromPixels(rgba, w, h, 2);
  const line = segments.find((s) => Math.abs(s.y - 25.5) < 1);
  assert.ok(line && Math.abs(line.x0 - 10) < 0.6 && Math.abs(line.x1 - 110) < 0.6, JSON.stringify(segments));
  assert.ok(!segments.some((s) => s.y > 9 && s.y < 31 && s.x0 > 120), 'the block is not a rule');
  assert.ok(!segments.some((s) => Math.abs(s.y - 40) < 1), 'the short run is not a rule');
  assert.equal(verticals.length, 2);
  assert.deepEqual(cellAt({ h: segments, v: verticals }, 50, 70), { x0: 10.25, y0: 60.25, x1: 99.75, y1: 85.25 });
});

test("rules in pixels: a rule seen in pieces (underscores, a scan's noise, a step of a pixel) is one line; two blanks of a row stay two", () => {
  const w = 600;
  const h = 100;
  const rgba = new Uint8ClampedArray(w * h * 4).fill(255);
  const ink = (x0: number, y0: number, x1: number, y1: number) => {
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) rgba.fill(0, (y * w + x) * 4, (y * w + x) * 4 + 3);
  };
  // Underscores 70 px long with 4 px between them (2 pt at this scale), the last a pixel lower.
  ink(20, 40, 90, 42);
  ink(94, 40, 164, 42);
  ink(168, 41, 238, 43);
  // Two blanks 40 px (20 pt) apart on another row: words go between them.
  ink(20, 80, 200, 82);
  ink(240, 80, 420, 82);
  const { segments } = rulesFromPixels(rgba, w, h, 2);
  const row = (y: number) => segments.filter((s) => Math.abs(s.y - y) < 2).sort((a, b) => a.x0 - b.x0);
  assert.deepEqual(
    row(20.5).map((s) => [s.x0, s.x1]),
    [[10, 119]],
    JSON.stringify(segments),
  );
  assert.deepEqual(
    row(40.5).map((s) => [s.x0, s.x1]),
    [
      [10, 100],
      [120, 210],
    ],
    JSON.stringify(segments),
  );
});

test('OCR leaves out the inside of paragraphs, column by column on a page set in two columns', () => {
  const width = 1000;
  const height = 1200;
  const ink = new Uint8Array(width * height);
  const line = (x0: number, x1: number, top: number) => {
    // Words 40 px wide, 8 px apart, 10 px of x-height.
    for (let x = x0; x + 40 <= x1; x += 48) for (let y = top; y < top + 10; y++) ink.fill(1, y * width + x, y * width + x + 40);
  };
  for (let top = 100; top < 1000; top += 20) {
    line(60, 470, top);
    line(530, 940, top);
  }
  const { page } = labelRegions({ ink, width, height, scale: 175 / 72 }, []);
  const inkAt = (x0: number, x1: number, y0: number, y1: number) => {
    let n = 0;
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) n += page.ink[y * width + x] as number;
    return n;
  };
  assert.ok(inkAt(60, 470, 100, 110) > 0 && inkAt(530, 940, 100, 110) > 0, 'the first lines of the columns are read');
  assert.equal(inkAt(60, 470, 300, 310), 0, 'a line inside the left column is left out');
  assert.equal(inkAt(530, 940, 300, 310), 0, 'and one inside the right column');
  assert.ok(inkAt(60, 470, 980, 990) > 0, 'the last lines are read');
});

function pick(s: Suggestion | undefined) {
  return s && { type: s.type, reason: s.reason, x: s.x, y: s.y, width: s.width, height: s.height };
}

test("OCR words made like a text layer's: a typed blank apart from its caption, rules continuing a row as its blanks, specks dropped", () => {
  /** Words as OCR gives them (one box per word, a confidence), then as the OCR path hands them to the rules. */
  const read = (text: string, x: number, baseline: number, confidence = 0.9, size = 11) =>
    text.split(' ').reduce<Word[]>((out, t) => {
      const x0 = out.length ? (out[out.length - 1] as Word).box.x1 + size * 0.3 : x;
      return [
        ...out,
        { text: t, box: { x0, y0: baseline - 0.75 * size, x1: x0 + t.length * size * 0.5, y1: baseline + 0.2 * size }, baseline, size, confidence },
      ];
    }, []);
  const ocrPage = (ws: Word[], segments: PageModel['segments']) => {
    const kept = withoutSpecks(withoutRules(blanksApart(ws), segments));
    return page({ words: [...kept, ...blanksOnRows(kept, segments)], segments, ocr: true });
  };
  // "Signature:___" read as one word, its drawn line starting under its last characters.
  const typed = read('Signature:___', 64, 300);
  const line = { x0: 113, x1: 330, y: 302 };
  assert.deepEqual(
    blanksApart(typed).map((w) => w.text),
    ['Signature:', '___'],
  );
  assert.deepEqual(
    suggestFields(ocrPage(typed, [line])).map((s) => [s.type, Math.round(s.x), Math.round(s.x + s.width)]),
    [['signature', 113, 330]],
  );
  // The month/day/year blanks OCR drops come back from the rules between the words: a signing date, as on the text layer.
  const executed = [...read('This contract is executed on', 64, 280), ...read('(month)', 64, 300), ...read('(day)', 170, 300), ...read('(year)', 250, 300)];
  const blanks = [
    { x0: 110, x1: 165, y: 302 },
    { x0: 200, x1: 245, y: 302 },
    { x0: 288, x1: 340, y: 302 },
  ];
  const dates = suggestFields(ocrPage(executed, blanks));
  assert.deepEqual(
    dates.map((s) => [s.type, s.fieldKey, Math.round(s.x), Math.round(s.x + s.width)]),
    [['date', 'sign_date', 110, 340]],
  );
  // A speck read as punctuation right above a line to sign on does not take the room a signature needs;
  // a colon read apart from its caption stays with it.
  const signing = [...read('Signature', 64, 400), ...read(':', 113, 400), ...read(':', 200, 390, 0.5, 4)];
  assert.deepEqual(
    withoutSpecks(signing).map((w) => w.text),
    ['Signature', ':'],
  );
  assert.deepEqual(
    suggestFields(ocrPage(signing, [{ x0: 125, x1: 330, y: 402 }])).map((s) => s.type),
    ['signature'],
  );
  assert.deepEqual(withoutSpecks(read('LC', 200, 390, 0.05)), []);
});

test('AcroForm names: a birth, issue or period date run into one word is not a signing date, and takes no "Date" caption', () => {
  for (const name of ['Birthdate', 'DOB', 'dateofbirth', 'DateNaissance', 'date_naissance', 'issue_date', 'ExpiryDate', 'enddate']) {
    assert.deepEqual(widgetMeaning(name), { type: 'text' }, name);
  }
  for (const name of ['DateSigned', 'currdate', 'sigdate', 'Date']) assert.deepEqual(widgetMeaning(name), { type: 'date', fieldKey: 'sign_date' }, name);
  // A "Date" caption over a widget named for a birth date, beside a place to sign: the widget stays text.
  const form = suggestFields(
    page({
      words: [...words('Signature', 64, 300, 10), ...words('Date', 300, 300, 10)],
      segments: [{ x0: 64, x1: 264, y: 340 }],
      widgets: [{ kind: 'text', name: 'Birthdate', box: { x0: 300, y0: 306, x1: 420, y1: 326 } }],
    }),
  );
  assert.deepEqual(form.map((s) => [s.type, s.reason, s.fieldKey]).sort(), [
    ['signature', 'label_with_geometry', undefined],
    ['text', 'acroform', undefined],
  ]);
});

test('AcroForm: a widget is described by its own caption, not by a caption of the row above that overlaps it by a few points', () => {
  // A form grid: "Preparer's signature" and "Date" cells, then a "Firm's name ▶" row whose widget ends under the Date cell.
  const h = [400, 424, 436].map((y) => ({ x0: 60, x1: 540, y }));
  const v = [60, 300, 400, 540].map((x) => ({ x, y0: 400, y1: 424 }));
  const grid = suggestFields(
    page({
      words: [...words('Preparer’s signature', 62, 407, 6), ...words('Date', 302, 407, 6), ...words('Firm’s name ▶', 62, 432, 6)],
      segments: h,
      verticals: v,
      widgets: [{ kind: 'text', name: 'f1_081', box: { x0: 120, y0: 424, x1: 306, y1: 436 } }],
    }),
  );
  assert.deepEqual(
    grid.map((s) => [s.type, s.reason, s.fieldKey, s.x, Math.round(s.y)]),
    [
      ['signature', 'label_with_geometry', undefined, 61, 410],
      ['date', 'label_with_geometry', 'sign_date', 301, 410],
      ['text', 'acroform', 'signer_name', 120, 424],
    ],
  );
  // No grid: a "Date" caption at the far end of the next row's wide widget does not own it.
  const loose = suggestFields(
    page({
      words: [...words('Signature', 64, 300, 10), ...words('Date', 300, 300, 10)],
      segments: [{ x0: 64, x1: 264, y: 340 }],
      widgets: [{ kind: 'text', name: 'Text9', box: { x0: 100, y0: 306, x1: 304, y1: 326 } }],
    }),
  );
  assert.ok(!loose.some((s) => s.reason === 'acroform' && s.type === 'date'), JSON.stringify(loose));
});

test('form grids under a paragraph: a caption row after a finished sentence is no paragraph tail; a cell open at the top ends where its sides start', () => {
  const words7 = [
    ...words('Under penalties of perjury, I declare that this return is true, correct and complete to my knowledge.', 60, 396, 7),
    ...words('Your signature', 62, 407, 7),
    ...words('Date', 302, 407, 7),
  ];
  const segments = [
    { x0: 60, x1: 300, y: 424 },
    { x0: 300, x1: 400, y: 424 },
    { x0: 400, x1: 540, y: 424 },
    { x0: 30, x1: 560, y: 380 },
  ];
  const verticals = [300, 400].map((x) => ({ x, y0: 400, y1: 424 }));
  assert.deepEqual(cellAt({ h: segments, v: verticals }, 350, 405), { x0: 300, y0: 400, x1: 400, y1: 424 });
  const found = suggestFields(page({ words: words7, segments, verticals }));
  assert.deepEqual(
    found.map((s) => [s.type, s.reason, s.fieldKey, s.x, Math.round(s.y), Math.round(s.y + s.height)]),
    [
      ['signature', 'label_with_geometry', undefined, 60, 411, 424],
      ['date', 'label_with_geometry', 'sign_date', 301, 411, 423],
    ],
  );
  // A paragraph that goes on: its last line is still no caption.
  const tail = suggestFields(
    page({ words: [...words('the parties agree that the agreement is executed when both have', 60, 396, 7), ...words('signed', 62, 405, 7)] }),
  );
  assert.deepEqual(tail, []);
});

test('form grids: a caption at the top of the next row takes its own row, not the rule closing the caption row above it', () => {
  const segments = [400, 424, 448].map((y) => ({ x0: 60, x1: 300, y }));
  const verticals = [{ x: 300, y0: 400, y1: 448 }];
  const found = suggestFields(
    page({
      words: [
        ...words('Under penalties of perjury, I declare that this return is true, correct and complete.', 60, 397, 7),
        ...words('Your signature', 62, 407, 7),
        ...words('Spouse’s signature. If a joint return, both must sign.', 62, 431, 7),
      ],
      segments,
      verticals,
    }),
  );
  assert.deepEqual(
    found.map((s) => [s.type, s.reason, s.x, Math.round(s.y), s.x + s.width, Math.round(s.y + s.height)]),
    [
      ['signature', 'label_with_geometry', 61, 411, 299, 423],
      ['signature', 'label_with_geometry', 61, 435, 299, 447],
    ],
  );
});

test('rules in pixels: spaced underscores of a photo (short dashes at a regular pitch, frayed) are one line; letters with strokes over their feet are none', () => {
  const w = 700;
  const h = 120;
  const rgba = new Uint8ClampedArray(w * h * 4).fill(255);
  const ink = (x0: number, y0: number, x1: number, y1: number) => {
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) rgba.fill(0, (y * w + x) * 4, (y * w + x) * 4 + 3);
  };
  // At 2.43 px a point (175 dpi): dashes 16 px long, 2 px thick, 6 px apart, each with a frayed row over it.
  for (let k = 0; k < 12; k++) {
    const x = 20 + k * 22;
    ink(x, 30, x + 16, 32);
    ink(x + 2, 29, x + 6, 30);
    ink(x + 10, 29, x + 13, 30);
  }
  // Serif letters: a foot at the baseline with a stem over it, at the same pitch.
  for (let k = 0; k < 12; k++) {
    const x = 20 + k * 22;
    ink(x, 90, x + 12, 92);
    ink(x + 5, 70, x + 8, 90);
  }
  const { segments } = rulesFromPixels(rgba, w, h, 2.43);
  const dashed = segments.filter((s) => s.y > 10 && s.y < 15);
  assert.equal(dashed.length, 1, JSON.stringify(segments));
  assert.ok(Math.abs((dashed[0]?.x0 ?? 0) - 20 / 2.43) < 1 && Math.abs((dashed[0]?.x1 ?? 0) - 278 / 2.43) < 1, JSON.stringify(dashed));
  assert.ok(!segments.some((s) => s.y > 30), JSON.stringify(segments));
});

test('German "u." for "und": "Datum u. Unterschrift" is one place to sign, "Ort u. Datum" a signing date', () => {
  assert.deepEqual(labels('Datum u. Unterschrift'), ['signature']);
  assert.deepEqual(labels('Ort, Datum u. Unterschrift'), ['signature']);
  assert.deepEqual(labels('Ort u. Datum'), ['date:sign_date']);
});

test('black and white of a photo: a hairline only a little darker than its paper is drawn solid, so it is a rule; text stays text', () => {
  const width = 400;
  const height = 140;
  const grey = new Uint8Array(width * height);
  // Paper of 190 with a fixed grain of ±12.
  for (let i = 0; i < grey.length; i++) grey[i] = 190 + (((i * 7919) % 25) - 12);
  // A hairline two pixels thick at 140 (three quarters of the paper: above the threshold that keeps text black).
  for (let y = 40; y < 42; y++) for (let x = 20; x < 320; x++) grey[y * width + x] = 140 + ((x * 13) % 11);
  // A line of text: dark strokes a few pixels apart over 12 rows.
  for (let y = 90; y < 102; y++) for (let x = 20; x < 320; x++) if (x % 6 < 2) grey[y * width + x] = 60;
  const page = binarise({ grey, width, height, scale: 2.43 });
  const { segments } = rulesFromInk(page.ink, width, height, 2.43);
  assert.deepEqual(
    segments.map((s) => [Math.round(s.x0), Math.round(s.x1), Math.round(s.y)]),
    [[8, 132, 17]],
  );
  assert.equal(page.ink[95 * width + 24], 1, 'the text is ink');
});

test('a date named with its file number and court ("Datum, Az., Gericht") is a decision\'s or a filing\'s, no signing date', () => {
  const label = (tokens: string[]) => ({ entry: { type: 'date', tokens: ['datum'], strength: 'strong' }, tokens, line: { tokens } }) as unknown as Label;
  assert.equal(otherDate(label(['datum', 'az', 'gericht', 'nummer'])), true);
  assert.equal(otherDate(label(['ort', 'datum'])), false);
});

test('Spanish "Fdo.:" alone is where one signs; "Fdo.: D./D.ª" (signed: Mr/Ms) asks for the signer\'s name', () => {
  const es = (text: string) => matchLabels(tokens(text), 'es').map((m) => `${m.entry.type}${m.entry.fieldKey ? `:${m.entry.fieldKey}` : ''}`);
  assert.deepEqual(es('Fdo.: ____'), ['signature']);
  assert.deepEqual(es('Fdo.: D / D.ª ____'), ['text:signer_name']);
  assert.deepEqual(es('Fdo.: D./Dña. ____'), ['text:signer_name']);
});

test('Argentine "Firma / Aclaración / DNI" under three lines: one place to sign, "Aclaración" asks for the printed name; "Firma y aclaración" under one line signs there', () => {
  const es = (text: string) => matchLabels(tokens(text), 'es').map((m) => `${m.entry.type}${m.entry.fieldKey ? `:${m.entry.fieldKey}` : ''}`);
  assert.deepEqual(es('Aclaración'), ['text:signer_name']);
  assert.deepEqual(es('Firma y aclaración'), ['signature']);
  const row = suggestFields(
    page({
      words: [...paragraph('es', 100), ...words('Firma', 60, 412, 9), ...words('Aclaración', 240, 412, 9), ...words('DNI', 420, 412, 9)],
      segments: [
        { x0: 60, x1: 200, y: 400 },
        { x0: 240, x1: 380, y: 400 },
        { x0: 420, x1: 540, y: 400 },
      ],
    }),
  );
  assert.deepEqual(
    brief(row).filter((s) => s.type === 'signature'),
    [{ type: 'signature', x: 60, y: 360, w: 140, h: 40 }],
  );
});

test('employment contracts\' parties in Spanish, Portuguese and Italian name who signs ("EMPLEADOR(A)", "Trabajador", "Empregado", "Il lavoratore")', () => {
  assert.equal(role('EMPLEADOR(A)'), 'employer');
  assert.equal(role('La empleadora'), 'employer');
  assert.equal(role('Trabajador'), 'employee');
  assert.equal(role('O empregador'), 'employer');
  assert.equal(role('Empregado'), 'employee');
  assert.equal(role('Il lavoratore'), 'employee');
  // Under a line, the party's name is its caption: a place to sign there.
  const found = suggestFields(
    page({ words: [...paragraph('it', 100), ...words('____________________________', 72, 500), ...words('EL TRABAJADOR', 90, 514)] }),
  );
  assert.equal(found.find((s) => s.type === 'signature')?.roleHint, 'employee');
});

test('Arabic typed with Persian letter forms ("توقیع", "مدیر") reads as Arabic; "date and signature" either way round is one place to sign', () => {
  assert.equal(normalizeToken('توقیع'), normalizeToken('توقيع'));
  assert.equal(normalizeToken('التذکرة'), normalizeToken('التذكرة'));
  assert.deepEqual(labels('توقیع'), ['signature']);
  assert.deepEqual(labels('تاریخ و توقیع المعني بالأمر :'), ['signature']);
  assert.deepEqual(labels('التوقيع والتاريخ'), ['signature']);
  // "Date" alone stays a date.
  assert.deepEqual(labels('تاریخ'), ['date:sign_date']);
});

test('a blank printed in touching pieces of other glyphs ("........…………......") is one run; runs a space apart stay one for each signer', () => {
  const pieces = [...words('........', 300, 500), ...words('…………………', 344, 500), ...words('......', 382.5, 500)];
  const found = suggestFields(page({ words: [...paragraph('en', 100), ...words('Signature of the manager', 300, 480), ...pieces] }));
  const sig = found.filter((s) => s.type === 'signature');
  assert.equal(sig.length, 1, JSON.stringify(found));
  assert.ok(Math.round(sig[0]!.x) <= 300 && Math.round(sig[0]!.x + sig[0]!.width) >= 414, JSON.stringify(sig));
  // (As runs of the line alone: one for the touching pieces, two for runs a space apart.)
  assert.equal(fillLines(buildLines(pieces)).length, 1);
  assert.equal(fillLines(buildLines([...words('______________', 64, 500), ...words('______________', 150, 500)])).length, 2);
});

test('a leave\'s or a holiday\'s date is no signing date, beside a signature or not ("Vacation date", "تاريخ الإجازة")', () => {
  for (const caption of ['Vacation date:', 'Date of leave:', 'تاريخ الإجازة :']) {
    const found = suggestFields(page({ words: [...words('Signature: ______________', 64, 300), ...words(`${caption} ______________`, 64, 330)] }));
    assert.deepEqual(
      found.map((s) => s.type),
      ['signature'],
      caption,
    );
  }
});

test('Russian captions ("Подпись", "Дата", "ФИО"); a blank after its caption printed in touching pieces is one place, not one for each piece', () => {
  assert.deepEqual(labels('Подпись доверителя:'), ['signature']);
  assert.deepEqual(labels('Дата:'), ['date:sign_date']);
  assert.deepEqual(labels('ФИО:'), ['text:signer_name']);
  assert.deepEqual(labels('Дата рождения:'), ['date:sign_date']);
  const found = suggestFields(
    page({
      words: [
        ...words('Дата:', 376, 715),
        ...words('___________', 409, 715),
        ...words('_____________', 469.5, 715),
        ...words('Подпись доверителя:', 300, 756),
        ...words('___________', 409, 756),
        ...words('_____________', 469.5, 756),
      ],
    }),
  );
  const sig = found.filter((s) => s.type === 'signature');
  assert.equal(sig.length, 1, JSON.stringify(found));
  assert.ok(Math.round(sig[0]!.x) <= 409 && Math.round(sig[0]!.x + sig[0]!.width) >= 540, JSON.stringify(sig));
  assert.deepEqual(
    found.filter((s) => s.type === 'date').map((s) => s.fieldKey),
    ['sign_date'],
  );
  // (The pieces alone, in English: one place across both.)
  const pieces = suggestFields(page({ words: [...words('Signature:', 349, 500), ...words('___________', 409, 500), ...words('_____________', 469.5, 500)] }));
  assert.deepEqual(
    brief(pieces.filter((s) => s.type === 'signature')).map((s) => [s.x, s.x + s.w]),
    [[409, 541]],
    JSON.stringify(pieces),
  );
});

test('a thesis board signs under its roles ("Orientador(a)", "Examinadora") printed under lines, in Portuguese and Spanish', () => {
  for (const role of ['Orientador', 'Orientador(a)', 'Examinadora', 'Orientadora']) {
    const found = suggestFields(page({ words: [...paragraph('it', 100), ...words('____________________________', 193, 500), ...words(role, 230, 514)] }));
    const s = found.find((f) => f.type === 'signature');
    assert.ok(s && Math.abs(s.y + s.height - 502) <= 3, `${role}: ${JSON.stringify(found)}`);
    assert.equal(s?.roleHint, role.startsWith('Orientador') ? 'advisor' : 'examiner');
  }
});

test("a page whose rules throw gets no suggestions and is reported, so that the document's other pages are still answered", () => {
  // (A page model no reading makes: a word without its box, which the rules read.)
  const broken = {
    page: 3,
    width: 595,
    height: 842,
    words: [{ text: 'Signature:' }],
    segments: [],
    verticals: [],
    boxes: [],
    widgets: [],
    ocr: false,
  } as unknown as PageModel;
  assert.throws(() => suggestAcross(broken, undefined), TypeError);
  const reported: string[] = [];
  assert.deepEqual(
    pageSuggestions(broken, undefined, (m) => reported.push(m)),
    [],
  );
  assert.equal(reported.length, 1);
  assert.match(reported[0] as string, /^paraph: field detection's rules failed on page 3: /);
  // (A page the rules read is answered as suggestAcross answers it.)
  const fine = { ...broken, words: [] } as PageModel;
  assert.deepEqual(
    pageSuggestions(fine, undefined, (m) => reported.push(m)),
    suggestAcross(fine, undefined),
  );
  assert.equal(reported.length, 1);
});

test('Polish captions: "Data i podpis studenta" and "pieczątka i czytelny podpis" are places to sign; "Łomża, dnia ____" over one dates the signing', () => {
  for (const caption of ['Podpis', 'Data i podpis studenta', 'pieczątka i czytelny podpis użytkownika końcowego', 'pieczątka i podpis Partnera'])
    assert.deepEqual(labels(caption), ['signature'], caption);
  const found = suggestFields(page({ words: [...words('Łomża, dnia ______________________', 335, 580, 10), ...words('Podpis', 373, 628, 10)] }));
  assert.deepEqual(
    found.map((s) => s.type),
    ['date', 'signature'],
    JSON.stringify(found),
  );
});

test('Swedish, Danish and Norwegian captions: "Sökandens underskrift" signs, "Ort och datum" / "Sted og dato" date it, "Namnförtydligande" names', () => {
  for (const caption of ['Underskrift', 'Sökandens underskrift', 'Underskrift (firmatecknare)', 'Namnteckning'])
    assert.deepEqual(labels(caption), ['signature'], caption);
  for (const caption of ['Ort och datum', 'Sted og dato']) assert.deepEqual(labels(caption), ['date:sign_date'], caption);
  assert.deepEqual(labels('Namnförtydligande'), ['text:signer_name']);
  const found = suggestFields(
    page({
      words: [...words('Ort och datum', 72, 640, 9), ...words('Sökandens underskrift', 300, 640, 9)],
      segments: [
        { x0: 72, x1: 280, y: 630 },
        { x0: 300, x1: 520, y: 630 },
      ],
    }),
  );
  assert.deepEqual(found.map((s) => `${s.type}${s.fieldKey ? `:${s.fieldKey}` : ''}`).sort(), ['date:sign_date', 'signature'], JSON.stringify(found));
});

test('Polish: "Miejscowość / data" dates the signing; "Podpis rodzica/opiekuna" and "Podpis i pieczątka org." beside it are two places to sign', () => {
  assert.deepEqual(labels('Miejscowość, data'), ['date:sign_date']);
  const found = suggestFields(
    page({
      words: [
        ...words('MIEJSCOWOŚĆ /DATA', 77, 396, 9),
        ...words('PODPIS RODZICA/OPIEKUNA', 219, 396, 9),
        ...words('PODPIS I PIECZĄTKA ORG.', 396, 396, 9),
        ...words('_________________________', 82, 429, 9),
        ...words('_______________________________', 224, 429, 9),
        ...words('_________________________', 401, 429, 9),
      ],
    }),
  );
  assert.deepEqual(found.map((s) => `${s.type} ${Math.round(s.x)}`).sort(), ['date 82', 'signature 224', 'signature 401'], JSON.stringify(found));
});

test('Czech: "V Brně, dne ____" dates the signing over "Podpis"', () => {
  const found = suggestFields(page({ words: [...words('V Brně, dne ______________________', 335, 580, 10), ...words('Podpis', 373, 628, 10)] }));
  assert.deepEqual(
    found.map((s) => s.type),
    ['date', 'signature'],
    JSON.stringify(found),
  );
});

test('"Date and Signature: ____" and its Polish caption before it ("Data i podpis / Date and Signature: ____"): one signs and dates on the blank, a signature', () => {
  for (const caption of ['Date and Signature:', 'Data i podpis / Date and Signature:']) {
    const found = suggestFields(page({ words: [...paragraph('en', 100), ...words(`${caption} ${'_'.repeat(30)}`, 72, 642, 10)] }));
    assert.deepEqual(
      found.map((s) => s.type),
      ['signature'],
      JSON.stringify(found),
    );
  }
});

test('Czech "V Praze dne ____" and Polish "Wrocław, dn. ......" without the place\'s comma or with "dnia" cut short: the date of the signing; "V Praze" alone is none', () => {
  const dated = (text: string) =>
    suggestFields(page({ words: [...paragraph('en', 100), ...words(text, 60, 580, 10), ...words('______________________', 360, 580, 10)] })).filter(
      (s) => s.type === 'date',
    );
  const czech = dated('V Praze dne ___________________');
  assert.equal(czech.length, 1, JSON.stringify(czech));
  const blank = words('V Praze dne ___________________', 60, 580, 10).at(-1);
  assert.ok(Math.abs((czech[0]?.x ?? 0) - (blank?.box.x0 ?? 0)) <= 1, JSON.stringify(czech));
  assert.equal(dated('Wrocław, dn . .........................').length, 1);
  assert.deepEqual(dated('V Praze ___________________'), []);
});

test('"Applicant (signature required)" under a line captions a place to sign; "Signatures required by law" is no field', () => {
  assert.deepEqual(labels('Applicant (signature required)'), ['signature']);
  const found = suggestFields(
    page({ words: [...paragraph('en', 100), ...words('Applicant (signature required)', 313, 697, 9)], segments: [{ x0: 277, x1: 529, y: 688 }] }),
  );
  assert.deepEqual(
    found.map((s) => s.type),
    ['signature'],
    JSON.stringify(found),
  );
  const law = suggestFields(
    page({ words: [...paragraph('en', 100), ...words('Signatures required by law', 313, 697, 9)], segments: [{ x0: 277, x1: 529, y: 688 }] }),
  );
  assert.deepEqual(law, []);
});
