/**
 * The words field detection looks for, in English, French and Arabic (and the few Hebrew and Russian words of a signature block; German, Portuguese,
 * Spanish, Italian, Dutch and Polish captions in lexicon-european.ts, Romanian and Indonesian ones in lexicon-further.ts): labels that announce a
 * field and the party words that say whose field it is (what AcroForm field names say is read in acroform-widgets.ts). Pure data and string
 * functions; everything is matched on normalised tokens (see `normalizeToken` in token-folding.ts).
 */

import { SIGN_OFFS } from './sign-offs.js';
import { EUROPEAN_LABELS, EUROPEAN_PARTIES } from './lexicon-european.js';
import { FURTHER_LABELS, FURTHER_PARTIES } from './lexicon-further.js';
import type { PageLanguage } from './page-language.js';
import { isArabic, normalizeToken } from './token-folding.js';

export type LabelType = 'signature' | 'date' | 'text' | 'initials';
export type FieldKey = 'signer_name' | 'signer_email' | 'company' | 'job_title' | 'sign_date' | 'initials';

export interface LabelEntry {
  /** Normalised tokens in reading order; `*` stands for any run of tokens on the same line. */
  tokens: readonly string[];
  type: LabelType;
  fieldKey?: FieldKey;
  /** `weak` labels (a handwritten mention, "Fait à … le") are evidence, but less than "Signature". */
  strength: 'strong' | 'weak';
  /** With a `*`, which token the field belongs to (default: the last). */
  anchor?: number;
  /** Only at the start of a line and only with a line or blank run after it ("By ______"). */
  leading?: boolean;
  /** Only on a page in one of these languages, or whose language is not known ("Firma", "Data"). */
  langs?: readonly PageLanguage[];
  /** Not a label when a number follows it ("x 0.124 = ____" multiplies). */
  notBeforeNumber?: boolean;
  /** Not a label when a word follows it on its line but "and" ("Conforme: ____" approves; "(conforme documento de identidade)" says how). */
  lastWord?: boolean;
  /** Not a label within `within` tokens after one of `words`: whose ("Name of Authorized Signatory"), when ("(if signed by …)"). */
  notAfter?: { words: ReadonlySet<string>; within: number };
}

const sig = (strength: 'strong' | 'weak', ...phrases: string[]): LabelEntry[] => phrases.map((p) => ({ tokens: p.split(' '), type: 'signature', strength }));
const text = (fieldKey: FieldKey | undefined, ...phrases: string[]): LabelEntry[] =>
  phrases.map((p) => ({ tokens: p.split(' '), type: 'text', strength: 'strong', ...(fieldKey ? { fieldKey } : {}) }));
const signDate = (...phrases: string[]): LabelEntry[] =>
  phrases.map((p) => ({ tokens: p.split(' '), type: 'date', fieldKey: 'sign_date', strength: 'strong' }));

/** The words for "date" in the lexicon's languages written in Latin letters. */
export const DATE_WORDS = new Set(['date', 'datum', 'data', 'fecha']);
/** Words naming a name in those languages ("Nombre y firma", "(escreva aqui o nome do orientador)"). */
export const NAME_WORDS = new Set(['name', 'names', 'nome', 'nom', 'nombre', 'namen', 'cognome', 'apellido', 'apellidos', 'prenom', 'vorname', 'nachname']);

