/**
 * Lines to sign on without a caption: a person's name typed under them on a page that speaks of signing
 * ("____" over "John Smith"), numbered, named or first under a heading of witnesses or signers (block-rows.ts),
 * under a closing formula (letter-closings.ts), or side by side in a row standing apart, who signs named under each (or one
 * beside a line captioned "Date" alone).
 */
import { DATE_WORDS, NAME_WORDS, partyAt } from './lexicon.js';
import { matchLabels } from './label-matching.js';
import { fillLines } from './filled-blanks.js';
import { DATUM_WORDS } from './datum-words.js';
import { blanksUnderHeading, linesUnder, namedRows, numberedBlanks, stackOverSignatures, under } from './block-rows.js';
import { linesUnderClosings } from './letter-closings.js';
import { overlap1, type Label, type Line, type Segment } from './page-model.js';
import { isSigner } from './caption-roles.js';
import { normalizeToken } from './token-folding.js';

/** Words of a page that speaks of signing: a signature block's lines may have only a name under them there. */
const SIGNING_WORDS = new Set([
  'signature',
  'signatures',
  'signed',
  'witness',
  'whereof',
  'unterschrift',
  'unterschriften',
  'firma',
  'firme',
  'assinatura',
  'signe',
  'firmado',
  // (Who signs, named as such: "The undersigned …", "Je soussigné(e) …", "Der Unterzeichnende …".)
  ...['undersigned', 'signatory', 'signatories', 'soussigne', 'soussignee', 'unterzeichner', 'unterzeichnende', 'sottoscritto', 'sottoscritta', 'firmante'],
  ...['suscribe', 'suscrito', 'suscrita', 'subscrito', 'subscrita'],
  // (The verbs of a closing formula: "as partes firmam o presente instrumento", "have executed this Agreement".)
  ...['firmam', 'assinam', 'firman', 'firmano', 'sottoscrivono', 'signent', 'unterschreiben', 'unterzeichnen', 'executed'],
  ...['assinado', 'assinada', 'assinados', 'assinadas', 'firmada', 'firmados', 'firmato', 'signee', 'unterschrieben'],
  // (A declaration's verb in the first person: its declarant signs it, "Declaro para os devidos fins …", "I hereby certify".)
  ...['declaro', 'declaramos', 'certifico', 'certificamos', 'atesto', 'atestamos', 'dichiaro', 'dichiariamo', 'certify', 'erklare', 'bestatige'],
  // (An approval given by those named under the lines: "approved by the board".)
  ...['approved', 'aprobado', 'aprobada', 'aprovado', 'aprovada', 'approvato', 'approvata', 'approuve', 'approuvee', 'genehmigt'],
]);
/** Particles of a person's name that are not capitalised ("Ludwig van Beethoven", "Maria da Silva"). */
const PARTICLES = new Set(['van', 'von', 'de', 'da', 'di', 'del', 'der', 'do', 'dos', 'la', 'le', 'bin', 'al']);

/**
 * Lines to sign on with a name typed under them and no caption ("____" over "John Smith" over "Chief
 * Executive Officer"), on a page that speaks of signing: a line or a run of underscores 100 to 460 pt long,
 * alone on its row, with room above it and, right under it, two to four capitalised words of body text and
 * nothing else, or such a name or the name left to type there over who signs ("(escreva aqui o nome do
 * orientador)" over "Membro titular"); on any page, "By:" or "Per:" and such a name ("By: John Smith, President"), or
 * a name with its identity number under it ("JUAN PÉREZ" over "RUT: 12.456.879-0").
 */
