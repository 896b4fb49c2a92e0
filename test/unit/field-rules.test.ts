// Field rules beyond the schema (src/domain/field-rules.ts): references to signers, unique names,
// field_key and value by type, read_only, geometry inside the pages, a field per signer, field_values.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkFields, checkFieldsOnPages, checkFieldValues, isBlankText, isIsoDate, signerWithoutField } from '../../src/domain/field-rules.js';

type Field = Parameters<typeof checkFields>[0][number];
const field = (over: Partial<Field> = {}): Field =>
  ({ signer_reference: 'a', type: 'signature', page: 1, x: 10, y: 10, width: 100, height: 40, ...over }) as Field;
const SIGNERS = [{ reference: 'a' }, { reference: 'b' }];
const A4 = { width: 595.28, height: 841.89 };

test('checkFields: well-formed fields pass', () => {
  const fields = [
    field(),
    field({ signer_reference: 'b', type: 'text', name: 'company', value: 'ACME', read_only: true }),
    field({ type: 'date', field_key: 'sign_date' }),
    field({ type: 'text', field_key: 'signer_name' }),
    field({ type: 'date', name: 'start', value: '2026-01-01' }),
  ];
  assert.equal(checkFields(fields, SIGNERS, 'fields'), null);
  assert.equal(checkFields([], SIGNERS, 'fields'), null);
});

test('checkFields: each rule, with the index of the field that breaks it', () => {
  const cases: Array<[Field[], string]> = [
    [[field(), field({ signer_reference: 'zed' })], 'fields[1].signer_reference "zed" does not match any signer reference'],
    [[field({ name: 'n' }), field({ name: 'n' })], 'fields[1].name "n" is used by another field'],
    [[field({ field_key: 'signer_name' })], 'fields[0].field_key is only allowed on text and date fields'],
    [[field({ type: 'initials', field_key: 'sign_date' })], 'fields[0].field_key is only allowed on text and date fields'],
    [[field({ type: 'date', field_key: 'signer_name' })], 'fields[0].field_key "signer_name" does not fit a date field (use sign_date)'],
    [[field({ type: 'text', field_key: 'sign_date' })], 'fields[0].field_key "sign_date" needs a date field'],
    [[field({ value: 'x' })], 'fields[0].value is only allowed on text and date fields'],
    [
      [field({ type: 'text', field_key: 'signer_email', value: 'x' })],
      "fields[0].value is not allowed on a field with field_key signer_email: the signer's own data fills it",
    ],
    [[field({ type: 'text', read_only: true })], 'fields[0].read_only requires a value'],
  ];
  for (const [fields, message] of cases) assert.equal(checkFields(fields, SIGNERS, 'fields'), message);
});

test('checkFieldsOnPages: inside the page, with 0.01 pt of rounding at the edges', () => {
  assert.equal(checkFieldsOnPages([field({ x: 495.28, width: 100, y: 801.89, height: 40 })], [A4], 'fields'), null);
  assert.equal(checkFieldsOnPages([field({ x: 495.289, width: 100 })], [A4], 'fields'), null);
  assert.equal(
    checkFieldsOnPages([field(), field({ x: 495.3, width: 100 })], [A4], 'fields'),
    'fields[1] lies outside page 1 (595.28 x 841.89 points, origin top-left)',
  );
  assert.equal(checkFieldsOnPages([field({ y: 802, height: 40 })], [A4], 'f'), 'f[0] lies outside page 1 (595.28 x 841.89 points, origin top-left)');
});

test('checkFieldsOnPages: a page the document does not have, in the singular and the plural', () => {
  assert.equal(checkFieldsOnPages([field({ page: 2 })], [A4], 'fields'), 'fields[0].page 2 does not exist: the document has 1 page');
  assert.equal(checkFieldsOnPages([field({ page: 3 })], [A4, A4], 'fields'), 'fields[0].page 3 does not exist: the document has 2 pages');
  assert.equal(checkFieldsOnPages([field({ page: 2 })], [A4, { width: 200, height: 200 }], 'fields'), null);
  assert.match(checkFieldsOnPages([field({ page: 2, x: 150 })], [A4, { width: 200, height: 200 }], 'fields') ?? '', /outside page 2 \(200 x 200/);
});

test('signerWithoutField: the first signer without a field, or null', () => {
  assert.equal(signerWithoutField([{ signer_reference: 'a' }, { signer_reference: 'b' }], SIGNERS), null);
  assert.equal(signerWithoutField([{ signer_reference: 'b' }], SIGNERS), 'a');
  assert.equal(signerWithoutField([{ signer_reference: 'a' }, { signer_reference: 'a' }], SIGNERS), 'b');
  assert.equal(signerWithoutField([], []), null);
});

test('checkFieldValues: only named, writable text and date fields without field_key take a value', () => {
  const fields = [
    field({ type: 'text', name: 'company' }),
    field({ type: 'date', name: 'start' }),
    field({ type: 'text', name: 'fixed', value: 'v', read_only: true }),
    field({ name: 'sig' }),
    field({ type: 'text', name: 'who', field_key: 'signer_name' }),
  ];
  assert.equal(checkFieldValues({ company: 'ACME', start: '2026-01-01' }, fields, 'field_values'), null);
  assert.equal(checkFieldValues({}, fields, 'field_values'), null);
  assert.equal(checkFieldValues({ nope: 'x' }, fields, 'field_values'), 'field_values.nope does not name any field');
  assert.equal(checkFieldValues({ fixed: 'x' }, fields, 'field_values'), 'field_values.fixed names a read_only field: its value is fixed');
  assert.equal(checkFieldValues({ sig: 'x' }, fields, 'field_values'), 'field_values.sig names a signature field, which takes no value');
  assert.equal(checkFieldValues({ who: 'x' }, fields, 'field_values'), "field_values.who names a field filled by the signer's own signer_name");
});

test('a calendar date is YYYY-MM-DD of any year from 0000 to 9999 (the years 0 to 99 are not read as 1900 to 1999)', () => {
  for (const date of ['0000-01-01', '0001-01-01', '0050-06-15', '0099-12-31', '0100-01-01', '2000-02-29', '2028-02-29', '9999-12-31']) {
    assert.equal(isIsoDate(date), true, date);
  }
  for (const date of ['0050-02-30', '2026-02-30', '2025-02-29', '1900-02-29', '2100-02-29', '0001-13-01', '0001-00-10', '2025-1-31', '20250-01-01']) {
    assert.equal(isIsoDate(date), false, date);
  }
});

test('blank text is empty, spaces (the no-break one too) or invisible characters only', () => {
  for (const text of ['', '   ', '\u00a0', '\u200b', '\u2060\t\n', '\u3000']) assert.equal(isBlankText(text), true, JSON.stringify(text));
  for (const text of ['a', ' a ', '\u00a0x', '😀', 'أ']) assert.equal(isBlankText(text), false, JSON.stringify(text));
});
