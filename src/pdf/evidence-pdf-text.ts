/**
 * The words of the evidence report, in the languages a signer can use: English (always printed),
 * French and Arabic (printed when a signer of the request uses them). Times and hashes stay as they
 * are in every language: ISO dates in UTC, Western digits, so the sections compare at a glance.
 */

export type ReportLanguage = 'en' | 'fr' | 'ar';

export interface ReportText {
  /** Names the section in the language list of the first page. */
  languageName: string;
  title: string;
  reference: string;
  warningTitle: string;
  warning: string;
  /** Under the title of a translated section. */
  translationNote: string;
  /** Under the title of the English section when translations follow. */
  contentsNote: (others: string[]) => string;
  document: string;
  name: string;
  signatureRequest: string;
  clientReference: string;
  status: string;
  signingOrder: string;
  sequential: string;
  anyOrder: string;
  created: string;
  completed: string;
  purgedAfter: string;
  integrity: string;
  originalHash: string;
  signedHash: string;
  seal: string;
  sealValue: (level: string) => string;
  certificate: string;
  certificateHash: string;
  certificateSerial: string;
  certificateValidity: string;
  validityRange: (from: string, to: string) => string;
  trust: string;
  trustValue: string;
  timestampHeading: string;
  noTimestamp: string;
  timestamp: string;
  authority: string;
  stamped: (algorithm: string) => string;
  timestampStatus: Record<string, string>;
  timestampNote: string;
  signers: string;
  signerReference: string;
  language: string;
  signed: string;
  verification: string;
  verificationOtp: (at: string) => string;
  verificationNone: string;
  signature: string;
  initials: string;
  method: Record<'drawn' | 'typed', string>;
  noMark: string;
  values: string;
  prefilled: string;
  timeline: string;
  columns: { number: string; time: string; event: string; actor: string };
  actors: Record<string, string>;
  auditTrail: string;
  auditIntro: (count: number) => string;
  headCovers: (id: number, event: string, at: string) => string;
  nextEvent: (id: number, event: string) => string;
  verifyAnswer: (count: number) => string;
  chainHead: string;
  coversEvent: string;
  checkIt: string;
  footer: (ref: string, page: number, pages: number) => string;
  generated: (at: string) => string;
  requestStatus: Record<string, string>;
  signerStatus: Record<string, string>;
  languages: Record<string, string>;
  events: Record<string, string>;
}

