// Signer rules across a request's list (src/domain/signer-rules.ts): unique references, unique emails
// (case-insensitively), unique orders only when signing is sequential.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkSigners } from '../../src/domain/signer-rules.js';

type Signers = Parameters<typeof checkSigners>[0];
const signer = (reference: string, email: string, order: number) => ({ reference, email, order }) as Signers[number];

test('checkSigners: distinct references, emails and orders pass, sequential or not', () => {
  const signers = [signer('a', 'a@example.com', 1), signer('b', 'b@example.com', 2)];
  assert.equal(checkSigners(signers, false, 'signers'), null);
  assert.equal(checkSigners(signers, true, 'signers'), null);
  assert.equal(checkSigners([], true, 'signers'), null);
});

test('checkSigners: a repeated reference names the later signer', () => {
  const signers = [signer('a', 'a@example.com', 1), signer('b', 'b@example.com', 2), signer('a', 'c@example.com', 3)];
  assert.equal(checkSigners(signers, false, 'signers'), 'signers[2].reference "a" is used by another signer');
});

test('checkSigners: emails are compared without case', () => {
  const signers = [signer('a', 'Ada@Example.com', 1), signer('b', 'ada@example.COM', 2)];
  assert.equal(checkSigners(signers, false, 'signers'), 'signers[1].email ada@example.COM is used by another signer');
});

test('checkSigners: a shared order is refused only with sequential signing', () => {
  const signers = [signer('a', 'a@example.com', 1), signer('b', 'b@example.com', 1)];
  assert.equal(checkSigners(signers, false, 'signers'), null);
  assert.equal(checkSigners(signers, true, 'body.signers'), 'body.signers[1].order 1 is used by another signer (sequential_signing needs unique orders)');
});

test('checkSigners: the first broken rule is the one reported', () => {
  const signers = [signer('a', 'a@example.com', 1), signer('a', 'a@example.com', 1)];
  assert.match(checkSigners(signers, true, 'signers') ?? '', /reference "a"/);
});
