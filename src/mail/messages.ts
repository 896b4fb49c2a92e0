/** The words of paraph's own mails, per language. `{x}` marks a value filled in. */
export type MailLocale = 'en' | 'fr' | 'ar';
export type MailKind = 'invitation' | 'reminder' | 'replacement' | 'otp';

export interface MailWords {
  dir: 'ltr' | 'rtl';
  subject: Record<MailKind, string>;
  greeting: string;
  greetingNoName: string;
  intro: Record<Exclude<MailKind, 'otp'>, string>;
  button: string;
  linkHint: string;
  expires: string;
  otpIntro: string;
  otpValidity: string;
  onBehalf: string;
  onBehalfNoSender: string;
  sandbox: string;
}

export const MAIL_WORDS: Readonly<Record<MailLocale, MailWords>> = {
  en: {
    dir: 'ltr',
    subject: {
      invitation: '{sender} invites you to sign "{document}"',
      reminder: 'Reminder: please sign "{document}"',
      replacement: '{sender} invites you to sign "{document}"',
      otp: 'Your verification code: {code}',
    },
    greeting: 'Hello {name},',
    greetingNoName: 'Hello,',
    intro: {
      invitation: '{sender} asks you to review and sign the document "{document}".',
      reminder: 'This is a reminder: the document "{document}" is still waiting for your signature.',
      replacement: '{sender} asks you to review and sign the document "{document}" in place of the previous signer.',
    },
    button: 'Review and sign',
    linkHint: 'Or open this link in your browser:',
    expires: 'The link is valid until {date}.',
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
    },
    greeting: 'Bonjour {name},',
    greetingNoName: 'Bonjour,',
    intro: {
      invitation: '{sender} vous invite à consulter et signer le document « {document} ».',
      reminder: 'Petit rappel : le document « {document} » attend toujours votre signature.',
      replacement: '{sender} vous invite à consulter et signer le document « {document} » à la place du signataire précédent.',
    },
    button: 'Consulter et signer',
    linkHint: 'Ou ouvrez ce lien dans votre navigateur :',
    expires: 'Le lien est valable jusqu’au {date}.',
    otpIntro: 'Saisissez ce code sur la page de signature pour voir le document « {document} » :',
    otpValidity: 'Le code est valable 10 minutes. Si vous ne l’avez pas demandé, ignorez cet e-mail.',
    onBehalf: 'Cet e-mail est envoyé par {brand} pour le compte de {sender}.',
    onBehalfNoSender: 'Cet e-mail est envoyé par {brand} pour le compte de son client.',
    sandbox: 'Bac à sable : environnement de test avec des données fictives. Aucune signature faite ici n’a de valeur juridique.',
  },
  ar: {
    dir: 'rtl',
    subject: {
      invitation: '{sender} يدعوك إلى توقيع «{document}»',
      reminder: 'تذكير: يرجى توقيع «{document}»',
      replacement: '{sender} يدعوك إلى توقيع «{document}»',
      otp: 'رمز التحقق الخاص بك: {code}',
    },
    greeting: 'مرحبًا {name}،',
    greetingNoName: 'مرحبًا،',
    intro: {
      invitation: 'يطلب منك {sender} مراجعة المستند «{document}» وتوقيعه.',
      reminder: 'تذكير: لا يزال المستند «{document}» بانتظار توقيعك.',
      replacement: 'يطلب منك {sender} مراجعة المستند «{document}» وتوقيعه بدلًا من الموقّع السابق.',
    },
    button: 'مراجعة وتوقيع',
    linkHint: 'أو افتح هذا الرابط في متصفحك:',
    expires: 'الرابط صالح حتى {date}.',
    otpIntro: 'أدخل هذا الرمز في صفحة التوقيع للاطلاع على المستند «{document}»:',
    otpValidity: 'الرمز صالح لمدة 10 دقائق. إذا لم تطلبه، فتجاهل هذه الرسالة.',
    onBehalf: 'أُرسلت هذه الرسالة من {brand} نيابةً عن {sender}.',
    onBehalfNoSender: 'أُرسلت هذه الرسالة من {brand} نيابةً عن عميلها.',
    sandbox: 'بيئة تجريبية: بيانات وهمية، ولا أثر قانونيًا لأي توقيع يتم هنا.',
  },
};