const EN: ReportText = {
  languageName: 'English',
  title: 'Evidence report',
  reference: 'Evidence reference',
  warningTitle: 'TEST ENVIRONMENT - NO LEGAL VALUE',
  warning:
    'This document was sealed by the paraph sandbox with its self-signed test certificate. It is not an ' +
    'advanced or qualified electronic signature: no production trust service, no identity verification, ' +
    'no qualified timestamp and no long-term archive were involved. Use it for integration testing with ' +
    'fictitious data only.',
  translationNote: '',
  contentsNote: (others) => `This report is also given in ${others.join(' and ')}, after the English version, which prevails.`,
  document: 'Document',
  name: 'Name',
  signatureRequest: 'Signature request',
  clientReference: 'Client reference',
  status: 'Status',
  signingOrder: 'Signing order',
  sequential: 'sequential',
  anyOrder: 'any order',
  created: 'Created',
  completed: 'Completed',
  purgedAfter: 'Content purged after',
  integrity: 'Integrity',
  originalHash: 'Original PDF SHA-256',
  signedHash: 'Signed PDF SHA-256',
  seal: 'Seal',
  sealValue: (level) => `PAdES baseline ${level} (ETSI.CAdES.detached), one signature over the whole signed PDF`,
  certificate: 'Certificate',
  certificateHash: 'Certificate SHA-256',
  certificateSerial: 'Certificate serial',
  certificateValidity: 'Certificate validity',
  validityRange: (from, to) => `${from} to ${to}`,
  trust: 'Trust',
  trustValue: 'test/self-signed certificate; not issued by a trust service',
  timestampHeading: 'Timestamp',
  noTimestamp: 'The seal carries no timestamp (PAdES B-B): its time is the signing time in the signature dictionary, stated by paraph alone.',
  timestamp: 'Timestamp',
  authority: 'Authority',
  stamped: (algorithm) => `Stamped ${algorithm}`,
  timestampStatus: {
    verified: "verified: the token's signature and content were checked against the authority's certificate",
    unverified: "not verified: the authority's certificate (trust anchor) was not available to paraph",
    failed: 'FAILED: the token does not check against its authority',
  },
  timestampNote:
    "Each is an RFC 3161 token over the SHA-256 of the seal's signature value (signature-time-stamp attribute); none is a qualified timestamp.",
  signers: 'Signers',
  signerReference: 'Reference',
  language: 'Language',
  signed: 'Signed',
  verification: 'Verification',
  verificationOtp: (at) => `email code, entered ${at}`,
  verificationNone: 'none (access through the signing link)',
  signature: 'Signature',
  initials: 'Initials',
  method: { drawn: 'drawn', typed: 'typed' },
  noMark: 'none',
  values: 'Values',
  prefilled: 'prefilled by the sender',
  timeline: 'Event timeline',
  columns: { number: '#', time: 'Time (UTC)', event: 'Event', actor: 'Actor' },
  actors: { api_client: 'API client', signer: 'signer', system: 'paraph' },
  auditTrail: 'Audit trail',
  auditIntro: (count) =>
    `The ${count} events above are paraph's audit trail of this request up to this report. The trail is append-only ` +
    "and hash-chained: each event's SHA-256 covers its content and the previous event's hash, so a changed, " +
    'removed or reordered event breaks the chain.',
  headCovers: (id, event, at) => `The chain head below is the hash of event #${id} (${event}, ${at}), the last event this report covers.`,
  nextEvent: (id, event) =>
    `Storing this report adds event #${id}, ${event} (artifacts_generated), which records the SHA-256 of this report, ` +
    'of the signed PDF and of the evidence JSON: a report cannot contain its own hash. Its previous hash is the chain head below.',
  verifyAnswer: (count) => `So paraph audit verify reports ${count} events and the hash of that last event as its chain head.`,
  chainHead: 'Chain head',
  coversEvent: 'Covers events',
  checkIt: 'Check it',
  footer: (ref, page, pages) => `paraph evidence report ${ref} - page ${page} of ${pages}`,
  generated: (at) => `generated ${at} (sandbox clock)`,
  requestStatus: { completed: 'completed' },
  signerStatus: { signed: 'signed', declined: 'declined', pending: 'pending', expired: 'expired', replaced: 'replaced' },
  languages: { en: 'English', fr: 'French', ar: 'Arabic' },
  events: {
    request_created: 'Request created',
    request_activated: 'Request sent to the signers',
    fields_confirmed: 'Fields confirmed',
    link_issued: 'Signing link issued',
    reminder_sent: 'Reminder sent',
    signer_viewed: 'Document opened by the signer',
    otp_sent: 'Email code sent',
    otp_verified: 'Email code verified',
    otp_failed: 'Wrong email code entered',
    signer_signed: 'Signed by the signer',
    signer_declined: 'Declined by the signer',
    signer_replaced: 'Signer replaced',
    signer_corrected: 'Signer details corrected',
    signer_expired: 'Signing link expired',
    request_completed: 'Request completed',
    request_declined: 'Request declined',
    request_cancelled: 'Request cancelled',
    request_expired: 'Request expired',
    request_purged: 'Content purged',
    artifacts_generated: 'Artifacts generated',
  },
};

