/**
 * The captions of signing blocks in German, Portuguese, Spanish, Italian and Dutch (the lexicon's other
 * languages are in lexicon.ts), their party words, and a guess of a page's language from its commonest
 * words: some captions are words of another meaning in another language (German "Firma" is a company,
 * English "data" is not a date), so they count only on a page in a language where they are captions.
 * Pure data and string functions; tokens are written readably and normalised by lexicon.ts.
 */

export type PageLanguage = 'en' | 'fr' | 'de' | 'pt' | 'es' | 'it' | 'nl';

export interface EuropeanEntry {
  tokens: string;
  type: 'signature' | 'date' | 'text';
  fieldKey?: 'signer_name' | 'sign_date';
  /** Only on a page in one of these languages (or whose language is not known). */
  langs?: readonly PageLanguage[];
}

const sig = (langs: readonly PageLanguage[] | undefined, ...phrases: string[]): EuropeanEntry[] =>
  phrases.map((tokens) => ({ tokens, type: 'signature', ...(langs ? { langs } : {}) }));
const date = (langs: readonly PageLanguage[] | undefined, ...phrases: string[]): EuropeanEntry[] =>
  phrases.map((tokens) => ({ tokens, type: 'date', fieldKey: 'sign_date', ...(langs ? { langs } : {}) }));
const name = (langs: readonly PageLanguage[] | undefined, ...phrases: string[]): EuropeanEntry[] =>
  phrases.map((tokens) => ({ tokens, type: 'text', fieldKey: 'signer_name', ...(langs ? { langs } : {}) }));

export const EUROPEAN_LABELS: readonly EuropeanEntry[] = [
  // German. "Ort, Datum" is where and when one signs; with "Unterschrift" on the same caption it is the signature's line.
  ...sig(
    undefined,
    'unterschrift',
    'unterschriften',
    'unterschrift des',
    'unterschrift der',
    'unterzeichnet',
    'ort datum unterschrift',
    'datum unterschrift',
    'ort datum und unterschrift',
    'ort und datum unterschrift',
    'datum und unterschrift',
    // ("u." is how German abbreviates "und".)
    'datum u unterschrift',
    'ort datum u unterschrift',
    'datum sowie unterschrift',
    'ort datum sowie unterschrift',
  ),
  // (A "Testat" is a signature attesting work done: a lab sheet's "Testat für die Versuchsdurchführung" column.)
  ...sig(['de'], 'testat', 'gesamttestat'),
  ...date(['de', 'nl'], 'datum'),
  ...date(undefined, 'ort datum', 'ort und datum', 'ort u datum', 'datum ort', 'datum der unterschrift', 'datum der unterzeichnung', 'unterschriftsdatum'),
  ...name(['de'], 'name vorname', 'vorname name', 'vorname'),
  // Portuguese
  ...sig(undefined, 'assinatura', 'assinaturas', 'assinatura do', 'assinatura da', 'assinado', 'assinado por', 'data e assinatura', 'assinatura e data'),
  ...date(['pt', 'it'], 'data'),
  ...date(undefined, 'data da assinatura', 'data de assinatura', 'local e data', 'data e local'),
  ...name(['pt', 'it'], 'nome', 'nome completo'),
  // Spanish ("firma" is also Italian; in German and Portuguese it is a company).
  ...sig(['es', 'it'], 'firma', 'firma del', 'firma de', 'firma della', 'firme', 'firmas'),
  // "Fdo.:" and "Ass.:" are how Spanish and Portuguese forms abbreviate "firmado" and "assinatura".
  ...sig(['es'], 'fdo'),
  // ("Fdo.: D./D.ª ____", "signed: Mr/Ms ____", asks for the signer's name; the signature goes over it.)
  ...name(['es'], 'fdo d', 'fdo d d.a', 'fdo d dna', 'fdo don', 'fdo dona'),
  ...sig(['pt'], 'ass', 'visto'),
  ...sig(undefined, 'firmado', 'firmado por', 'firma y fecha', 'fecha y firma', 'firma e data', 'data e firma', 'firma y aclaracion'),
  // French: "Émargement", signing an attendance sheet; "Visa de l'agent comptable", the officer's signature of approval.
  ...sig(['fr'], 'emargement', 'visa'),
  // ("Firma, aclaración y DNI" under one line: one place to sign, the name and number printed under it; "Vº Bº", "V.º B.º", approved, over the approver.)
  ...sig(['es'], 'firma aclaracion', 'firma aclaracion y dni', 'firma aclaracion dni', 'vo bo', 'v o b o', 'vobo', 'visto bueno'),
  ...date(undefined, 'fecha', 'fecha de firma', 'fecha de la firma', 'lugar y fecha', 'fecha y lugar'),
  // ("Aclaración", of the signature: the name printed under it, as Argentine forms caption it beside "Firma".)
  ...name(['es'], 'nombre', 'nombres', 'nombre completo', 'nombre y apellidos', 'apellidos y nombres', 'aclaracion', 'aclaracion de firma'),
  // Italian: "per accettazione" (for acceptance), "per presa visione" (seen) and "in fede" (in faith, over the
  // signature) caption a signature ("Letto, confermato e sottoscritto" heads a block of them).
  ...sig(['it'], 'per accettazione', 'per presa visione', 'in fede', 'firmato', 'firma per esteso'),
  ...date(undefined, 'luogo e data', 'data e luogo', 'data di firma', 'data della firma', 'data di sottoscrizione'),
  ...name(['it'], 'cognome e nome', 'nome e cognome'),
  // Dutch
  ...sig(undefined, 'handtekening', 'handtekeningen', 'handtekening van', 'getekend'),
  ...date(['nl'], 'plaats en datum', 'datum en plaats'),
  // ("Opgemaakt te Gent, op ____": where and when the document is signed; "getekend te … op", signed at … on.)
  ...date(['nl'], 'opgemaakt te * op', 'getekend te * op', 'opgemaakt op'),
  // ("d.d.", de dato: "Voor akkoord d.d. ____"; its dots part the letters, "d d".)
  ...date(['nl'], 'voor akkoord dd', 'akkoord dd', 'voor akkoord d d', 'akkoord d d'),
  ...name(['nl'], 'naam'),
];

