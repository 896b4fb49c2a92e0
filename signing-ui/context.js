// Who and where the page is: the link's token, the API base, the mode (page or iframe), and the
// page's state shared by its modules.
import { LANGS, matchLang, translator } from './i18n.js';

export const root = document.documentElement;
export const app = /** @type {HTMLElement} */ (document.getElementById('app'));
export const mode = root.dataset.mode === 'embed' ? 'embed' : 'page';
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

export const state = {
  lang: 'en',
  t: translator('en'),
  /** The SignerView of the API. */
  view: /** @type {any} */ (null),
  /** Values of the editable text and date fields, by field id. */
  values: new Map(),
  /** The adopted marks: `{type: 'drawn', image}` or `{type: 'typed', text}`. */
  marks: /** @type {{signature: any, initials: any}} */ ({ signature: null, initials: null }),
  consent: false,
  busy: false,
  /** Live elements of the document screen. */
  ui: /** @type {any} */ (null),
};


export function setLang(lang) {
  state.lang = LANGS.includes(lang) ? lang : 'en';
  state.t = translator(state.lang);
  root.lang = state.lang;
  root.dir = state.lang === 'ar' ? 'rtl' : 'ltr';
}

export function guessLang() {
  return matchLang(linkLang) ?? (navigator.languages ?? [navigator.language]).map(matchLang).find(Boolean) ?? 'en';
}

export function joinList(items) {
  const { t } = state;
  const [open, close] = { fr: ['«\u00a0', '\u00a0»'], ar: ['«', '»'] }[state.lang] ?? ['“', '”'];
  const quoted = items.map((item) => `${open}${item}${close}`);
  if (quoted.length <= 1) return quoted.join('');
  return `${quoted.slice(0, -1).join(t('listSeparator'))}${t('listLastSeparator')}${quoted[quoted.length - 1]}`;
}

export function formatTime(iso) {
  try {
    return new Intl.DateTimeFormat(state.lang, { dateStyle: 'long', timeStyle: 'short' }).format(new Date(iso));
  } catch {
    return iso;
  }
}

export function isWebUrl(value) {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

export function initialsOf(name) {
  return String(name ?? '')
    .split(/[\s-]+/u)
    .filter(Boolean)
    .map((part) => Array.from(part)[0]?.toUpperCase() ?? '')
    .join('');
}

