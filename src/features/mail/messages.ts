import type { Locale } from '../../domain/locales.js';

/** The words of paraph's own mails, per language. `{x}` marks a value filled in. */
export type MailKind = 'invitation' | 'reminder' | 'replacement' | 'otp' | 'completed' | 'turn' | 'cancelled';

export interface MailWords {
  dir: 'ltr' | 'rtl';
  subject: Record<MailKind, string>;
  greeting: string;
  greetingNoName: string;
  intro: Record<Exclude<MailKind, 'otp'>, string>;
  button: string;
  buttonCompleted: string;
  linkHint: string;
  expires: string;
  expiresCopy: string;
  messageFrom: string;
  otpIntro: string;
  otpValidity: string;
  onBehalf: string;
  onBehalfNoSender: string;
  sandbox: string;
  /** Put before the sender's own subject on a reminder and a turn mail. */
  subjectPrefix: Record<'reminder' | 'turn', string>;
  /** A reminder: the links of earlier mails no longer work. */
  rotated: string;
  /** A signer who must wait (sequential signing): `{names}` sign first. */
  waiting: string;
  /** A cancellation: the reason the sender gave. */
  reasonFrom: string;
}

export const MAIL_WORDS: Readonly<Record<Locale, MailWords>> = {
  en: {
    dir: 'ltr',
    subject: {
      invitation: '{sender} invites you to sign "{document}"',
      reminder: 'Reminder: please sign "{document}"',
      replacement: '{sender} invites you to sign "{document}"',
      otp: 'Your verification code: {code}',
      completed: '"{document}" is signed: your copy',
      turn: 'Your turn to sign "{document}"',
      cancelled: 'Cancelled: "{document}" no longer needs your signature',
    },
    greeting: 'Hello {name},',
    greetingNoName: 'Hello,',
    intro: {
      invitation: '{sender} asks you to review and sign the document "{document}".',
      reminder: 'This is a reminder: the document "{document}" is still waiting for your signature.',
      replacement: '{sender} asks you to review and sign the document "{document}" in place of the previous signer.',
      completed: 'Every signer has signed the document "{document}". Your copy of the signed document is ready to download.',
      turn: '{names} signed the document "{document}". It is now your turn: {sender} asks you to review and sign it.',
      cancelled: '{sender} cancelled the signature request for the document "{document}". You no longer need to sign it, and its signing links no longer work.',
    },
    button: 'Review and sign',
    buttonCompleted: 'Download the signed document',
    linkHint: 'If the button does not work, copy this link into your browser:',
    expires: 'The link is valid until {date}.',
    expiresCopy: 'This link stays valid as long as the document is kept, until {date}.',
    messageFrom: 'Message from {sender}:',
    otpIntro: 'Enter this code on the signing page to see the document "{document}":',
    otpValidity: 'The code is valid for {minutes} minutes. If you did not ask for it, ignore this email.',
    onBehalf: 'This email is sent by {brand} on behalf of {sender}.',
    onBehalfNoSender: 'This email is sent by {brand} on behalf of its client.',
    sandbox: 'Sandbox: a test environment with fictitious data. No signature made here has legal effect.',
    subjectPrefix: { reminder: 'Reminder: ', turn: 'Your turn: ' },
    rotated: 'This email replaces the earlier ones: the links they carried no longer work.',
    waiting: 'Signing is in order: {names} must sign first. We will email you when it is your turn; this link will then let you sign.',
    reasonFrom: 'Reason given by {sender}:',
  },
  fr: {
    dir: 'ltr',
    subject: {
      invitation: '{sender} vous invite à signer « {document} »',
      reminder: 'Rappel : merci de signer « {document} »',
      replacement: '{sender} vous invite à signer « {document} »',
      otp: 'Votre code de vérification : {code}',
      completed: '« {document} » est signé : votre exemplaire',
      turn: 'À vous de signer « {document} »',
      cancelled: 'Annulé : « {document} » n’est plus à signer',
    },
    greeting: 'Bonjour {name},',
    greetingNoName: 'Bonjour,',
    intro: {
      invitation: '{sender} vous invite à consulter et signer le document « {document} ».',
      reminder: 'Petit rappel : le document « {document} » attend toujours votre signature.',
      replacement: '{sender} vous invite à consulter et signer le document « {document} » à la place du signataire précédent.',
      completed: 'Tous les signataires ont signé le document « {document} ». Votre exemplaire signé est prêt à être téléchargé.',
      turn: 'Le document « {document} » a été signé par {names}. C’est maintenant votre tour : {sender} vous invite à le consulter et le signer.',
      cancelled:
        '{sender} a annulé la demande de signature du document « {document} ». Vous n’avez plus à le signer et ses liens de signature ne fonctionnent plus.',
    },
    button: 'Consulter et signer',
    buttonCompleted: 'Télécharger le document signé',
    linkHint: 'Si le bouton ne fonctionne pas, copiez ce lien dans votre navigateur :',
    expires: 'Ce lien expire le {date}.',
    expiresCopy: 'Ce lien reste valable tant que le document est conservé, jusqu’au {date}.',
    messageFrom: 'Message de {sender} :',
    otpIntro: 'Saisissez ce code sur la page de signature pour voir le document « {document} » :',
    otpValidity: 'Le code est valable {minutes} minutes. Si vous ne l’avez pas demandé, ignorez cet e-mail.',
    onBehalf: 'Cet e-mail est envoyé par {brand} pour le compte de {sender}.',
    onBehalfNoSender: 'Cet e-mail est envoyé par {brand} pour le compte de son client.',
    sandbox: 'Bac à sable : environnement de test avec des données fictives. Aucune signature faite ici n’a de valeur juridique.',
    subjectPrefix: { reminder: 'Rappel : ', turn: 'À vous de signer : ' },
    rotated: 'Cet e-mail remplace les précédents : les liens qu’ils contenaient ne fonctionnent plus.',
    waiting:
      'La signature se fait dans l’ordre : {names} doit signer avant vous. Nous vous écrirons quand ce sera votre tour ; ce lien vous permettra alors de signer.',
    reasonFrom: 'Motif indiqué par {sender} :',
  },
  ar: {
    dir: 'rtl',
    subject: {
      invitation: 'دعوة من {sender} إلى توقيع «{document}»',
      reminder: 'تذكير: يُرجى توقيع «{document}»',
      replacement: 'دعوة من {sender} إلى توقيع «{document}»',
      otp: 'رمز التحقق الخاص بك: {code}',
      completed: 'اكتمل توقيع «{document}»: نسختك جاهزة',
      turn: 'حان دورك لتوقيع «{document}»',
      cancelled: 'أُلغي: لم يعد «{document}» بحاجة إلى توقيعك',
    },
    greeting: 'مرحبًا {name}،',
    greetingNoName: 'مرحبًا،',
    intro: {
      invitation: 'وصلك طلب من {sender} لمراجعة المستند «{document}» وتوقيعه.',
      reminder: 'تذكير: لا يزال المستند «{document}» بانتظار توقيعك.',
      replacement: 'وصلك طلب من {sender} لمراجعة المستند «{document}» وتوقيعه بدلًا من الموقّع السابق.',
      completed: 'وقّع جميع الموقّعين المستند «{document}». نسختك من المستند الموقَّع جاهزة للتنزيل.',
      turn: 'وقّع {names} المستند «{document}». حان دورك الآن: يطلب منك {sender} مراجعته وتوقيعه.',
      cancelled: 'ألغى {sender} طلب توقيع المستند «{document}». لم تعد بحاجة إلى توقيعه، ولم تعد روابط التوقيع الخاصة به تعمل.',
    },
    button: 'مراجعة وتوقيع',
    buttonCompleted: 'تنزيل المستند الموقَّع',
    linkHint: 'إذا لم يعمل الزر، فانسخ هذا الرابط إلى متصفحك:',
    expires: 'الرابط صالح حتى {date}.',
    expiresCopy: 'يبقى هذا الرابط صالحًا ما دام المستند محفوظًا، حتى {date}.',
    messageFrom: 'رسالة من {sender}:',
    otpIntro: 'أدخل هذا الرمز في صفحة التوقيع للاطلاع على المستند «{document}»:',
    otpValidity: 'الرمز صالح لمدة {minutes} دقائق. إذا لم تطلبه، فتجاهل هذه الرسالة.',
    onBehalf: 'أُرسلت هذه الرسالة عبر {brand} نيابةً عن {sender}.',
    onBehalfNoSender: 'أُرسلت هذه الرسالة عبر {brand} نيابةً عن أحد عملائه.',
    sandbox: 'بيئة تجريبية: بيانات وهمية، ولا أثر قانونيًا لأي توقيع يتم هنا.',
    subjectPrefix: { reminder: 'تذكير: ', turn: 'حان دورك: ' },
    rotated: 'تحل هذه الرسالة محل الرسائل السابقة: الروابط التي تضمنتها لم تعد تعمل.',
    waiting: 'يتم التوقيع بالترتيب: يجب أن يوقّع أولًا {names}. سنرسل إليك رسالة عندما يحين دورك، وسيتيح لك هذا الرابط التوقيع حينها.',
    reasonFrom: 'السبب الذي ذكره {sender}:',
  },
};