/** Words opening a condition, right before a participle that then asks for nothing (`notAfter`). */
const CONDITION = { words: new Set(['if', 'when', 'unless', 'once', 'until']), within: 1 };
/** Longest phrases win where several match the same words (see `matchLabels`). */
const LABEL_TABLE: readonly LabelEntry[] = [
  // English
  ...sig('strong', 'signature', 'signatures', 'witnessed by', 'in the presence of', 'sign here', 'authorised signature', 'authorized signature'),
  { tokens: ['signatory'], type: 'signature', strength: 'strong', notAfter: { words: new Set(['of']), within: 3 } },
  // (Not right after a word opening a condition: "if signed by …", "when signed".)
  ...['signed', 'signed by'].map((p): LabelEntry => ({ tokens: p.split(' '), type: 'signature', strength: 'strong', notAfter: CONDITION })),
  // ("Sig. of TG": only with its "of"; Italian "Sig." is "Mr.". "Sign" for "signature" in the English of India,
  // Africa and the Gulf: "Sign. of Parent", "Name & Sign", "Sign & Date"; not alone, where it is mostly a verb.)
  ...sig('strong', 'sig of', 'sign of', 'name sign', 'sign date', 'sign with date'),
  // (And after whose it is, possessive: "Parent's Sign.", "Candidate's Sign"; not after a bare noun, "Student Sign", often the verb.)
  ...sig('strong', 's sign'),
  ...signDate('date', 'dated', 'date signed', 'date of signature', 'date of signing', 'signature date', 'signing date', 'place and date', 'date and place'),
  ...signDate('lieu et date', 'date et lieu'),
  ...text('signer_name', 'name', 'full name', 'print name', 'printed name', 'name in print', 'name in capitals'),
  ...text('signer_email', 'email', 'e mail', 'email address'),
  ...text('company', 'company', 'company name', 'organisation', 'organization'),
  ...text('job_title', 'title', 'job title', 'position', 'occupation'),
  // ("By: ____" over "Its: ____" in a company's signature block: the office of whoever signs for it.)
  { tokens: ['its'], type: 'text', fieldKey: 'job_title', strength: 'strong', leading: true },
  { tokens: ['initials'], type: 'initials', strength: 'strong' },
  { tokens: ['initial', 'here'], type: 'initials', strength: 'strong' },
  // ("Initial: ____": only opening its line, with its blank after it; a verb elsewhere.)
  { tokens: ['initial'], type: 'initials', strength: 'strong', leading: true },
  // (Or whose, before its blank: "Client's initial: ____", not "the client's initial consultation".)
  { tokens: ['s', 'initial'], type: 'initials', strength: 'strong', lastWord: true },
  { tokens: ['by'], type: 'signature', strength: 'weak', leading: true },
  // A sign-off opening its line before its blank ("Approved by: ____", "Revisado por: ____"): whoever approves signs there (sign-offs.ts).
  ...SIGN_OFFS.map((p): LabelEntry => ({ tokens: p.split(' '), type: 'signature', strength: 'strong', leading: true, lastWord: true })),
  // "Sign: ______" (a verb elsewhere: only at the start of a line, with its blank after it).
  { tokens: ['sign'], type: 'signature', strength: 'strong', leading: true, lastWord: true },
  { tokens: ['sig'], type: 'signature', strength: 'strong', leading: true, lastWord: true, langs: ['en'] },
  // "i.A. ______", "i.V. ______", "ppa. ______": who signs on another's behalf, in German letters and forms.
  ...['i a', 'i v', 'ppa'].map((p): LabelEntry => ({ tokens: p.split(' '), type: 'signature', strength: 'strong', leading: true, langs: ['de'] })),
  // "X ______" / "× ______": the cross that marks where to sign.
  { tokens: ['x'], type: 'signature', strength: 'strong', leading: true, notBeforeNumber: true },
  // (An approval or a receipt opening its line with a blank after it asks for the approver's signature: "De acordo: ____", "Conforme: ____", "Einverstanden: ____", "Recibí: ____".)
  ...['de acordo', 'ciente', 'conforme', 'recibi conforme', 'recibi', 'einverstanden', 'gelesen und einverstanden'].map(
    (p): LabelEntry => ({ tokens: p.split(' '), type: 'signature', strength: 'strong', leading: true, lastWord: true }),
  ),
  // French
  ...sig('strong', 'signature du', 'signature de', 'signe par', 'signe'),
  ...sig('weak', 'lu et approuve', 'bon pour accord', 'lu et accepte', 'bon pour pouvoir'),
  { tokens: ['fait', 'a', '*', 'le'], type: 'date', fieldKey: 'sign_date', strength: 'weak' },
  // ("Fait en deux exemplaires à Paris, le ____", "Fait en trois (3) copies originales à Cotonou, le ____".)
  { tokens: ['fait', '*', 'a', '*', 'le'], type: 'date', fieldKey: 'sign_date', strength: 'weak' },
  { tokens: ['fait', 'le'], type: 'date', fieldKey: 'sign_date', strength: 'weak' },
  ...['de signature', 'de signatures', 'des signatures'].map(
    (p): LabelEntry => ({ tokens: ['date', ...p.split(' ')], type: 'date', fieldKey: 'sign_date', strength: 'strong' }),
  ),
  ...text('signer_name', 'nom', 'nom et prenom', 'nom prenom', 'prenom et nom', 'nom complet'),
  ...text('signer_email', 'courriel', 'adresse electronique', 'adresse email', 'adresse e mail'),
  ...text('company', 'societe', 'entreprise', 'raison sociale'),
  ...text('job_title', 'fonction', 'qualite'),
  { tokens: ['paraphe'], type: 'initials', strength: 'strong' },
  { tokens: ['paraphes'], type: 'initials', strength: 'strong' },
  { tokens: ['initiales'], type: 'initials', strength: 'strong' },
  // (And in Spanish, German, Italian and Dutch forms: "Iniciales:", "Kürzel:", "Sigla:", "Paraaf:".)
  { tokens: ['iniciales'], type: 'initials', strength: 'strong', langs: ['es'] },
  { tokens: ['kurzel'], type: 'initials', strength: 'strong', langs: ['de'] },
  { tokens: ['sigla'], type: 'initials', strength: 'strong', langs: ['it'] },
  { tokens: ['paraaf'], type: 'initials', strength: 'strong', langs: ['nl'] },
  // ("Rubrica" is the initials a Portuguese or Spanish page asks for on each page; in Italian, an address book.)
  { tokens: ['rubrica'], type: 'initials', strength: 'strong', langs: ['pt', 'es'] },
  { tokens: ['rubricas'], type: 'initials', strength: 'strong', langs: ['pt', 'es'] },
  // Arabic (normalised: no hamza on alef, ya for alef maqsura, no diacritics)
  // (And whose, joined to it: "توقيعه", his; "توقيعها", hers; "توقيعهم", theirs: "اسم ولي الأمر وتوقيعه", the guardian's name and signature.)
  ...sig('strong', 'التوقيع', 'توقيع', 'الامضاء', 'امضاء', 'توقيعه', 'توقيعها', 'توقيعهم'),
  // (OCR reads the two dots of qaf as the one of fa: "التوفيع".)
  ...sig('strong', 'التوفيع', 'توفيع'),
  // ("تحريرا في", "written on": the date an Arabic contract or letter is signed, "تحريرا في: ……".)
  ...signDate('التاريخ', 'تاريخ', 'تاريخ التوقيع', 'تحريرا في'),
  ...text('signer_name', 'الاسم', 'اسم', 'الاسم الكامل'),
  ...text('signer_email', 'البريد الالكتروني'),
  ...text('company', 'الشركه', 'اسم الشركه'),
  ...text('job_title', 'المسمي الوظيفي', 'الصفه', 'الوظيفه'),
  { tokens: ['الاحرف', 'الاولي'], type: 'initials', strength: 'strong' },
  // Hebrew: the captions of a signature block
  ...sig('strong', 'חתימה', 'חתימת'),
  { tokens: ['תאריך'], type: 'date', fieldKey: 'sign_date', strength: 'strong' },
  ...text('signer_name', 'שם', 'שם מלא'),
  // Russian (and the other languages written in Cyrillic that share these words): the captions of a signature block
  ...sig('strong', 'подпись', 'подписи', 'подписано'),
  { tokens: ['дата'], type: 'date', fieldKey: 'sign_date', strength: 'strong' },
  ...text('signer_name', 'фио', 'ф и о', 'фамилия имя отчество'),
  ...sig('strong', 'date et signature', 'date signature', 'date and signature', 'sign and date', 'signed and dated'),
  // (Arabic, either way round, "and" apart or joined: "تاريخ و توقيع", "التوقيع والتاريخ".)
  ...sig(
    'strong',
    'تاريخ و توقيع',
    'التاريخ و التوقيع',
    'تاريخ وتوقيع',
    'التاريخ والتوقيع',
    'توقيع و تاريخ',
    'التوقيع و التاريخ',
    'توقيع وتاريخ',
    'التوقيع والتاريخ',
  ),
  // A name and a signature asked for in one blank: the place to sign ("Name and signature", "Nome e firma").
  ...sig(
    'strong',
    'name and signature',
    'printed name and signature',
    // ("Signature over printed name": one signs over one's name printed on the line.)
    'signature over printed name',
    'signature over printed name of',
    'nom et signature',
    'nome e firma',
    'nome e assinatura',
    'name und unterschrift',
    'nombre y firma',
    'الاسم و التوقيع',
    'اسم و توقيع',
  ),
  ...[...EUROPEAN_LABELS, ...FURTHER_LABELS].map(
    (e): LabelEntry => ({
      tokens: e.tokens.split(' '),
      type: e.type,
      strength: 'strong',
      ...(e.fieldKey ? { fieldKey: e.fieldKey } : {}),
      ...(e.langs ? { langs: e.langs } : {}),
    }),
  ),
];
// The tables are written readably and matched normalised.
export const LABELS: readonly LabelEntry[] = LABEL_TABLE.map((e) => ({ ...e, tokens: e.tokens.map((t) => (t === '*' ? t : normalizeToken(t))) }));

