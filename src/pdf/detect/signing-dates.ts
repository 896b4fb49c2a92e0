/**
 * Signing dates only. A date field is suggested where the label says it is the date of signing ("Date
 * signed", "Date de signature", "Dated"), where the text writes it as a formula of blanks (date-formulas.ts:
 * "Fait à … le", "executed on (month) __ (day) __ (year) __", "signed this __ day of __"), or where a bare
 * "Date" stands beside a place to sign. Birth, issue, expiry, period and other dates a form asks for are
 * not signing dates and get no date field.
 */
import { normalizeToken } from './token-folding.js';
import { overlap1, rectOf, type Label, type Line, type Rect, type Suggestion } from './page-model.js';

/** Words that make a date some other date than the signing date. */
export const OTHER_DATE = new Set(
  [
    'birth',
    'born',
    'dob',
    'issue',
    'issued',
    'expiry',
    'expiration',
    'expires',
    'expire',
    'valid',
    'validity',
    'start',
    'end',
    'from',
    'period',
    'effective',
    'commencement',
    'hire',
    'arrival',
    // (The day a pupil or a recruit reports for the first time: "Date of Reporting".)
    'reporting',
    'departure',
    'delivery',
    'payment',
    'due',
    'closing',
    // (An event's date: "Date of the event", "Fecha del evento", "Date de l'événement", "Datum der Veranstaltung".)
    ...['event', 'evento', 'evenement', 'veranstaltung'],
    'purchase',
    'death',
    'marriage',
    'incorporation',
    'registration',
    'termination',
    'completion',
    'admission',
    'leaving',
    'joining',
    'enrolment',
    'enrollment',
    'discharge',
    'move',
    'lease',
    'rental',
    'invoice',
    'order',
    'service',
    'naissance',
    'ne',
    'nee',
    'delivre',
    'delivree',
    'delivrance',
    'validite',
    'debut',
    'fin',
    'effet',
    'echeance',
    'embauche',
    'arrivee',
    'depart',
    'livraison',
    'paiement',
    'deces',
    'mariage',
    'entree',
    'sortie',
    'emission',
    'expiration',
    'peremption',
    'ميلاد',
    // (Birth in the Maghreb's wording: "تاريخ الازدياد".)
    'ازدياد',
    'الازدياد',
    'الميلاد',
    'الولاده',
    'اصدار',
    'الاصدار',
    'انتهاء',
    'الانتهاء',
    'الصلاحيه',
    'البدء',
    'بدايه',
    'نهايه',
    'الاستحقاق',
    'לידה',
    'הנפקה',
    'תפוגה',
    'geburt',
    'geboren',
    'geb',
    'beginn',
    'ende',
    'ablauf',
    'ausstellung',
    'ausgestellt',
    'gultig',
    'einreise',
    'prufung',
    'ersttermin',
    'zahlung',
    'nascimento',
    // (Birth abbreviated on a form's crowded row: "Data Nasc.", "Fecha Nac.", "Date de naiss.".)
    ...['nasc', 'nac', 'naiss'],
    // A birthday's row ("Geburtstag", "Birthday", "Cumpleaños").
    ...['geburtstag', 'birthday', 'cumpleanos', 'compleanno', 'anniversaire', 'aniversario'],
    'nascida',
    'nascido',
    'emissao',
    'validade',
    'vencimento',
    'pagamento',
    'inicio',
    'termino',
    'admissao',
    'entrega',
    'nacimiento',
    'nacido',
    'expedicion',
    'vencimiento',
    'pago',
    'ingreso',
    'nascita',
    'nato',
    'nata',
    'rilascio',
    'scadenza',
    // (An office's decision on a request, its own date: "Date de la décision", "Fecha de resolución".)
    ...['decision', 'decisao', 'decisione', 'entscheidung', 'resolucion', 'recevabilite'],
    'assunzione',
    'geboortedatum',
    'geboren',
    'рождения',
    'выдачи',
    // A medical certificate's date, asked for on a membership form ("Data certificato medico").
    'certificato',
    'certificat',
    'certificado',
    'atestado',
    // A journey's dates: leaving and coming back ("Fecha de salida", "Fecha de regreso", "Date of return").
    ...['salida', 'regreso', 'retorno', 'return', 'retour', 'partenza', 'ritorno', 'abreise', 'ruckreise', 'ruckkehr', 'partida', 'regresso'],
    // (A medical prescription's date: "Date de la prescription".)
    ...['prescription', 'prescripcion', 'prescrizione', 'prescricao', 'verordnung'],
    // A leave's or a holiday's dates.
    'vacation',
    'leave',
    'holiday',
    'conge',
    'conges',
    'urlaub',
    'ferien',
    'vacaciones',
    'ferias',
    'ferie',
    'اجازه',
    'الاجازه',
    'العطله',
    // A decision's or a filing's date, with its file number and court ("Datum, Az., Gericht").
    'az',
    'aktenzeichen',
    'gericht',
    // When the office received the form ("Date received", "Eingangsdatum", "Reçu le").
    'received',
    'receipt',
    'recu',
    'recue',
    'eingang',
    'eingegangen',
    'recibido',
    'recepcion',
    'ricevuto',
    'recebido',
    'recebimento',
  ].map(normalizeToken),
);
/** Words that say the date is the signing date. */
export const SIGNING_DATE = new Set(
  [
    'signed',
    'signature',
    'sign',
    'signing',
    'executed',
    'unterschrieben',
    'firmato',
    'assinado',
    'firmado',
    'execution',
    'dated',
    'signe',
    'signee',
    'fait',
    'التوقيع',
    'توقيع',
    'חתימה',
    // Where and when one signs: "Ort, Datum", "Luogo e data", "Lugar y fecha", "Local e data", "Plaats en datum".
    'unterschrift',
    'ort',
    'assinatura',
    'local',
    'firma',
    'lugar',
    'luogo',
    'plaats',
    'handtekening',
  ].map(normalizeToken),
);
const BARE = new Set(['date', 'datum', 'data', 'fecha', 'التاريخ', 'تاريخ', 'תאריך'].map(normalizeToken));

