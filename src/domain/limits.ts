/**
 * The numbers of the API description (its "Limits" table and its field rules), in one place: the
 * TypeBox schemas of src/contract/ and the code that enforces a rule both read them from here.
 */

export const MINUTE_MS = 60 * 1000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/** PDF size: request document, template document. */
export const MAX_PDF_MIB = 8;
export const MAX_PDF_BYTES = MAX_PDF_MIB * 1024 * 1024;
/** Content retention: every content is purged this long after the original PDF upload. */
export const RETENTION_MS = 10 * DAY_MS;

/** List endpoints: `limit` is 1 to MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE when omitted. */
export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;

/** Signers per request (and signer references per template), fields per request. */
export const MAX_SIGNERS = 10;
export const MAX_FIELDS = 100;
/** A field's page number, and the largest width or height of a field (points). */
export const MAX_FIELD_PAGE = 10_000;
export const MAX_FIELD_SIZE = 5000;

/** Signing links: `link_expiry_days` is 1 to 30, 7 when omitted, capped by the retention deadline. */
export const MIN_LINK_EXPIRY_DAYS = 1;
export const MAX_LINK_EXPIRY_DAYS = 30;
export const DEFAULT_LINK_EXPIRY_DAYS = 7;

/** Recipients of one bulk send. */
export const MAX_BULK_RECIPIENTS = 50;

/** Lengths of strings, in characters. */
export const MAX_CLIENT_REFERENCE = 160;
export const MAX_SIGNER_REFERENCE = 100;
export const MAX_SIGNER_NAME = 200;
export const MAX_EMAIL = 254;
/** A field value or a `field_values` entry. */
export const MAX_FIELD_VALUE = 500;
/** A cancellation reason (and a signer's decline reason). */
export const MAX_REASON = 500;
export const MAX_TEMPLATE_NAME = 120;
/** `return_url` and `callback_url`. */
export const MAX_URL = 2048;
export const MAX_EMBED_ORIGIN = 255;
/** EmailBranding. */
export const MAX_BRANDING = { sender_name: 120, subject: 200, message: 2000, logo_url: 512 } as const;

/** Idempotency-Key: 1 to this many printable ASCII characters; an answer is kept IDEMPOTENCY_TTL_MS. */
export const MAX_IDEMPOTENCY_KEY = 255;
export const IDEMPOTENCY_TTL_MS = 24 * HOUR_MS;

/** Request rates, per (API key, client IP): the general limit and the narrower ones of some routes. */
/**
 * The API description's rate limits. `counts`: what a window counts, every call (`calls`), or only a call
 * that does the work (`work`: an analysis, a batch), so that a replay of an Idempotency-Key, a refused
 * call or a 503 uses up nothing.
 */
export const RATE_LIMITS = {
  general: { limit: 120, windowMs: 10 * MINUTE_MS, says: '120 requests per 10 minutes', counts: 'calls' },
  detection: { limit: 12, windowMs: HOUR_MS, says: '12 field detections per hour', counts: 'work' },
  reminders: { limit: 20, windowMs: HOUR_MS, says: '20 reminder calls per hour', counts: 'calls' },
  bulk: { limit: 10, windowMs: HOUR_MS, says: '10 bulk sends per hour', counts: 'work' },
} as const;

/**
 * Email OTP: a code is valid 10 minutes and takes 5 attempts; at most 15 wrong codes per 24 hours.
 * "Send me a code": at most OTP_CODES_PER_WINDOW codes per link in OTP_CODE_WINDOW_MS (sandbox rule).
 */
export const OTP_CODE_TTL_MS = 10 * MINUTE_MS;
export const OTP_ATTEMPTS_PER_CODE = 5;
export const OTP_FAILURES_PER_DAY = 15;
export const OTP_FAILURE_WINDOW_MS = 24 * HOUR_MS;
export const OTP_CODES_PER_WINDOW = 5;
export const OTP_CODE_WINDOW_MS = 10 * MINUTE_MS;

/** The receiver check's signature time tolerance: at most a day. */
export const MAX_RECEIVER_TOLERANCE_SECONDS = DAY_MS / 1000;

/** Sandbox fault rules: how many operations one rule affects, and the longest delay it can add. */
export const MAX_FAULT_COUNT = 1000;
export const MAX_FAULT_DELAY_MS = 30_000;

/**
 * The longest single move of the sandbox clock, over HTTP, the dashboard and the CLI alike: ten
 * years, so dates stay far inside what JavaScript can represent.
 */
export const MAX_CLOCK_ADVANCE_SECONDS = 315_360_000;
const MAX_CLOCK_ADVANCE_DAYS = (MAX_CLOCK_ADVANCE_SECONDS * 1000) / DAY_MS;

/** Why a clock move of `ms` is refused (`shown` as the caller wrote it), or null when it is allowed. */
export function clockAdvanceMistake(ms: number, shown: string): string | null {
  return ms > MAX_CLOCK_ADVANCE_SECONDS * 1000 ? `"${shown}" is more than ten years: advance the clock by at most ${MAX_CLOCK_ADVANCE_DAYS}d at a time` : null;
}

/**
 * The latest time the sandbox clock can show: every date-time paraph writes (a link's expiry a month on, a
 * retention deadline) stays within RFC 3339's four-digit years.
 */
export const LATEST_CLOCK_TIME = Date.UTC(9999, 0, 1);

/** The longest typed signature or initials, in characters. */
export const MAX_TYPED_MARK = 100;

/** The longest document filename, in characters (a filename in most file systems), and what it may not hold. */
export const MAX_FILENAME = 255;
