import type { Locale } from '../../domain/locales.js';

/** The words of paraph's own mails, per language. `{x}` marks a value filled in. */
export type MailKind = 'invitation' | 'reminder' | 'replacement' | 'otp' | 'completed';

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
    },
    greeting: 'Hello {name},',
    greetingNoName: 'Hello,',
    intro: {
      invitation: '{sender} asks you to review and sign the document "{document}".',
      reminder: 'This is a reminder: the document "{document}" is still waiting for your signature.',
      replacement: '{sender} asks you to review and sign the document "{document}" in place of the previous signer.',
      completed: 'Every signer has signed the document "{document}". Your copy of the signed document is ready to download.',
    },
    button: 'Review and sign',
    buttonCompleted: 'Download the signed document',
    linkHint: 'If the button does not work, copy this link into your browser:',
    expires: 'The link is valid until {date}.',
    expiresCopy: 'This link stays valid as long as the document is kept, until {date}.',
    messageFrom: 'Message from {sender}:',
    otpIntro: 'Enter this code on the signing page to see the document "{document}":',
    otpValidity: 'The code is valid for 10 minutes. If you did not ask for it, ignore this email.',
    onBehalf: 'This email is sent by {brand} on behalf of {sender}.',
    onBehalfNoSender: 'This email is sent by {brand} on behalf of its client.',
    sandbox: 'Sandbox: a test environment with fictitious data. No signature made here has legal effect.',
  },
  fr: {
    dir: 'ltr',
    subject: {
      invitation: '{sender} vous invite à signer « {document} »',
      reminder: 'Rappel : merci de signer « {document} »',
      replacement: '{sender} vous invite à signer « {document} »',
      otp: 'Votre code de vérification : {code}',
      completed: '« {document} » est signé : votre exemplaire',
    },
    greeting: 'Bonjour {name},',
    greetingNoName: 'Bonjour,',
    intro: {
      invitation: '{sender} vous invite à consulter et signer le document « {document} ».',
      reminder: 'Petit rappel : le document « {document} » attend toujours votre signature.',
      replacement: '{sender} vous invite à consulter et signer le document « {document} » à la place du signataire précédent.',
      completed: 'Tous les signataires ont signé le document « {document} ». Votre exemplaire signé est prêt à être téléchargé.',
    },
    button: 'Consulter et signer',
    buttonCompleted: 'Télécharger le document signé',
    linkHint: 'Si le bouton ne fonctionne pas, copiez ce lien dans votre navigateur :',
    expires: 'Ce lien expire le {date}.',
    expiresCopy: 'Ce lien reste valable tant que le document est conservé, jusqu’au {date}.',
    messageFrom: 'Message de {sender} :',
    otpIntro: 'Saisissez ce code sur la page de signature pour voir le document « {document} » :',
    otpValidity: 'Le code est valable 10 minutes. Si vous ne l’avez pas demandé, ignorez cet e-mail.',
    onBehalf: 'Cet e-mail est envoyé par {brand} pour le compte de {sender}.',
    onBehalfNoSender: 'Cet e-mail est envoyé par {brand} pour le compte de son client.',
    sandbox: 'Bac à sable : environnement de test avec des données fictives. Aucune signature faite ici n’a de valeur juridique.',
  },
  ar: {
    dir: 'rtl',
    subject: {
      invitation: 'دعوة من {sender} إلى توقيع «{document}»',
      reminder: 'تذكير: يُرجى توقيع «{document}»',
      replacement: 'دعوة من {sender} إلى توقيع «{document}»',
      otp: 'رمز التحقق الخاص بك: {code}',
      completed: 'اكتمل توقيع «{document}»: نسختك جاهزة',
    },
    greeting: 'مرحبًا {name}،',
    greetingNoName: 'مرحبًا،',
    intro: {
      invitation: 'وصلك طلب من {sender} لمراجعة المستند «{document}» وتوقيعه.',
      reminder: 'تذكير: لا يزال المستند «{document}» بانتظار توقيعك.',
      replacement: 'وصلك طلب من {sender} لمراجعة المستند «{document}» وتوقيعه بدلًا من الموقّع السابق.',
      completed: 'وقّع جميع الموقّعين المستند «{document}». نسختك من المستند الموقَّع جاهزة للتنزيل.',
    },
    button: 'مراجعة وتوقيع',
    buttonCompleted: 'تنزيل المستند الموقَّع',
    linkHint: 'إذا لم يعمل الزر، فانسخ هذا الرابط إلى متصفحك:',
    expires: 'الرابط صالح حتى {date}.',
    expiresCopy: 'يبقى هذا الرابط صالحًا ما دام المستند محفوظًا، حتى {date}.',
    messageFrom: 'رسالة من {sender}:',
    otpIntro: 'أدخل هذا الرمز في صفحة التوقيع للاطلاع على المستند «{document}»:',
    otpValidity: 'الرمز صالح لمدة 10 دقائق. إذا لم تطلبه، فتجاهل هذه الرسالة.',
    onBehalf: 'أُرسلت هذه الرسالة عبر {brand} نيابةً عن {sender}.',
    onBehalfNoSender: 'أُرسلت هذه الرسالة عبر {brand} نيابةً عن أحد عملائه.',
    sandbox: 'بيئة تجريبية: بيانات وهمية، ولا أثر قانونيًا لأي توقيع يتم هنا.',
  },
};