/** A heading over a block of signatures, not a caption of one ("Signatures", "Unterschriften"). */
export const SIGNATURE_HEADINGS = new Set(['signatures', 'unterschriften', 'assinaturas', 'firmas', 'firme', 'handtekeningen']);

/** Party words of these languages, to the role hint they give (`both`: a word and its feminine, "trabajador", "trabajadora"). */
const both = (word: string, ending: string, role: string) => [word, `${word}${ending}`].map((w): [string, string] => [w, role]);
// biome-ignore format: a word list, a line or two per language
export const EUROPEAN_PARTIES: ReadonlyArray<[string, string]> = [
  ['vermieter', 'landlord'], ['untervermieter', 'landlord'], ['mieter', 'tenant'], ['untermieter', 'tenant'], ['kaufer', 'buyer'], ['verkaufer', 'seller'],
  ['auftraggeber', 'client'], ['auftragnehmer', 'contractor'], ['arbeitgeber', 'employer'], ['arbeitnehmer', 'employee'], ...both('antragsteller', 'in', 'applicant'),
  ['zeuge', 'witness'], ...both('vertreter', 'in', 'agent'), ['vorstand', 'board'], ['burge', 'guarantor'], ['burgin', 'guarantor'],
  ['paciente', 'patient'], ['responsavel', 'guardian'], ['representante', 'agent'], ['medico', 'doctor'], ['vendedor', 'seller'], ['comprador', 'buyer'],
  ['locador', 'landlord'], ['locatario', 'tenant'], ['inquilino', 'tenant'], ['contratante', 'client'], ['contratado', 'contractor'], ['contratada', 'contractor'],
  ['testemunha', 'witness'], ['empregador', 'employer'], ['empregado', 'employee'], ...both('orientador', 'a', 'advisor'), ...both('examinador', 'a', 'examiner'),
  ['arrendador', 'landlord'], ['arrendatario', 'tenant'], ['testigo', 'witness'], ['cliente', 'client'], ...both('empleador', 'a', 'employer'),
  ...both('trabajador', 'a', 'employee'), ['deudor', 'borrower'], ['acreedor', 'lender'], ['fiador', 'guarantor'], ['avalista', 'guarantor'],
  ['locatore', 'landlord'], ['conduttore', 'tenant'], ['venditore', 'seller'], ['acquirente', 'buyer'], ['testimone', 'witness'], ['lavoratore', 'employee'],
  ['lavoratrice', 'employee'], ['committente', 'client'], ['appaltatore', 'contractor'], ['fornitore', 'supplier'], ['lieferant', 'supplier'],
  ['dienstleister', 'provider'], ['prestador', 'provider'], ['lizenzgeber', 'licensor'], ['lizenznehmer', 'licensee'], ['licenciante', 'licensor'],
  ['licenciatario', 'licensee'], ['comodante', 'lender'], ['comodatario', 'borrower'], ['cedente', 'assignor'], ['cessionario', 'assignee'],
  ['franqueador', 'franchisor'], ['franqueado', 'franchisee'],
  ['verhuurder', 'landlord'], ['huurder', 'tenant'], ['koper', 'buyer'], ['verkoper', 'seller'], ['getuige', 'witness'], ['leverancier', 'supplier'],
  ['opdrachtgever', 'client'], ['opdrachtnemer', 'contractor'], ['werkgever', 'employer'], ['werknemer', 'employee'],
];