export function namedLines(lines: Line[], segments: Segment[], used: Set<Segment>): Segment[] {
  const signing = lines.some((l) => l.tokens.some((t) => SIGNING_WORDS.has(t)));
  // (Or the name's block says which party signs there: "Lider Celulares / Contratante".)
  const party = (s: Segment) =>
    lines.some(
      (l) => l.box.y0 > s.y && l.box.y0 - s.y <= 40 && overlap1(l.box.x0, l.box.x1, s.x0, s.x1) > 0 && l.tokens.some((_, k) => partyAt(l.tokens, k) !== null),
    );
  return segments.filter((s) => {
    if (used.has(s) || !lineToSign(s, lines, segments)) return false;
    const under = linesUnder(s, lines);
    const name = under[0];
    if (!name || name.box.x0 < s.x0 - 20 || name.box.x1 > s.x1 + 20) return false;
    // (Whoever signs is named under the line on any page, in any size, when the caption gives the name, over
    // the rest of who they are: "Nombre y apellidos: Oscar Huarcaya Canal" over "Dirección e-mail: …".)
    if (namedAfterCaption(name)) return true;
    if (name.size > 13) return false;
    // (Or the name left to type there, "(escreva aqui o nome do orientador)", with who signs under it or not:
    // "Membro titular", "Prof. (a) Orientador(a)".)
    const placeholder = namePlaceholder(name);
    if (under.length === 2 && (placeholder || typedName(name)) && roleLine(under[1] as Line)) return signing || party(s);
    if (under.length !== 1) return false;
    // (Capitalised words that ask for something else and not for a signature are a caption, no name: "Ort, Datum" read "Od Datum", "Name Vorname".)
    // (Or with the signer's identity number under the name, on any page: "JUAN PÉREZ" over "RUT: 12.456.879-0"; or a firm's
    // name with the person who signs for it under it: "ACME Ltda." over "João Silva".)
    const next = lineUnder(name, lines);
    const identified = next !== undefined && namedBlock([name, next]) && (identity(next) || (firmName(name) && typedName(next)));
    return signedBy(name) || ((signing || party(s) || identified) && ((asksOnlyToSign(name) && (typedName(name) || officeName(name))) || placeholder));
  });
}

/** The line right under `line` (within a line and a half of its size), across it. */
const lineUnder = (line: Line, lines: readonly Line[]): Line | undefined =>
  lines.find(
    (o) => o !== line && o.box.y0 >= line.box.y1 - 1 && o.box.y0 - line.box.y1 <= 1.5 * line.size && overlap1(o.box.x0, o.box.x1, line.box.x0, line.box.x1) > 0,
  );

/**
 * A line of a signature block's length (100 to 460 pt: a contract's lines may run across its text) with room above it:
 * nothing written within 14 pt over it (a run of underscores is no writing), and no other rule right over or under it (a
 * double border's, a logo's or a heading's).
 */
function lineToSign(s: Segment, lines: readonly Line[], segments: readonly Segment[]): boolean {
  if (s.x1 - s.x0 < 100 || s.x1 - s.x0 > 460) return false;
  const text = (l: Line) => l.tokens.some((t) => t !== '\0');
  if (lines.some((l) => text(l) && l.box.y1 >= s.y - 14 && l.box.y0 <= s.y - 1 && l.box.x1 > s.x0 - 40 && l.box.x0 < s.x1 + 40)) return false;
  // (A rule on its very height is the line itself, drawn twice.)
  return !segments.some((o) => o !== s && Math.abs(s.y - o.y) > 1 && Math.abs(s.y - o.y) <= 20 && overlap1(o.x0, o.x1, s.x0, s.x1) > 0);
}

/** Words saying to write there ("escreva aqui o nome"): a placeholder's, not a caption's ("(Print Name)"). */
const HERE = new Set(['aqui', 'here', 'ici', 'hier', 'qui', 'aca']);

/**
 * A name left to type where it stands, the whole line in parentheses or brackets saying to write it there
 * ("(escreva aqui o nome do orientador)", "[write your name here]"); not a caption in parentheses or
 * brackets ("(Print Name)", "[name of association]"), which names the line over it.
 */
export function namePlaceholder(line: Line): boolean {
  const text = line.words.map((w) => w.text.trim()).join(' ');
  if (!/^[[(<].*[\])>]$/.test(text)) return false;
  // (Or a template's placeholder in brackets for a party's name, "[NOME CONTRATANTE]", "[Client Name]": that party signs over it.)
  const party = /^\[.*\]$/.test(text) && line.tokens.some((_, k) => partyAt(line.tokens, k) !== null);
  return (line.tokens.some((t) => HERE.has(t)) || party) && line.tokens.some((t) => NAME_WORDS.has(t));
}

