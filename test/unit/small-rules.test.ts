// The small domain modules: limits, initials, the email code, brand names and list cursors.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { brandNames } from '../../src/domain/brand.js';
import { decodeCursor, encodeCursor } from '../../src/domain/cursor.js';
import { emailCodeIn } from '../../src/domain/email-code.js';
import { initialsOf } from '../../src/domain/initials.js';
import { DEFAULT_PAGE_SIZE, MAX_FAULT_COUNT, MAX_FAULT_DELAY_MS, MAX_PDF_BYTES, RETENTION_MS } from '../../src/domain/limits.js';

test('limits: the numbers of the API description', () => {
  assert.equal(MAX_PDF_BYTES, 8_388_608, '8 MiB');
  assert.equal(RETENTION_MS, 864_000_000, '10 days');
  assert.equal(DEFAULT_PAGE_SIZE, 25);
  assert.equal(MAX_FAULT_COUNT, 1000);
  assert.equal(MAX_FAULT_DELAY_MS, 30_000);
});

test('initialsOf: one capital per word, hyphenated parts counted, any script', () => {
  assert.equal(initialsOf('Ada Lovelace'), 'AL');
  assert.equal(initialsOf('Jeanne Dupont-Marie'), 'JDM');
  assert.equal(initialsOf('  jean   de la  fontaine '), 'JDLF');
  assert.equal(initialsOf('émile zola'), 'ÉZ');
  assert.equal(initialsOf('ليلى حداد'), 'لح');
  assert.equal(initialsOf('𝒜da Byron'), '𝒜B', 'a letter outside the BMP is kept whole');
  assert.equal(initialsOf(''), '');
  assert.equal(initialsOf(' - '), '');
});

test('emailCodeIn: the 6-digit code of a mail text, or null', () => {
  assert.equal(emailCodeIn('Your code: 042917. It expires in 10 minutes.'), '042917');
  assert.equal(emailCodeIn('code 1234567 and then 123456'), '123456', 'seven digits are not a code');
  assert.equal(emailCodeIn('12345'), null);
  assert.equal(emailCodeIn('no code here'), null);
  assert.equal(emailCodeIn('a123456'), null, 'inside a word it is not a code');
});

test('brandNames: the four places the brand word appears', () => {
  assert.deepEqual({ ...brandNames('acme') }, {
    word: 'acme',
    apiKeyPrefix: 'acme_test_',
    evidenceSchemaVersion: 'acme.evidence/1.2',
    iframeSource: 'acme',
    returnStatusParam: 'acme_status',
  });
  assert.ok(Object.isFrozen(brandNames('paraph')));
});

test('cursors: a round trip per list; anything else is refused as invalid_request', () => {
  const cursor = encodeCursor('requests', 42);
  assert.match(cursor, /^[A-Za-z0-9_-]+$/);
  assert.equal(decodeCursor('requests', cursor), 42);
  assert.equal(decodeCursor('events', encodeCursor('events', 9_007_199_254_740_991 % 10 ** 16)), 9_007_199_254_740_991 % 10 ** 16);
  const refusals = [
    () => decodeCursor('events', cursor),
    () => decodeCursor('requests', 'not a cursor!'),
    () => decodeCursor('requests', encodeCursor('requests', 0)),
    () => decodeCursor('requests', Buffer.from('requests:01').toString('base64url')),
    () => decodeCursor('requests', Buffer.from('requests:12345678901234567').toString('base64url')),
    () => decodeCursor('requests', ''),
  ];
  for (const refuse of refusals) {
    assert.throws(refuse, (error: Error & { code?: string }) => {
      assert.equal(error.message, 'cursor is not a cursor this API returned');
      return true;
    });
  }
});