/**
 * Words naming who signs without being a party of a contract ("Signature de l'intéressé(e)", "Unterschrift
 * des Erziehungsberechtigten", "Spouse's signature", "Assinatura do declarante"): after a caption they are
 * part of it, as party words are, but alone on a line they caption nothing.
 */
export const SIGNER_WORDS: readonly string[] = [
  'undersigned',
  'signer',
  'signee',
  'releasor',
  'insured',
  'policyholder',
  'holder',
  'member',
  'volunteer',
  'student',
  'parent',
  'parents',
  'spouse',
  'preparer',
  'taxpayer',
  'representative',
  'officer',
  'director',
  'manager',
  'supervisor',
  'trainee',
  'instructor',
  'teacher',
  'physician',
  'doctor',
  'minor',
  'resident',
  'partner',
  'person',
  'individual',
  'principal',
  'attorney',
  'legal',
  'authorized',
  'authorised',
  'interesse',
  'interessee',
  'soussigne',
  'soussignee',
  'assure',
  'assuree',
  'demandeur',
  'demanderesse',
  'representant',
  'representante',
  'titulaire',
  'beneficiaire',
  'adherent',
  'adherente',
  'candidat',
  'candidate',
  'eleve',
  'etudiant',
  'etudiante',
  'parrain',
  'parraine',
  'marraine',
  'responsable',
  'tuteur',
  'tutrice',
  'signataire',
  'conjoint',
  'conjointe',
  'benevole',
  'declarant',
  'deponent',
  'diretor',
  'diretora',
  'directora',
  'direttore',
  'direttrice',
  'directrice',
  'direktor',
  'direktorin',
  'directeur',
  'zeichnungsberechtigter',
  'zeichnungsberechtigte',
  'president',
  'presidente',
  'presidenta',
  'secretary',
  'secretario',
  'secretaria',
  'treasurer',
  // (A board's officers in each language: "Le Président   Le Secrétaire", "Il Presidente   Il Segretario".)
  ...['chairman', 'chairwoman', 'chairperson', 'secretaire', 'tresorier', 'tresoriere', 'segretario', 'segretaria', 'tesoriere'],
  ...['tesorero', 'tesorera', 'tesoureiro', 'tesoureira', 'voorzitter', 'secretaris', 'penningmeester', 'vocal', 'vogal'],
  // (Dutch: "Vertegenwoordiger club", "Handtekening voogd", "De ondergetekende", "Handtekening verzoeker".)
  ...['ondergetekende', 'vertegenwoordiger', 'voogd', 'deelnemer', 'aanvrager', 'verzoeker', 'huurder', 'verhuurder', 'werknemer', 'werkgever'],
  ...['leerling', 'cursist', 'rekeninghouder', 'gemachtigde', 'volmachtgever'],
  'coordinator',
  'coordinador',
  'coordinadora',
  'coordenador',
  'coordenadora',
  'coordinatore',
  'membre',
  'joueur',
  'joueuse',
  'licencie',
  'licenciee',
  'player',
  'miembro',
  'jugador',
  'jugadora',
  'spieler',
  'spielerin',
  'giocatore',
  'jogador',
  'affiant',
  'notary',
  'declarante',
  'mandant',
  'teilnehmer',
  'teilnehmerin',
  'teilnehmenden',
  'erziehungsberechtigten',
  'erziehungsberechtigte',
  'erziehungsberechtigter',
  'sorgeberechtigten',
  'schuler',
  'schulerin',
  'eltern',
  'elternteil',
  'bewerber',
  'bewerberin',
  'mitglied',
  'mitglieds',
  'unterzeichner',
  // A club's or a company's officers who sign for it.
  'vorsitzender',
  'vorsitzende',
  'vorsitzenden',
  'schatzmeister',
  'schatzmeisterin',
  'kassenwart',
  'kassenwartin',
  'schriftfuhrer',
  'schriftfuhrerin',
  'geschaftsfuhrer',
  'geschaftsfuhrerin',
  'unterzeichnenden',
  'kunde',
  'kunden',
  'kundin',
  'vollmachtgeber',
  'bevollmachtigte',
  'bevollmachtigten',
  'studierende',
  'studierenden',
  'doktorand',
  'doktorandin',
  // (A study's subject, its investigator, a minor, an interpreter: "Signature of Child/Adolescent Subject"; a coach, a mentor, an executor.)
  ...['subject', 'investigator', 'researcher', 'child', 'adolescent', 'interpreter', 'coach', 'mentor', 'intern', 'broker', 'executor', 'trustee'],
  // (An office whose holder signs under its title: "Registrar", "Le Maire", "Der Schulleiter", "El Alcalde", "Head of Department".)
  ...['head', 'dean', 'registrar', 'headmaster', 'headmistress', 'headteacher', 'mayor', 'accountant', 'hod', 'warden', 'proprietor'],
  ...['examiner', 'invigilator', 'chancellor', 'rector', 'provost', 'bursar', 'superintendent', 'commissioner', 'inspector', 'auditor', 'beneficiary'],
  ...['maire', 'proviseur', 'doyen', 'recteur', 'inspecteur', 'medecin', 'schulleiter', 'schulleiterin', 'schulleitung', 'leiter', 'leiterin'],
  ...['alcalde', 'alcaldesa', 'rectora', 'decano', 'decana', 'sindaco', 'preside', 'dirigente', 'rettore', 'prefeito', 'prefeita', 'reitor', 'reitora'],
  'doktoranden',
  'betreuer',
  'betreuerin',
  'betreuers',
  'ehegatte',
  'ehegatten',
  'gesetzlichen',
  'vertreters',
  'requerente',
  'candidato',
  'candidata',
  'aluno',
  'aluna',
  // (A student and whoever supervises the work: "Estudante      Supervisor", "Orientador".)
  ...['estudante', 'estudiante', 'orientador', 'orientadora', 'supervisora'],
  'titular',
  'beneficiario',
  'outorgante',
  'outorgado',
  'proprietario',
  'proprietaria',
  'recebedor',
  'pai',
  'mae',
  'conjuge',
  'voluntario',
  'solicitante',
  'interesado',
  'interesada',
  'alumno',
  'alumna',
  'padre',
  'madre',
  'tutor',
  'conyuge',
  'apoderado',
  'otorgante',
  'richiedente',
  'dichiarante',
  'interessato',
  'interessata',
  'genitore',
  'titolare',
  'studente',
  'tutore',
  'legale',
  'rappresentante',
  'sottoscritto',
  'sottoscritta',
  'intestatario',
  'intestataria',
  'correntista',
  'sottoscrittore',
  'contraente',
  'delegante',
  'delegato',
  'delegata',
  'dipendente',
  'lavoratore',
  'lavoratrice',
  'socio',
  'socia',
  'iscritto',
  'iscritta',
  'genitori',
  'esercente',
  'kontoinhaber',
  'kontoinhabers',
  'kontoinhaberin',
  'zahlungspflichtigen',
  'firmante',
  'stagiaire',
  'salarie',
  'salariee',
  'cardholder',
  'author',
  'authors',
  'autor',
  'autoren',
  'autorin',
  'auteur',
  'auteurs',
  'autore',
  'autori',
  'firmatario',
  'firmatari',
  'athlete',
  'aanvrager',
  'ondergetekende',
  'deelnemer',
  'ouder',
  'voogd',
  // Teachers and heads, who sign a school's forms beside pupils and parents.
  ...['alunno', 'alunna', 'dirigente', 'docente', 'insegnante', 'lehrer', 'lehrerin', 'klassenlehrer', 'klassenlehrerin', 'enseignant', 'enseignante'],
  // Arabic, folded as normalizeToken folds it: "توقيع ولي الأمر", "توقيع الطالب", "توقيع المدير" (the student, the guardian, the head).
  ...['ولي', 'االمر', 'الولي', 'الطالب', 'الطالبه', 'المدير', 'المديره', 'المسوول', 'المتدرب', 'المشارك', 'المريض', 'المتعهد', 'المقر'],
  ...['المترشح', 'المترشحه', 'المتقدم', 'المستفيد', 'الموظفه', 'العامل', 'الرييس', 'العضو', 'المعني', 'باالمر'],
];

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