/** Words joining two things asked for in one caption ("Name and signature", "Timbro e firma"). */
export const AND_WORDS = new Set(['and', 'y', 'e', 'et', 'und']);
/** A stamp asked for with a signature ("Cachet et signature", "Timbro della scuola e firma del Dirigente"). */
export const STAMP_WORDS = new Set(['carimbo', 'sello', 'stempel', 'timbro', 'cachet', 'stamp', 'seal']);

/** Organisations that sign as parties ("Pour la société", "For the Foundation", "Für den Verein", "Pelo Clube"). */
export const COMPANIES = new Set(
  [
    'company societe entreprise empresa societa ditta azienda firma unternehmen gesellschaft verein',
    'association asociacion associacao associazione foundation fondation fundacion fundacao fondazione stiftung club clube',
  ].flatMap((s) => s.split(' ')),
);

/** Who signs for an organisation named before them ("Viva Perros Representative ____", "Company Secretary", "Representante de la empresa"). */
export const FOR_ORGANISATION = new Set([
  'representative',
  'representant',
  'representante',
  'rappresentante',
  'vertreter',
  'officer',
  'director',
  'manager',
  'president',
  'secretary',
  'treasurer',
]);

/** Words that join a caption to whom it names ("Signature of Parent", "signature du Président"). */
export const OF = new Set(['of', 'du', 'de', 'des', 'del', 'della', 'dello', 'dei', 'degli', 'delle', 'dell', 'der', 'do', 'da', 'dos', 'das', 'd']);
/**
 * Articles: between "of" and the noun ("de l'agence", "of the Head"), opening a party's name ("L'Association", "O Encarregado"),
 * alone before a company's name, which they name ("La Società ____": no signing for it).
 */