/** Who signs, named under the name: a short line of words, no colon, no figures, no datum ("Membro titular", "Chief Executive Officer"). */
function roleLine(line: Line): boolean {
  return (
    line.words.length <= 5 &&
    !line.tokens.includes('\0') &&
    !line.words.some((w) => /[:：\d]/.test(w.text)) &&
    !line.tokens.some((t) => DATUM_WORDS.has(t) || NAME_WORDS.has(t)) &&
    asksOnlyToSign(line)
  );
}

/** Words under a line that ask for nothing but a signature: no caption of another kind, no datum word ("Relationship to Patient"). */
export function asksOnlyToSign(line: Line): boolean {
  const asks = matchLabels(line.tokens);
  return (asks.length === 0 || asks.some((m) => m.entry.type === 'signature')) && !line.tokens.some((t) => DATUM_WORDS.has(t));
}

/** "By: John Smith, President", "Per: Jane Doe" under a line: who signs on it, named after the word that says so. */
function signedBy(line: Line): boolean {
  const [first, ...rest] = line.words.map((w) => w.text.trim());
  if (!first || !/^(by|per)[:.]?$/i.test(first) || rest.length === 0) return false;
  const name = rest.join(' ').split(',')[0]?.trim().split(/\s+/) ?? [];
  return name.length >= 2 && name.length <= 4 && name.every((w) => /^\p{Lu}/u.test(w));
}

/** A name caption with the name written after its colon ("Nombre y apellidos: Oscar Huarcaya Canal"): the line over it is for the signature, not the name. */
function namedAfterCaption(line: Line): boolean {
  const colon = line.words.findIndex((w) => w.text.trim().endsWith(':'));
  const asks = matchLabels(line.tokens);
  if (colon < 0 || asks.length !== 1 || asks[0]?.entry.fieldKey !== 'signer_name') return false;
  const rest = line.words.slice(colon + 1);
  return rest.length > 0 && typedName({ ...line, words: rest });
}

