/** The 6-digit code in the text of an email-code mail, or null. */
export function emailCodeIn(text: string): string | null {
  return /\b(\d{6})\b/.exec(text)?.[1] ?? null;
}

/**
 * The secret that shows a browser or client entered the email code of a link: a cookie scoped to the
 * link's path (HttpOnly, SameSite=Strict) for the signing page, and the same value in a header for
 * clients without cookies (`paraph sign`, the programmatic `sign()`, the embed iframe).
 */
export const VERIFICATION_COOKIE = 'signer_verification';
export const VERIFICATION_HEADER = 'signer-verification';