// biome-ignore format: a word list
export const ARTICLES = new Set(['the', 'le', 'la', 'l', 'les', 'el', 'los', 'las', 'il', 'lo', 'i', 'gli', 'o', 'a', 'os', 'as', 'der', 'die', 'das', 'den', 'des', 'het', 'de']);

/** Whether the token at `k` follows "of", or "of" (at `from` or after) and an article. */
export function afterOf(tokens: readonly string[], k: number, from: number): boolean {
  const previous = tokens[k - 1] as string;
  return OF.has(previous) || (k - 2 >= from && ARTICLES.has(previous) && OF.has(tokens[k - 2] as string));
}

/** One or two Arabic words from `from` up to `stop` (a caption's run end): who signs, named after an Arabic caption ("توقيع المشرف", "توقيع مقدم الطلب"). */
export function arabicWhose(tokens: readonly string[], from: number, stop: number): boolean {
  const after = tokens.slice(from, stop);
  return after.length >= 1 && after.length <= 2 && isArabic(tokens[from - 1] as string) && after.every((t) => isArabic(t));
}

/** Arrows after a caption pointing on along its row ("Signature ▶", a tax form's way): they end it as its colon does. */
const ARROWS = '▶►→➔➜';
/** A colon, or such an arrow: what ends a caption that asks for what follows it. */
export const COLON_MARK = new RegExp(`[:：${ARROWS}]`);
/** Such an arrow ending a word. */
export const ENDS_ON_ARROW = new RegExp(`[${ARROWS}]$`);

/** The marks of a date's format printed in its blank ("MM/DD/YYYY", "TT.MM.JJJJ", "jj / mm / aaaa"): day, month and year in the languages' letters. */
export const DATE_FORMAT = normalizedSet(['dd', 'mm', 'yy', 'yyyy', 'jj', 'aa', 'aaaa', 'tt', 'jjjj', 'gg']);