/** A word of a name as printed: capitalised, or a particle after the first word ("Maria da Silva", "Secretaria do Curso"). */
const capitalisedOrParticle = (w: string, i: number): boolean => /^\p{Lu}[\p{L}'’.-]*,?$/u.test(w) || (i > 0 && PARTICLES.has(w.toLowerCase()));

/** A person's name typed on its own line: two to four capitalised names and the particles between them ("John Smith", "Maria da Silva", "Smith, John"). */
export function typedName(line: Line): boolean {
  const words = line.words.map((w) => w.text.trim());
  // (The party or signer a name signs as may follow it in parentheses: "JOÃO PEREIRA LIMA (LOCATÁRIO)".)
  const role = /^\((\p{L}+)\)$/u.exec(words.at(-1) ?? '')?.[1];
  if (role && words.length > 2 && (isSigner(normalizeToken(role)) || partyAt([normalizeToken(role)], 0) !== null)) words.pop();
  // (Two to four names, the particles between them not counted: "Francisco Paulo de Freitas Neto".)
  const names = words.filter((w) => !PARTICLES.has(w.toLowerCase())).length;
  // (Initials alone are an abbreviation, no name: "D. N. I.".)
  return (
    words.length >= 2 &&
    names <= 4 &&
    words.length <= 6 &&
    words.every(capitalisedOrParticle) &&
    /^\p{Lu}/u.test(words[words.length - 1] as string) &&
    words.some((w) => /\p{L}{2}/u.test(w))
  );
}

/** The offices and services that sign a certificate or a declaration in their name ("Secretaria do Curso de …", "Secretaría Académica"). */
const OFFICES = new Set([
  ...['coordenacao', 'coordinacion', 'coordination', 'coordinamento', 'koordination', 'direcao', 'direccion', 'direction', 'direzione', 'diretoria'],
  ...['secretaria', 'secretariat', 'segreteria', 'sekretariat', 'departamento', 'department', 'departement', 'dipartimento', 'abteilung'],
  ...['presidencia', 'presidence', 'presidenza', 'reitoria', 'rectorado', 'rectorat', 'rettorato', 'gerencia', 'decanato', 'jefatura', 'chefia'],
  ...['leitung', 'geschaftsfuhrung', 'vorstand', 'administration', 'administracao', 'administracion', 'amministrazione', 'ufficio', 'oficina'],
]);
/** Words of a form's part kept for an office, not an office's name ("Department Use Only", "Secretaria de Uso Exclusivo …"). */
const RESERVED = new Set([
  'use',
  'only',
  'uso',
  'usage',
  'exclusive',
  'exclusivo',
  'exclusiva',
  'reserve',
  'reservee',
  'reservado',
  'reservada',
  'riservato',
  'vorbehalten',
]);

/** An office's or a service's name on its line: an office's word first, capitalised words and particles after it, at most eight. */
function officeName(line: Line): boolean {
  const words = line.words.map((w) => w.text.trim());
  return (
    words.length >= 2 &&
    words.length <= 8 &&
    OFFICES.has(line.tokens[0] as string) &&
    !line.tokens.some((t) => RESERVED.has(t)) &&
    words.every(capitalisedOrParticle)
  );
}

/** A name typed on its line, then the name's identity or the rest of a firm's name on the lines under it ("Jane Doe" / "CPF: 783.621.764-12"). */
export function namedBlock(block: readonly Line[]): boolean {
  const [name, ...more] = block;
  return name !== undefined && (typedName(name) || firmName(name)) && more.every((l) => typedName(l) || identity(l) || firmSuffix(l));
}

/** A line giving a person's or a firm's identity number: "CPF: 783.621.764-12", "DNI 12345678", "CNPJ: 42.518.541/0001-56". */
function identity(l: Line): boolean {
  const first = l.tokens.find((t) => t !== '\0');
  return first !== undefined && (DATUM_WORDS.has(first) || IDENTITY_NUMBERS.has(first)) && l.tokens.some((t) => /\d/.test(t));
}
/** Names of firms' and persons' identity numbers a signature block prints under the name. */
const IDENTITY_NUMBERS = new Set([
  'cnpj',
  'rg',
  'nif',
  'nie',
  'cif',
  'siret',
  'siren',
  'ssn',
  'ein',
  'steuernummer',
  'codice',
  'cf',
  'piva',
  'ruc',
  'cuit',
  'curp',
  'rfc',
]);
const LEGAL_FORM = /^(?:ltda|s\.?a\.?|s\.?l\.?|gmbh|srl|s\.?r\.?l\.?|sarl|sas|inc\.?|llc|ltd\.?|eireli|me|epp)$/i;
/** A firm's legal form alone on its line, the end of its name printed over it: "LTDA", "S.A.", "GmbH". */
function firmSuffix(l: Line): boolean {
  const words = l.words.map((w) => w.text.trim()).filter((w) => w.length > 0);
  return words.length === 1 && LEGAL_FORM.test(words[0] as string);
}
/** A legal form as firms write it after their name (case kept: "Call Me" does not end in Brazil's "ME"). */
const LEGAL_FORM_AFTER = /^(?:LTDA|Ltda|S\.?A|S\.?L|GmbH|SRL|S\.?r\.?l|SARL|SAS|Inc|LLC|Ltd|EIRELI|ME|EPP)$/;
/** A firm's name on its own line, ending in its legal form: "ACME – SERVIÇOS GERAIS LTDA.", "Müller & Söhne GmbH". */
function firmName(l: Line): boolean {
  const words = l.words.map((w) => w.text.trim()).filter((w) => w.length > 0);
  const name = words.slice(0, -1);
  return (
    name.length >= 1 &&
    words.length <= 8 &&
    LEGAL_FORM_AFTER.test((words.at(-1) as string).replace(/[.,]$/, '')) &&
    name.some((w) => /\p{L}{2}/u.test(w)) &&
    name.every((w, i) => capitalisedOrParticle(w, i) || /^[&–-]$/.test(w))
  );
}

/** Lines to sign on without a caption: a name typed under them, numbered or named under a heading of witnesses or signers, under a closing, or in a row of signers' lines. */
export function captionlessLines(lines: Line[], segments: Segment[], used: Set<Segment>): Array<{ segment: Segment; role?: string; floor?: number }> {
  return [
    ...namedLines(lines, segments, used).map((segment) => ({ segment })),
    ...numberedBlanks(lines, segments).filter((b) => !used.has(b.segment)),
    ...namedRows(lines, segments, used),
    ...blanksUnderHeading(lines, segments, used),
    ...stackOverSignatures(lines, segments, used).map((segment) => ({ segment })),
    ...linesUnderClosings(lines, segments, used).map((segment) => ({ segment })),
    ...signersRow(lines, segments, used).map((segment) => ({ segment })),
    ...captionedBlocks(lines, segments, used).map((segment) => ({ segment })),
  ];
}

/**
 * A signature block's line with the signer's captions stacked under it and no caption of its own: `Name:` right under it at its
 * left, then `Title:` or `Date:` (each alone on its line with its colon, the rest of the line left to fill in): one signs
 * on the line over them, on any page.
 */
function captionedBlocks(lines: Line[], segments: Segment[], used: Set<Segment>): Segment[] {
  const caption = (l: Line | undefined, words: ReadonlySet<string>) =>
    l !== undefined &&
    l.words.length <= 3 &&
    /[:：]$/.test(l.words.at(-1)?.text.trim() ?? '') &&
    l.tokens.some((t) => words.has(t)) &&
    l.tokens.every((t) => words.has(t) || STOPWORDS_OF_CAPTIONS.has(t));
  return segments.filter((s) => {
    if (used.has(s) || !lineToSign(s, lines, segments)) return false;
    const name = linesUnder(s, lines)[0];
    if (!name || Math.abs(name.box.x0 - s.x0) > 20 || !caption(name, NAME_WORDS)) return false;
    const next = lineUnder(name, lines);
    return next !== undefined && Math.abs(next.box.x0 - name.box.x0) <= 4 && caption(next, STACKED);
  });
}

/** Words qualifying a signer's caption ("Printed Name:", "Name in full:"). */
const STOPWORDS_OF_CAPTIONS = new Set(['printed', 'print', 'full', 'in', 'your', 'typed', 'of', 'signer', 'signatory']);

/** A row of lines to sign stands apart: no other line or blank run this far (pt) over or under it. */
const ROW_APART = 50;

/**
 * A row of two or more lines to sign side by side, standing apart from any other line or blank (a form's rows of
 * fields stand close), each with a short line of words right under it naming who signs, asking for nothing else
 * and with nothing more under it (a name over its address is a block of data): "Protokollführer   1. Vorstand"
 * over "________   ________" over "Markus Kraus   Peter Lux", minutes signed by their writer and their chair,
 * on any page. A line is 100 to 460 pt long with room above it (`lineToSign`), the words under it within its span
 * (`roleLine`: at most five words, no colon, no figures, no datum).
 */
function signersRow(lines: Line[], segments: Segment[], used: Set<Segment>): Segment[] {
  // (The one line under it, alone: a name with its address or number under it is a block of data, as a letterhead's.)
  const only = (s: Segment) =>
    ((under) => (under.length === 1 && lineUnder(under[0] as Line, lines) === undefined ? under[0] : undefined))(linesUnder(s, lines));
  const named = (s: Segment) => ((l) => l !== undefined && l.size <= 13 && l.box.x0 >= s.x0 - 20 && l.box.x1 <= s.x1 + 20 && roleLine(l))(only(s));
  const apart = (s: Segment) =>
    !segments.some((o) => Math.abs(o.y - s.y) > 3 && Math.abs(o.y - s.y) <= ROW_APART && o.x1 - o.x0 >= 40) &&
    !lines.some((l) => l.tokens.includes('\0') && Math.abs(l.baseline - s.y) > 4 && Math.abs(l.baseline - s.y) <= ROW_APART);
  const rowed = segments.filter((s) => !used.has(s) && lineToSign(s, lines, segments) && named(s) && apart(s));
  const beside = (s: Segment, o: Segment) => o !== s && Math.abs(o.y - s.y) <= 3 && (o.x0 >= s.x1 + 10 || o.x1 <= s.x0 - 10);
  // (Or one line whose signer is named under it beside a line captioned "Date" alone: "Person Obtaining Consent   Date".)
  const dated = (o: Segment) => ((l) => l !== undefined && l.tokens.length > 0 && l.tokens.every((t) => DATE_WORDS.has(t)))(only(o));
  const whose = (s: Segment) =>
    ((l) => l !== undefined && l.words.length <= 8 && !l.words.some((w) => /[:：\d]/.test(w.text)) && l.tokens.some(isSigner) && asksOnlyToSign(l))(only(s));
  const signer = segments.filter(
    (s) => !used.has(s) && lineToSign(s, lines, segments) && apart(s) && whose(s) && segments.some((o) => o.x1 - o.x0 >= 40 && beside(s, o) && dated(o)),
  );
  return [...rowed.filter((s) => rowed.some((o) => beside(s, o))), ...signer.filter((s) => !rowed.includes(s))];
}

/** Words asking for whoever signs' title or office ("Name/Title", "Nome" over "Cargo"). */
export const TITLE_WORDS: ReadonlySet<string> = new Set([
  'title',
  'position',
  'designation',
  'cargo',
  'funcao',
  'funcion',
  'puesto',
  'fonction',
  'qualite',
  'qualifica',
  'ruolo',
  'carica',
  'funktion',
]);
/** What a signer's block asks for under its name: the title, or the date. */
const STACKED: ReadonlySet<string> = new Set([...TITLE_WORDS, ...DATE_WORDS]);

/**
 * Name captions under a line that ask for the title of whoever signs too, and for nothing else ("Name/Title" under a line, "Nome do
 * Professor" over "Cargo"), caption where one signs: a line asking for the name alone is for the name; asking for the title too, it
 * is a signature block's (a line 100 to 460 pt long, no other rule right over or under it, nothing written right over it), where one signs over
 * one's name and office; not in a block asking for the signature itself. Such a caption becomes a signature caption, and the other
 * captions of its line ask for nothing.
 */
export function signersByTitle(labels: Label[], lines: Line[], rules: readonly Segment[]): Label[] {
  // (Drawn or a run of underscores alone on its line.)
  const segments = [...rules, ...fillLines(lines)];
  const caption = (l: Line | undefined): l is Line =>
    l !== undefined && l.words.length <= 5 && !l.tokens.includes('\0') && !l.words.some((w) => /[:：\d]/.test(w.text));
  const signs = labels.filter((o) => o.entry.type === 'signature');
  for (const label of labels) {
    const first = label.line;
    if ((label.entry.fieldKey !== 'signer_name' && label.entry.fieldKey !== 'job_title') || !caption(first) || !first.tokens.some((t) => NAME_WORDS.has(t)))
      continue;
    const line = segments.find(
      (s) => lineToSign(s, lines, segments) && under(first, s.y, s.x0, s.x1) && first.box.x0 >= s.x0 - 20 && first.box.x1 <= s.x1 + 20,
    );
    const second = lines.find((l) => l !== first && under(l, first.box.y1, first.box.x0, first.box.x1));
    const titled =
      first.tokens.some((t) => TITLE_WORDS.has(t)) || (caption(second) && second.words.length <= 3 && second.tokens.some((t) => TITLE_WORDS.has(t)));
    // (Not in a block that asks for the signature itself, over or under the line: "Authorized Signature" over "Printed Name and Title".)
    const asked = (s: Segment) => signs.some((o) => Math.abs(o.box.y0 - s.y) <= 100 && overlap1(o.box.x0, o.box.x1, s.x0, s.x1) > 0);
    if (!line || !titled || asked(line) || labels.some((o) => o.line === first && o.entry.type !== 'text')) continue;
    const { fieldKey: _, ...entry } = label.entry;
    label.entry = { ...entry, type: 'signature', strength: 'strong' };
    for (const o of labels) if (o !== label && o.line === first) o.done = true;
  }
  return labels;
}
