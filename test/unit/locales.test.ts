// The languages paraph speaks are listed once (src/domain/locales.ts): the contract, the mails, the
// evidence report and the signing page (a no-build browser module, so it keeps its own list) agree.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Locale } from '../../src/contract/common.js';
import { DEFAULT_LOCALE, isLocale, LOCALES } from '../../src/domain/locales.js';
import { MAIL_WORDS } from '../../src/features/mail/messages.js';
import { REPORT_TEXT, reportLanguages } from '../../src/pdf/evidence-pdf-languages.js';
// @ts-expect-error a browser module without declarations
import { LANGS, STRINGS } from '../../signing-ui/i18n.js';

const sorted = (values: Iterable<string>) => [...values].sort();

test('every part that speaks to signers speaks exactly the domain languages', () => {
  assert.deepEqual(sorted(LOCALES), ['ar', 'en', 'fr']);
  assert.deepEqual(sorted((Locale as unknown as { anyOf: Array<{ const: string }> }).anyOf.map((s) => s.const)), sorted(LOCALES));
  assert.deepEqual(sorted(Object.keys(MAIL_WORDS)), sorted(LOCALES));
  assert.deepEqual(sorted(Object.keys(REPORT_TEXT)), sorted(LOCALES));
  assert.deepEqual(sorted(LANGS as string[]), sorted(LOCALES));
  assert.deepEqual(sorted(Object.keys(STRINGS as object)), sorted(LOCALES));
});

test('isLocale accepts the languages and nothing else; English is the default', () => {
  for (const locale of LOCALES) assert.equal(isLocale(locale), true);
  for (const other of ['de', 'EN', 'fr-CA', '', null, undefined, 1]) assert.equal(isLocale(other), false, String(other));
  assert.equal(DEFAULT_LOCALE, 'en');
});

test('the evidence report: English first, then the signers’ other languages in the domain order', () => {
  assert.deepEqual(reportLanguages([]), ['en']);
  assert.deepEqual(reportLanguages(['ar-EG', null, 'FR']), ['en', 'fr', 'ar']);
  assert.deepEqual(reportLanguages(['de', 'en']), ['en']);
});