/** Words that join a label to its party or fill a caption ("Signature of the Client"). */
// biome-ignore format: a word list, one line per language
export const STOPWORDS = normalizedSet([
  'of', 'the', 'for', 'by', 'on', 'behalf', 'and', 'here', 'please', 'a', 'an', 'to', 'be', 'its', 'his', 'her', 'their',
  'du', 'de', 'la', 'le', 'les', 'des', 'l', 'd', 'pour', 'et', 'par', 'au', 'aux', 'ici', 'precede', 'mention', 'manuscrite', 'ou', 'son', 'sa',
  'من', 'عن', 'و', 'في', 'على', 'قبل',
  'des', 'der', 'die', 'den', 'dem', 'und', 'oder', 'do', 'da', 'dos', 'das', 'del', 'della', 'dello', 'dei', 'e', 'y', 'o', 'van', 'het', 'el', 'los', 'las', 'il', 'lo', ...STAMP_WORDS, 'leggibile',
  'firmenstempel', 'dienststempel', 'praxisstempel', 'schulstempel', 'vereinsstempel', 'dienstsiegel',
  'or', 'di', 'dell', 'degli', 'delle', 'eines', 'einer', 'ggf', 'bzw',
  // Signers beyond the first: "Gegebenenfalls Unterschriften weiterer Autoren", "Additional signatures", "Eventuali altri firmatari".
  'gegebenenfalls', 'weitere', 'weiterer', 'weiteren', 'additional', 'further', 'other', 'eventuale', 'eventuali', 'altri', 'ulteriori',
  'autres', 'outros', 'otros',
  // Words that say how one signs: "Rechtsverbindliche Unterschrift", "Firma autografa", "Assinatura legível".
  'rechtsverbindliche', 'rechtsgultige', 'eigenhandige', 'handschriftliche', 'leserliche', 'autografa', 'legivel', 'manuscrita', 'handwritten',
]);

/** Words that make a line about signatures, not a place to sign ("Signature page", "Electronic signature act"). */
// biome-ignore format: a word list, one line per language
const NOT_A_FIELD = normalizedSet([
  'page', 'pages', 'section', 'schedule', 'annex', 'appendix', 'process', 'procedure', 'policy', 'certificate', 'electronic',
  'act', 'law', 'required', 'requirements', 'block', 'blocks', 'attached', 'overleaf',
  'annexe', 'electronique', 'requise',
  // (The title of a sign-in sheet: "Feuille d'émargement", "Signature sheet", "Lista de firmas".)
  'sheet', 'sheets', 'list', 'feuille', 'liste', 'foglio', 'lista',
  'digital', 'digitally', 'digitale', 'digitalmente', 'elettronica', 'elektronisch', 'elektronische', 'eletronica', 'electronica',
  // (A completed electronic signature's stamp: "Firmado electrónicamente por", "Electronically signed by".)
  'electronically', 'electronicamente', 'eletronicamente', 'elettronicamente', 'electroniquement', 'digitalement', 'numeriquement',
  // (A signature left out of a printed copy: "Firma autografa sostituita a mezzo stampa", "firma omessa".)
  'sostituita', 'omessa',
  'الالكتروني', 'صفحه',
]);
/** Words before a word of NOT_A_FIELD that leave it a field's: a fingerprint's "digital" ("Firma y huella digital"), "(signature required)". */
const FIELD_BEFORE: Record<string, ReadonlySet<string>> = { digital: normalizedSet(['huella', 'impressao', 'impresion']), required: new Set(['signature']) };

/** Whether the tokens of a caption's run say it is no field to fill ("Page 2", "digitally signed"). */
export const notAField = (tokens: readonly string[]): boolean => tokens.some((t, j) => NOT_A_FIELD.has(t) && !FIELD_BEFORE[t]?.has(tokens[j - 1] as string));

