// @ts-check
// Who and where the page is: the link's token, the API base, the mode (page or iframe), and the
// page's state shared by its modules.
import { LANGS, matchLang, translator } from './i18n.js';

export const root = document.documentElement;
export const app = /** @type {HTMLElement} */ (document.getElementById('app'));
export const mode = root.dataset.mode === 'embed' ? 'embed' : 'page';
/** The API's text limits (src/domain/limits.ts), as the server writes them on the page's root. */
export const VALUE_MAX = Number(root.dataset.valueMax);
export const REASON_MAX = Number(root.dataset.reasonMax);
export const framed = (() => {
  try {
    return window.self !== window.top;
  } catch {
    return true;
  }
})();
/** Inside an iframe (or served as the iframe page): never redirect to the return URL. */
export const embedded = mode === 'embed' || framed;

const tokenMatch = /^\/(?:sign|embed)\/([^/?#]+)/.exec(location.pathname);
export const token = tokenMatch ? decodeURIComponent(tokenMatch[1]) : '';
export const apiBase = `/sign/${encodeURIComponent(token)}/api`;
export const linkLang = new URLSearchParams(location.search).get('lang');

/** Below 600 px the signer fills one field at a time in the guide at the bottom of the screen. */
const phoneQuery = window.matchMedia('(max-width: 600px)');
export const isPhone = () => phoneQuery.matches;
/** @param {() => void} listener */
export function onPhoneChange(listener) {
  phoneQuery.addEventListener('change', listener);
}

/**
 * A field of the signer's view (the SignerField of the API).
 * @typedef {object} Field
 * @property {string} id
 * @property {'signature' | 'initials' | 'text' | 'date'} type
 * @property {number} page
 * @property {number} x
 * @property {number} y
 * @property {number} width
 * @property {number} height
 * @property {string} name
 * @property {string} field_key
 * @property {string} value
 * @property {boolean} read_only
 * @property {boolean} editable
 */
/**
 * What the signer's link shows (the SignerView of the API).
 * @typedef {object} View
 * @property {'open' | 'closed'} state
 * @property {'signed' | 'declined' | 'cancelled' | 'expired' | 'revoked' | 'unavailable' | null} closed_reason
 * @property {string} lang
 * @property {string} brand
 * @property {string} embed_origin
 * @property {string} return_url
 * @property {{ id: string, client_reference: string, status: string, document_name: string, sequential_signing: boolean, sender_name: string, message: string, logo_url: string, cancellation_reason?: string, pages: Array<{ width: number, height: number, rotation: number }> } | null} request
 * @property {{ id: string, reference: string, name: string, email: string, status: string, verification: string, verified_at: string | null, expires_at: string | null } | null} signer
 * @property {Field[]} fields
 * @property {'none' | 'pending' | 'ready' | 'purged'} signed_pdf
 * @property {boolean} verification_required
 * @property {boolean} [code_live]
 * @property {boolean} can_sign
 * @property {string[]} waiting_for
 * @property {string[]} [waiting_for_names]
 * @property {EarlierField[]} [earlier_fields]
 */
/**
 * What an earlier signer put on the document (a value, a typed mark's text or a drawn mark's PNG).
 * @typedef {{ type: 'signature' | 'initials' | 'text' | 'date', page: number, x: number, y: number, width: number, height: number, value: string, image: string }} EarlierField
 */
/** @typedef {{ status: 'signed' | 'declined', request_status: string, signed_at: string | null, return_url: string, next?: string, next_names?: string[] }} Outcome */
/** @typedef {'signature' | 'initials'} MarkKind */
/** An adopted mark, as the sign call takes it. @typedef {{ type: 'drawn', image: string } | { type: 'typed', text: string }} Mark */
/**
 * A page of the document as laid out: its pdf.js page, its element and the canvas drawn at `renderedPx`.
 * @typedef {{ page: import('pdfjs-dist').PDFPageProxy, el: HTMLElement, canvas: HTMLCanvasElement, width: number, renderedPx: number, task: import('pdfjs-dist').RenderTask | null }} PageEntry
 */
/**
 * Live elements of the document screen.
 * @typedef {object} DocumentUi
 * @property {HTMLElement} progressText
 * @property {HTMLElement} progressBar
 * @property {HTMLButtonElement} nextButton
 * @property {HTMLButtonElement} signButton
 * @property {HTMLButtonElement} declineButton
 * @property {HTMLElement} hint
 * @property {HTMLElement} errors
 * @property {HTMLElement} pages
 * @property {HTMLInputElement} consent
 * @property {HTMLElement} guide
 * @property {PageEntry[]} entries
 * @property {string} [guideField] The field the phone guide shows.
 */

export const state = {
  lang: 'en',
  t: translator('en'),
  /** The SignerView of the API. */
  view: /** @type {View} */ (/** @type {unknown} */ (null)),
  /** Values of the editable text and date fields, by field id. */
  values: /** @type {Map<string, string>} */ (new Map()),
  /** The adopted marks: `{type: 'drawn', image}` or `{type: 'typed', text}`. */
  marks: /** @type {Record<MarkKind, Mark | null>} */ ({ signature: null, initials: null }),
  consent: false,
  busy: false,
  /** Live elements of the document screen. */
  ui: /** @type {DocumentUi | null} */ (null),
};

/** @param {string} lang */
export function setLang(lang) {
  state.lang = LANGS.includes(lang) ? lang : 'en';
  state.t = translator(state.lang);
  root.lang = state.lang;
  root.dir = state.lang === 'ar' ? 'rtl' : 'ltr';
}

export function guessLang() {
  return matchLang(linkLang) ?? (navigator.languages ?? [navigator.language]).map(matchLang).find(Boolean) ?? 'en';
}

/** Quotation marks by language (others: English's). */
const QUOTES = /** @type {Record<string, string[]>} */ ({ fr: ['«\u00a0', '\u00a0»'], ar: ['«', '»'] });

/**
 * Items joined the language's way: quoted (references, file names), or isolated without quotes (people's names).
 * @param {string[]} items
 * @param {boolean} [quote]
 */
export function joinList(items, quote = true) {
  const { t } = state;
  const [open, close] = quote ? (QUOTES[state.lang] ?? ['“', '”']) : ['\u2068', '\u2069'];
  const quoted = items.map((item) => `${open}${item}${close}`);
  if (quoted.length <= 1) return quoted.join('');
  return `${quoted.slice(0, -1).join(t('listSeparator'))}${t('listLastSeparator')}${quoted[quoted.length - 1]}`;
}

/**
 * A time the signer's way, in the browser's time zone and naming it ("16 décembre 2026 à 00:02 UTC+14"): the mails
 * write the same time in UTC, so a time without its zone could read as another.
 * @param {string} iso
 */
export function formatTime(iso) {
  try {
    const parts = /** @type {const} */ ({ year: 'numeric', month: 'long', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' });
    return new Intl.DateTimeFormat(state.lang, parts).format(new Date(iso));
  } catch {
    return iso;
  }
}

/** @param {string} value */
export function isWebUrl(value) {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** @param {string | null | undefined} name */
export function initialsOf(name) {
  return String(name ?? '')
    .split(/[\s-]+/u)
    .filter(Boolean)
    .map((part) => Array.from(part)[0]?.toUpperCase() ?? '')
    .join('');
}