/** A date label that names another date than the signing date ("Date of birth", "Date / Lieu de naissance"). */
export function otherDate(label: Label): boolean {
  if (bareDate(label) && label.inSentence && !ofToday(label)) return true;
  // ("Date of" with nothing after it but blanks: the caption goes on under it, "Date of / Leaving"; it names its own date.)
  const t = label.line.tokens;
  const k = t.indexOf(label.entry.tokens[0] as string);
  if (bareDate(label) && k >= 0 && OF.has(t[k + 1] ?? '') && t.slice(k + 2).every((x) => x === '\0')) return true;
  return label.entry.type === 'date' && label.tokens.some((t) => OTHER_DATE.has(t)) && !label.entry.tokens.some((t) => SIGNING_DATE.has(t));
}

const OF = new Set(['of', 'de', 'du', 'des', 'di', 'del', 'da', 'do', 'der']);

/**
 * "Today's date": the day the form is filled in, a signing date only beside a place to sign (a bare date
 * then, not words of a sentence before it).
 */
const TODAY = new Set(['today', 'todays', 'heute', 'oggi', 'hoy', 'hoje'].map(normalizeToken));
const ofToday = (label: Label): boolean => {
  const k = label.tokens.indexOf(label.entry.tokens[0] as string);
  const before = label.tokens.slice(0, Math.max(0, k)).filter((t) => t !== 's');
  return before.length === 1 && TODAY.has(before[0] as string);
};

/**
 * A date's blank whose row another date's caption opens, at its left ("Geburtstag [____]" with "datum" under the
 * blank, "Date of birth ______ (dd/mm/yyyy)"): that date's, whatever caption the blank has of its own.
 */