const FR: ReportText = {
  languageName: 'Français',
  title: 'Rapport de preuve',
  reference: 'Référence de preuve',
  warningTitle: 'ENVIRONNEMENT DE TEST - SANS VALEUR JURIDIQUE',
  warning:
    'Ce document a été scellé par le bac à sable paraph avec son certificat de test auto-signé. Ce n’est pas ' +
    'une signature électronique avancée ou qualifiée : aucun prestataire de confiance de production, aucune ' +
    'vérification d’identité, aucun horodatage qualifié ni aucun archivage à long terme n’y ont pris part. À ' +
    'n’utiliser que pour des tests d’intégration avec des données fictives.',
  translationNote: 'Traduction de la version anglaise, qui fait foi.',
  contentsNote: () => '',
  document: 'Document',
  name: 'Nom',
  signatureRequest: 'Demande de signature',
  clientReference: 'Référence client',
  status: 'Statut',
  signingOrder: 'Ordre de signature',
  sequential: 'séquentiel',
  anyOrder: 'dans n’importe quel ordre',
  created: 'Créée le',
  completed: 'Terminée le',
  purgedAfter: 'Contenu supprimé après le',
  integrity: 'Intégrité',
  originalHash: 'SHA-256 du PDF d’origine',
  signedHash: 'SHA-256 du PDF signé',
  seal: 'Sceau',
  sealValue: (level) => `PAdES baseline ${level} (ETSI.CAdES.detached), une signature sur l’ensemble du PDF signé`,
  certificate: 'Certificat',
  certificateHash: 'SHA-256 du certificat',
  certificateSerial: 'N° de série du certificat',
  certificateValidity: 'Validité du certificat',
  validityRange: (from, to) => `du ${from} au ${to}`,
  trust: 'Confiance',
  trustValue: 'certificat de test auto-signé ; non délivré par un prestataire de confiance',
  timestampHeading: 'Horodatage',
  noTimestamp:
    'Le sceau ne porte aucun horodatage (PAdES B-B) : son heure est l’heure de signature du dictionnaire de signature, déclarée par paraph seul.',
  timestamp: 'Horodatage',
  authority: 'Autorité',
  stamped: (algorithm) => `${algorithm} horodaté`,
  timestampStatus: {
    verified: 'vérifié : la signature et le contenu du jeton ont été contrôlés avec le certificat de l’autorité',
    unverified: 'non vérifié : le certificat de l’autorité (ancre de confiance) n’était pas disponible pour paraph',
    failed: 'ÉCHEC : le jeton ne se vérifie pas avec son autorité',
  },
  timestampNote:
    'Chacun est un jeton RFC 3161 sur le SHA-256 de la valeur de signature du sceau (attribut signature-time-stamp) ; aucun n’est un horodatage qualifié.',
  signers: 'Signataires',
  signerReference: 'Référence',
  language: 'Langue',
  signed: 'Signé le',
  verification: 'Vérification',
  verificationOtp: (at) => `code par e-mail, saisi le ${at}`,
  verificationNone: 'aucune (accès par le lien de signature)',
  signature: 'Signature',
  initials: 'Paraphe',
  method: { drawn: 'dessinée', typed: 'saisie au clavier' },
  noMark: 'aucune',
  values: 'Valeurs',
  prefilled: 'prérempli par l’expéditeur',
  timeline: 'Chronologie des événements',
  columns: { number: 'N°', time: 'Heure (UTC)', event: 'Événement', actor: 'Auteur' },
  actors: { api_client: 'client API', signer: 'signataire', system: 'paraph' },
  auditTrail: 'Piste d’audit',
  auditIntro: (count) =>
    `Les ${count} événements ci-dessus forment la piste d’audit de cette demande jusqu’à ce rapport. Elle ne fait que ` +
    's’allonger et ses événements sont chaînés : le SHA-256 de chacun couvre son contenu et l’empreinte du précédent, ' +
    'si bien qu’un événement modifié, supprimé ou déplacé rompt la chaîne.',
  headCovers: (id, event, at) => `La tête de chaîne ci-dessous est l’empreinte de l’événement n° ${id} (${event}, ${at}), le dernier que couvre ce rapport.`,
  nextEvent: (id, event) =>
    `L’enregistrement de ce rapport ajoute l’événement n° ${id}, ${event} (artifacts_generated), qui consigne le SHA-256 ` +
    'de ce rapport, du PDF signé et du JSON de preuve : un rapport ne peut pas contenir sa propre empreinte. Son empreinte ' +
    'précédente est la tête de chaîne ci-dessous.',
  verifyAnswer: (count) => `paraph audit verify indique donc ${count} événements, avec l’empreinte de ce dernier comme tête de chaîne.`,
  chainHead: 'Tête de chaîne',
  coversEvent: 'Événements couverts',
  checkIt: 'Pour vérifier',
  footer: (ref, page, pages) => `rapport de preuve paraph ${ref} - page ${page} sur ${pages}`,
  generated: (at) => `généré le ${at} (horloge du bac à sable)`,
  requestStatus: { completed: 'terminée' },
  signerStatus: { signed: 'signé', declined: 'refusé', pending: 'en attente', expired: 'expiré', replaced: 'remplacé' },
  languages: { en: 'anglais', fr: 'français', ar: 'arabe' },
  events: {
    request_created: 'Demande créée',
    request_activated: 'Demande envoyée aux signataires',
    fields_confirmed: 'Champs confirmés',
    link_issued: 'Lien de signature émis',
    reminder_sent: 'Relance envoyée',
    signer_viewed: 'Document ouvert par le signataire',
    otp_sent: 'Code envoyé par e-mail',
    otp_verified: 'Code e-mail vérifié',
    otp_failed: 'Code e-mail erroné saisi',
    signer_signed: 'Signé par le signataire',
    signer_declined: 'Refusé par le signataire',
    signer_replaced: 'Signataire remplacé',
    signer_corrected: 'Coordonnées du signataire corrigées',
    signer_expired: 'Lien de signature expiré',
    request_completed: 'Demande terminée',
    request_declined: 'Demande refusée',
    request_cancelled: 'Demande annulée',
    request_expired: 'Demande expirée',
    request_purged: 'Contenu supprimé',
    artifacts_generated: 'Documents de preuve produits',
  },
};

