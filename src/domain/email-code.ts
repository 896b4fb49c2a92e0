/** The 6-digit code in the text of an email-code mail, or null. */
export function emailCodeIn(text: string): string | null {
  return /\b(\d{6})\b/.exec(text)?.[1] ?? null;
}
