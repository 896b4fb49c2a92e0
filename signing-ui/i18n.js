// @ts-check
// Every string the signing page shows, in the three languages of the signing page (en, fr, ar), one
// module each (strings-en.js, strings-fr.js, strings-ar.js). `{name}` placeholders are filled by
// `translator(lang)(key, {name: value})`; values are inserted as text, never as HTML.

import { AR } from './strings-ar.js';
import { EN } from './strings-en.js';
import { FR } from './strings-fr.js';

/** @type {readonly string[]} */
export const LANGS = ['en', 'fr', 'ar'];

/** @type {Record<string, Record<string, string>>} */
export const STRINGS = { en: EN, fr: FR, ar: AR };

/**
 * The best of our languages for a language tag (`fr-CA` → `fr`), or null.
 * @param {unknown} tag
 * @returns {string | null}
 */
export function matchLang(tag) {
  const base = String(tag ?? '')
    .trim()
    .toLowerCase()
    .slice(0, 2);
  return LANGS.includes(base) ? base : null;
}

/**
 * A `t(key, params)` for one language; a key missing there falls back to English, then to the key.
 * @param {string} lang
 * @returns {(key: string, params?: Record<string, unknown>) => string}
 */
export function translator(lang) {
  const table = STRINGS[lang] ?? STRINGS.en;
  return (key, params = {}) => {
    const template = table[key] ?? STRINGS.en[key] ?? key;
    // In right-to-left text a value (a file name, a person's name) keeps its own direction: isolated.
    const fill = lang === 'ar' ? (/** @type {unknown} */ value) => `\u2068${String(value)}\u2069` : String;
    return template.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? fill(params[name]) : whole));
  };
}