/** Party words, normalised, to the role hint they give (a lowercase English word). */
// biome-ignore format: a word list, one line per language
const PARTIES: ReadonlyArray<[string, string]> = [
  ['client', 'client'], ['customer', 'customer'], ['buyer', 'buyer'], ['purchaser', 'buyer'], ['seller', 'seller'], ['vendor', 'seller'],
  ['provider', 'provider'], ['supplier', 'supplier'], ['consultant', 'consultant'], ['contractor', 'contractor'],
  ['landlord', 'landlord'], ['lessor', 'landlord'], ['tenant', 'tenant'], ['lessee', 'tenant'], ['employer', 'employer'], ['employee', 'employee'],
  ['lender', 'lender'], ['borrower', 'borrower'], ['guarantor', 'guarantor'], ['witness', 'witness'], ['applicant', 'applicant'],
  ['licensor', 'licensor'], ['licensee', 'licensee'], ['driver', 'driver'], ['recipient', 'recipient'], ['bank', 'bank'], ['agent', 'agent'],
  ['owner', 'owner'], ['renter', 'tenant'], ['participant', 'participant'], ['patient', 'patient'], ['guardian', 'guardian'], ['adopter', 'adopter'],
  ['discloser', 'discloser'], ['assignor', 'assignor'], ['assignee', 'assignee'], ['grantor', 'grantor'], ['grantee', 'grantee'], ['investor', 'investor'],
  ['franchisor', 'franchisor'], ['franchisee', 'franchisee'], ['sublessor', 'landlord'], ['sublessee', 'tenant'], ['subtenant', 'tenant'],
  ['distributor', 'distributor'], ['freelancer', 'contractor'], ['cedant', 'assignor'], ['cessionnaire', 'assignee'], ['franchiseur', 'franchisor'],
  ['loueur', 'landlord'], ['proprietaire', 'owner'], ['participante', 'participant'],
  ['vendeur', 'seller'], ['venderesse', 'seller'], ['acheteur', 'buyer'], ['acquereur', 'buyer'], ['prestataire', 'provider'],
  ['fournisseur', 'supplier'], ['bailleur', 'landlord'], ['locataire', 'tenant'], ['preneur', 'tenant'], ['employeur', 'employer'],
  ['salarie', 'employee'], ['emprunteur', 'borrower'], ['preteur', 'lender'], ['garant', 'guarantor'], ['caution', 'guarantor'],
  ['temoin', 'witness'], ['mandataire', 'agent'], ['livreur', 'driver'], ['destinataire', 'recipient'],
  ['العميل', 'client'], ['الزبون', 'customer'], ['البائع', 'seller'], ['المشتري', 'buyer'], ['المؤجر', 'landlord'], ['المستاجر', 'tenant'],
  ['المورد', 'supplier'], ['المقاول', 'contractor'], ['الموظف', 'employee'], ['الشاهد', 'witness'], ['الكفيل', 'guarantor'],
  ['المقترض', 'borrower'], ['المقرض', 'lender'], ['البنك', 'bank'], ['المستشار', 'consultant'],
  ['المدير', 'director'], ['مدير', 'director'], ['العميد', 'dean'], ['عميد', 'dean'], ['رئيس', 'head'], ['الرئيس', 'head'], ['المشرف', 'supervisor'], ['مشرف', 'supervisor'],
  ...EUROPEAN_PARTIES,
  ...FURTHER_PARTIES,
  ['prestatario', 'borrower'], ['prestamista', 'lender'], ['mutuario', 'borrower'], ['mutuante', 'lender'], ['mutuatario', 'borrower'],
  ['darlehensnehmer', 'borrower'], ['darlehensgeber', 'lender'], ['contratista', 'contractor'], ['proveedor', 'supplier'], ['fornecedor', 'supplier'],
  ['concedente', 'host'], ['estagiario', 'intern'], ['estagiaria', 'intern'], ['tirocinante', 'intern'], ['praktikant', 'intern'], ['praktikantin', 'intern'],
  ['השוכר', 'tenant'], ['שוכר', 'tenant'], ['המשכיר', 'landlord'], ['משכיר', 'landlord'], ['הקונה', 'buyer'], ['המוכר', 'seller'],
];
const PARTY = normalizedMap(PARTIES);
// biome-ignore format: a word list
const ORDINALS = normalizedMap<number>([
  ['1', 1], ['2', 2], ['3', 3], ['4', 4], ['5', 5], ['6', 6], ['7', 7], ['8', 8], ['9', 9], ['10', 10], ['one', 1],
  ['two', 2], ['three', 3], ['a', 1], ['b', 2], ['c', 3], ['first', 1], ['second', 2], ['third', 3], ['un', 1],
  ['deux', 2], ['trois', 3], ['premier', 1], ['premiere', 1], ['second', 2], ['seconde', 2], ['deuxieme', 2],
  ['troisieme', 3], ['الاول', 1], ['الثاني', 2], ['الثالث', 3],
]);
const NUMBERED = normalizedMap([
  ['signer', 'signer'],
  ['signatory', 'signer'],
  ['signataire', 'signer'],
  ['party', 'party'],
  ['partie', 'party'],
  ['الطرف', 'party'],
  ['company', 'company'],
  ['societe', 'company'],
  ['الموقع', 'signer'],
]);

