// The small domain modules: limits, initials, the email code, brand names and list cursors.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { brandNames } from '../../src/domain/brand.js';
import { decodeCursor, encodeCursor } from '../../src/domain/cursor.js';
import { createSealer } from '../../src/platform/crypto/sealed.js';
import { randomBytes } from 'node:crypto';
import { emailCodeIn } from '../../src/domain/email-code.js';
import { initialsOf } from '../../src/domain/initials.js';
import {
  clockAdvanceMistake,
  DEFAULT_LINK_EXPIRY_DAYS,
  DEFAULT_PAGE_SIZE,
  IDEMPOTENCY_TTL_MS,
  MAX_FAULT_COUNT,
  MAX_FAULT_DELAY_MS,
  MAX_PDF_BYTES,
  OTP_CODE_TTL_MS,
  OTP_FAILURE_WINDOW_MS,
  RATE_LIMITS,
  RETENTION_MS,
} from '../../src/domain/limits.js';
import { ActivateInput } from '../../src/contract/signature-requests.js';
import { BulkSendInput } from '../../src/contract/bulk-sends.js';

test('limits: the numbers of the API description', () => {
  assert.equal(MAX_PDF_BYTES, 8_388_608, '8 MiB');
  assert.equal(RETENTION_MS, 864_000_000, '10 days');
  assert.equal(DEFAULT_PAGE_SIZE, 25);
  assert.equal(MAX_FAULT_COUNT, 1000);
  assert.equal(MAX_FAULT_DELAY_MS, 30_000);
  assert.equal(DEFAULT_LINK_EXPIRY_DAYS, 7);
  assert.equal(IDEMPOTENCY_TTL_MS, 86_400_000, '24 hours');
  assert.equal(OTP_CODE_TTL_MS, 600_000, '10 minutes');
  assert.equal(OTP_FAILURE_WINDOW_MS, 86_400_000, '24 hours');
  assert.deepEqual(
    Object.values(RATE_LIMITS).map((b) => [b.limit, b.windowMs]),
    [
      [120, 600_000],
      [12, 3_600_000],
      [20, 3_600_000],
      [10, 3_600_000],
    ],
  );
  assert.equal(clockAdvanceMistake(315_360_001_000, '3651d'), '"3651d" is more than ten years: advance the clock by at most 3650d at a time');
  assert.equal(clockAdvanceMistake(315_360_000_000, '3650d'), null);
});

test('limits: the schemas take their numbers from the limits', () => {
  for (const schema of [ActivateInput, BulkSendInput]) {
    const days = (schema.properties as Record<string, unknown>).link_expiry_days as { minimum: number; maximum: number; default: number };
    assert.deepEqual([days.minimum, days.maximum, days.default], [1, 30, DEFAULT_LINK_EXPIRY_DAYS]);
  }
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
  assert.deepEqual(
    { ...brandNames('acme') },
    {
      word: 'acme',
      apiKeyPrefix: 'acme_test_',
      evidenceSchemaVersion: 'acme.evidence/1.2',
      iframeSource: 'acme',
      returnStatusParam: 'acme_status',
    },
  );
  assert.ok(Object.isFrozen(brandNames('paraph')));
});

test('cursors: a round trip per list and account, sealed (they tell nothing of the rows); anything else is refused as invalid_request', () => {
  const sealer = createSealer(randomBytes(32), 'secrets');
  const cursor = encodeCursor(sealer, 'account-a', 'requests', 42);
  assert.match(cursor, /^[A-Za-z0-9_-]+$/);
  assert.equal(decodeCursor(sealer, 'account-a', 'requests', cursor), 42);
  const largest = 9_007_199_254_740_991 % 10 ** 16;
  assert.equal(decodeCursor(sealer, 'account-a', 'events', encodeCursor(sealer, 'account-a', 'events', largest)), largest);
  // Opaque: the position is not readable in it, and two positions give cursors of one length.
  assert.doesNotMatch(Buffer.from(cursor, 'base64url').toString('latin1'), /42/);
  assert.equal(encodeCursor(sealer, 'account-a', 'requests', 7).length, encodeCursor(sealer, 'account-a', 'requests', 12_345_678).length);
  const refusals = [
    () => decodeCursor(sealer, 'account-a', 'events', cursor),
    () => decodeCursor(sealer, 'account-b', 'requests', cursor),
    () => decodeCursor(createSealer(randomBytes(32), 'secrets'), 'account-a', 'requests', cursor),
    () => decodeCursor(sealer, 'account-a', 'requests', encodeCursor(sealer, 'account-a', 'requests', 0)),
    () => decodeCursor(sealer, 'account-a', 'requests', Buffer.from('requests:0000000000000042').toString('base64url')),
    () => decodeCursor(sealer, 'account-a', 'requests', 'not a cursor!'),
    () => decodeCursor(sealer, 'account-a', 'requests', ''),
  ];
  for (const refuse of refusals) {
    assert.throws(refuse, (error: Error & { code?: string }) => {
      assert.equal(error.message, 'cursor is not a cursor this API returned');
      return true;
    });
  }
});