const AR: ReportText = {
  languageName: 'العربية',
  title: 'تقرير الإثبات',
  reference: 'مرجع الإثبات',
  warningTitle: 'بيئة اختبار - بلا قيمة قانونية',
  warning:
    'خُتمت هذه الوثيقة في بيئة paraph التجريبية بشهادة الاختبار الموقّعة ذاتيًا. ليست توقيعًا إلكترونيًا متقدمًا ' +
    'أو مؤهلًا: لم تشارك فيها أي خدمة ثقة فعلية، ولا أي تحقق من الهوية، ولا أي ختم زمني مؤهل، ولا أي أرشفة طويلة ' +
    'الأمد. لا تُستخدم إلا لاختبارات التكامل ببيانات وهمية.',
  translationNote: 'ترجمة للنسخة الإنجليزية، وهي المعتمدة.',
  contentsNote: () => '',
  document: 'الوثيقة',
  name: 'الاسم',
  signatureRequest: 'طلب التوقيع',
  clientReference: 'مرجع العميل',
  status: 'الحالة',
  signingOrder: 'ترتيب التوقيع',
  sequential: 'متسلسل',
  anyOrder: 'بأي ترتيب',
  created: 'تاريخ الإنشاء',
  completed: 'تاريخ الاكتمال',
  purgedAfter: 'يُحذف المحتوى بعد',
  integrity: 'السلامة',
  originalHash: 'بصمة SHA-256 لملف PDF الأصلي',
  signedHash: 'بصمة SHA-256 لملف PDF الموقّع',
  seal: 'الختم',
  sealValue: (level) => `توقيع واحد على ملف PDF الموقّع كله، بصيغة PAdES baseline ${level} (ETSI.CAdES.detached)`,
  certificate: 'الشهادة',
  certificateHash: 'بصمة SHA-256 للشهادة',
  certificateSerial: 'الرقم التسلسلي للشهادة',
  certificateValidity: 'صلاحية الشهادة',
  validityRange: (from, to) => `من ${from} إلى ${to}`,
  trust: 'الثقة',
  trustValue: 'شهادة اختبار موقّعة ذاتيًا، لم تصدرها خدمة ثقة',
  timestampHeading: 'الختم الزمني',
  noTimestamp: 'لا يحمل الختم أي ختم زمني (PAdES B-B): وقته هو وقت التوقيع المذكور في قاموس التوقيع، ولا يشهد عليه إلا paraph.',
  timestamp: 'الختم الزمني',
  authority: 'الجهة',
  stamped: (algorithm) => `قيمة ${algorithm} المختومة`,
  timestampStatus: {
    verified: 'تم التحقق: فُحص توقيع الرمز ومحتواه بشهادة الجهة',
    unverified: 'لم يتم التحقق: شهادة الجهة (مرساة الثقة) لم تكن متاحة لـ paraph',
    failed: 'فشل: الرمز لا يتطابق مع جهته',
  },
  timestampNote: 'كلٌّ منها رمز RFC 3161 على SHA-256 لقيمة توقيع الختم (السمة signature-time-stamp)، وليس أيٌّ منها ختمًا زمنيًا مؤهلًا.',
  signers: 'الموقّعون',
  signerReference: 'المرجع',
  language: 'اللغة',
  signed: 'تاريخ التوقيع',
  verification: 'التحقق',
  verificationOtp: (at) => `رمز عبر البريد الإلكتروني، أُدخل في ${at}`,
  verificationNone: 'لا يوجد (الدخول عبر رابط التوقيع)',
  signature: 'التوقيع',
  initials: 'الأحرف الأولى',
  method: { drawn: 'مرسوم باليد', typed: 'مكتوب بلوحة المفاتيح' },
  noMark: 'لا يوجد',
  values: 'القيم',
  prefilled: 'عبّأه المرسل مسبقًا',
  timeline: 'التسلسل الزمني للأحداث',
  columns: { number: '#', time: 'الوقت (UTC)', event: 'الحدث', actor: 'الفاعل' },
  actors: { api_client: 'عميل API', signer: 'الموقّع', system: 'paraph' },
  auditTrail: 'سجل التدقيق',
  auditIntro: (count) =>
    `الأحداث الـ ${count} أعلاه هي سجل التدقيق لهذا الطلب حتى هذا التقرير. لا يُضاف إلى السجل إلا في آخره، وأحداثه ` +
    'مترابطة بالتجزئة: يغطي SHA-256 كل حدث محتواه وتجزئة الحدث السابق، فأي حدث يُعدَّل أو يُحذف أو يُعاد ترتيبه يكسر السلسلة.',
  headCovers: (id, event, at) => `رأس السلسلة أدناه هو تجزئة الحدث رقم ${id} (${event}، ${at})، وهو آخر حدث يغطيه هذا التقرير.`,
  nextEvent: (id, event) =>
    `حفظ هذا التقرير يضيف الحدث رقم ${id}، ${event} (artifacts_generated)، الذي يسجّل SHA-256 لهذا التقرير ولملف PDF ` +
    'الموقّع ولملف JSON الخاص بالإثبات، إذ لا يمكن لتقرير أن يحتوي تجزئته الخاصة. وتجزئته السابقة هي رأس السلسلة أدناه.',
  verifyAnswer: (count) => `لذلك يُظهر الأمر paraph audit verify عدد ${count} حدثًا، وتجزئة ذلك الحدث الأخير رأسًا للسلسلة.`,
  chainHead: 'رأس السلسلة',
  coversEvent: 'الأحداث المشمولة',
  checkIt: 'للتحقق',
  footer: (ref, page, pages) => `تقرير إثبات paraph ${ref} - الصفحة ${page} من ${pages}`,
  generated: (at) => `أُنشئ في ${at} (ساعة البيئة التجريبية)`,
  requestStatus: { completed: 'مكتمل' },
  signerStatus: { signed: 'وقّع', declined: 'رفض', pending: 'قيد الانتظار', expired: 'منتهي الصلاحية', replaced: 'استُبدل' },
  languages: { en: 'الإنجليزية', fr: 'الفرنسية', ar: 'العربية' },
  events: {
    request_created: 'إنشاء الطلب',
    request_activated: 'إرسال الطلب إلى الموقّعين',
    fields_confirmed: 'تأكيد الحقول',
    link_issued: 'إصدار رابط التوقيع',
    reminder_sent: 'إرسال تذكير',
    signer_viewed: 'فتح الموقّع الوثيقة',
    otp_sent: 'إرسال رمز بالبريد الإلكتروني',
    otp_verified: 'التحقق من رمز البريد الإلكتروني',
    otp_failed: 'إدخال رمز بريد إلكتروني خاطئ',
    signer_signed: 'توقيع الموقّع',
    signer_declined: 'رفض الموقّع',
    signer_replaced: 'استبدال الموقّع',
    signer_corrected: 'تصحيح بيانات الموقّع',
    signer_expired: 'انتهاء صلاحية رابط التوقيع',
    request_completed: 'اكتمال الطلب',
    request_declined: 'رفض الطلب',
    request_cancelled: 'إلغاء الطلب',
    request_expired: 'انتهاء صلاحية الطلب',
    request_purged: 'حذف المحتوى',
    artifacts_generated: 'إنشاء مستندات الإثبات',
  },
};

export const REPORT_TEXT: Readonly<Record<ReportLanguage, ReportText>> = { en: EN, fr: FR, ar: AR };

/** The report's languages: English first, then French and Arabic when a signer uses them. */
export function reportLanguages(locales: ReadonlyArray<string | null | undefined>): ReportLanguage[] {
  const used = new Set(locales.map((l) => (l ?? '').toLowerCase().split(/[-_]/)[0]));
  return ['en', ...(['fr', 'ar'] as const).filter((l) => used.has(l))];
}

/** An event's readable name; a type this table does not know yet shows as its code. */
export function eventName(type: string, text: ReportText): string {
  return text.events[type] ?? type;
}