/**
 * The role a run of normalised tokens names, and how many tokens it took ("Signer 2" -> signer_2,
 * "First party" -> party_1, "الطرف الثاني" -> party_2, "Le vendeur" -> seller, numbered after its name "Testemunha 1" -> witness), or null.
 */
export function partyAt(tokens: readonly string[], i: number): { role: string; length: number } | null {
  const word = tokens[i];
  if (word === undefined) return null;
  const numbered = NUMBERED.get(word);
  if (numbered) {
    const n = ORDINALS.get(tokens[i + 1] ?? '');
    if (n !== undefined) return { role: `${numbered}_${n}`, length: 2 };
    const before = ORDINALS.get(tokens[i - 1] ?? '');
    if (before !== undefined) return { role: `${numbered}_${before}`, length: 1 };
    return null;
  }
  // "Service provider", "مقدم الخدمة".
  if (word === 'مقدم' && tokens[i + 1] === normalizeToken('الخدمة')) return { role: 'provider', length: 2 };
  if (word === 'صاحب' && tokens[i + 1] === normalizeToken('العمل')) return { role: 'employer', length: 2 };
  // "Disclosing Party", "Receiving Party" (a non-disclosure agreement's).
  if ((word === 'disclosing' || word === 'receiving') && tokens[i + 1] === 'party')
    return { role: word === 'disclosing' ? 'discloser' : 'recipient', length: 2 };
  // "Il datore di lavoro".
  if (word === 'datore' && tokens[i + 1] === 'di' && tokens[i + 2] === 'lavoro') return { role: 'employer', length: 3 };
  // "O Encarregado de Educação" (a pupil's guardian, Portuguese).
  if ((word === 'encarregado' || word === 'encarregada') && tokens[i + 1] === 'de' && tokens[i + 2] === 'educacao') return { role: 'guardian', length: 3 };
  const role = PARTY.get(word) ?? PARTY.get(word.replace(/s$/, ''));
  return role ? { role, length: /^\d{1,2}$/.test(tokens[i + 1] ?? '') ? 2 : 1 } : null;
}

function normalizedSet(words: string[]): Set<string> {
  return new Set(words.map(normalizeToken));
}

function normalizedMap<V>(entries: ReadonlyArray<[string, V]>): Map<string, V> {
  return new Map(entries.map(([k, v]) => [normalizeToken(k), v]));
}

/**
 * A run of underscores, dots, dashes, ellipses, middle dots or Arabic tatweel that marks a blank to fill
 * in, spaced out or not ("____", "……", ". . . . .", "_ _ _ _", "ـــــــ"); an ellipsis and dots of five dots or more
 * together ("…...", an ellipsis counted as its three dots; "…." stays a date's part, "le …. /.… /").
 */
export const FILL_RUN = /_{3,}|\.{4,}|…{2,}|-{5,}|‒{3,}|—{3,}|–{4,}|ـ{3,}|[·•∙⋅]{4,}/;
export const isFillToken = (s: string): boolean =>
  (/^[\s_.…\-‒—–ـ·•∙⋅]+$/.test(s) && (FILL_RUN.test(s.replace(/\s+/g, '')) || /\.{5,}/.test(s.replace(/\s+/g, '').replace(/…/g, '...')))) ||
  // One glyph repeated is no word: a blank drawn in a font whose underscore reads as another character.
  /^(\S)\1{7,}$/u.test(s.trim());

/**
 * Blank characters alone, short runs and a date's parts' separators included ("__", "/.…", "…. /"): no writing.
 * Nor is a symbol font's mark read as private-use characters only (the pointing hand "☞" a form prints where
 * one signs, in a cell beside "Assinatura do Atleta:").
 */
export const isBlankMark = (s: string): boolean => /^[\s_/.…-]+$/.test(s) || /^\p{Co}+$/u.test(s.trim());

/** A word that closes a sentence ("… any knowledge.", "sector."), not an abbreviation ("Inc.", "No.", "n."). */
export const closesSentence = (word: string): boolean => /[^.\s]{2}[.!?]["'’”)]?$/u.test(word) && !/^\p{Lu}?\p{Ll}{0,2}\.$/u.test(word);