export function onOtherDateRow(rect: Rect, lines: readonly Line[]): boolean {
  const left = lines
    .filter((l) => l.box.x1 <= rect.x0 + 2 && rect.x0 - l.box.x1 <= 120 && overlap1(l.box.y0, l.box.y1, rect.y0, rect.y1) >= 0.5 * (l.box.y1 - l.box.y0))
    .sort((a, b) => b.box.x1 - a.box.x1)[0];
  return left !== undefined && left.tokens.some((t) => OTHER_DATE.has(t)) && !left.tokens.some((t) => SIGNING_DATE.has(t));
}

/** "Date" alone: a signing date only beside a place to sign. */
export function bareDate(label: Label): boolean {
  return (
    label.entry.type === 'date' &&
    label.entry.tokens.length === 1 &&
    BARE.has(label.entry.tokens[0] as string) &&
    !label.tokens.some((t) => SIGNING_DATE.has(t))
  );
}

/** Beside a place to sign: on its row, in the rows right above or below it, or in the block around it (above or below, in the same columns). */
export function besideSignature(rect: Rect, places: readonly Rect[]): boolean {
  return places.some((p) => {
    const sameRow = overlap1(p.y0, p.y1, rect.y0, rect.y1) > 0;
    if (sameRow) return true;
    const dy = rect.y0 >= p.y1 ? rect.y0 - p.y1 : p.y0 - rect.y1;
    const dx = Math.max(0, Math.max(p.x0, rect.x0) - Math.min(p.x1, rect.x1));
    // (A row or two apart, anywhere across the page: "Data ____" at the left over "Firma" at the right.)
    return (dy <= 90 && dx <= 60) || dy <= 45;
  });
}

/**
 * Whether a field is kept, given the page's bare dates ("Date: ____" alone): a bare date beside a place to sign
 * is the signing date; so is the page's only date, bare, when its places to sign are under it or at most 200 pt
 * over it ("Date: ____" closing a consent's statement, the signatures further down the page).
 */
export function keptDate(bare: ReadonlySet<Suggestion>, out: readonly Suggestion[], places: readonly Rect[]): (s: Suggestion) => boolean {
  const lone = bare.size === 1 && places.length > 0 && !out.some((o) => o.type === 'date' && !bare.has(o));
  const top = Math.min(...places.map((p) => p.y0));
  return (s) => !bare.has(s) || besideSignature(rectOf(s), places) || (lone && s.y > top - 200);
}

/** Whether a field written out stands on a caption's row (over half the row's height). */
export const onCaptionRow = (written: Suggestion, label: Label): boolean =>
  overlap1(written.y, written.y + written.height, label.line.box.y0, label.line.box.y1) >= 0.5 * (label.line.box.y1 - label.line.box.y0);

/** A date written out on a caption's row, after its start ("Dated this ___ day of ___, 20__" on the row "Dated" opens): the caption's date. */
export const writtenAfter = (written: Suggestion, label: Label): boolean =>
  written.type === 'date' && written.x >= label.box.x0 - 2 && onCaptionRow(written, label);

/** The words heading a column of times ("Heure", "Time", "Uhrzeit"), normalised. */
const TIME_HEADERS = new Set(['heure', 'time', 'hora', 'uhrzeit', 'zeit', 'ora', 'horario', 'tijd', 'الساعة', 'الوقت'].map(normalizeToken));

/**
 * A date caption heading a column beside a column of times ("Date | Heure | Quantité | Administré par", a
 * timesheet's "Date | Start Time | End Time"): a log's rows say when something was done, not when the document was signed.
 */
export function timedColumn(label: Label, lines: readonly Line[]): boolean {
  const { line } = label;
  return lines.some(
    (l) =>
      l !== line &&
      Math.abs(l.baseline - line.baseline) <= 0.5 * line.size &&
      Math.abs((l.box.x0 + l.box.x1) / 2 - (line.box.x0 + line.box.x1) / 2) <= 200 &&
      l.tokens.length <= 2 &&
      l.tokens.some((t) => TIME_HEADERS.has(t)),
  );
}
