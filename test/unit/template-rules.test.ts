// Template rules (src/domain/template-rules.ts): roles are the fields' signer references in order of
// first use, at most 10; a request from a template has exactly one signer per role.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_TEMPLATE_ROLES, checkSignersMatchRoles, checkTemplateFields, isTemplateReady, rolesOf } from '../../src/domain/template-rules.js';

type Field = Parameters<typeof checkTemplateFields>[0][number];
const field = (signer_reference: string, over: Partial<Field> = {}): Field =>
  ({ signer_reference, type: 'signature', page: 1, x: 10, y: 10, width: 100, height: 40, ...over }) as Field;

test('rolesOf: distinct references in order of first use', () => {
  assert.deepEqual(rolesOf([field('tenant'), field('landlord'), field('tenant'), field('guarantor')]), ['tenant', 'landlord', 'guarantor']);
  assert.deepEqual(rolesOf([]), []);
});

test('checkTemplateFields: up to 10 roles, then the field rules', () => {
  assert.equal(MAX_TEMPLATE_ROLES, 10);
  const ten = Array.from({ length: 10 }, (_, i) => field(`r${i}`));
  assert.equal(checkTemplateFields(ten, 'fields'), null);
  assert.equal(checkTemplateFields([...ten, field('r10')], 'fields'), 'fields name 11 different signer_reference values; a template has at most 10 roles');
  assert.equal(checkTemplateFields([field('a', { name: 'x' }), field('b', { name: 'x' })], 'fields'), 'fields[1].name "x" is used by another field');
  assert.equal(checkTemplateFields([field('a', { type: 'text', read_only: true })], 'fields'), 'fields[0].read_only requires a value');
});

test('isTemplateReady: a template with at least one field', () => {
  assert.equal(isTemplateReady([]), false);
  assert.equal(isTemplateReady([field('a')]), true);
});

test('checkSignersMatchRoles: one signer per role, no other', () => {
  const roles = ['tenant', 'landlord'];
  assert.equal(checkSignersMatchRoles([{ reference: 'landlord' }, { reference: 'tenant' }], roles, 'signers'), null);
  assert.equal(
    checkSignersMatchRoles([{ reference: 'tenant' }, { reference: 'agent' }], roles, 'signers'),
    'signers[1].reference "agent" is not a role of the template (its roles: "tenant", "landlord")',
  );
  assert.equal(
    checkSignersMatchRoles([{ reference: 'tenant' }], roles, 'signers'),
    'signers has no signer for the template role "landlord" (its roles: "tenant", "landlord")',
  );
  assert.equal(checkSignersMatchRoles([], ['only'], 'signers'), 'signers has no signer for the template role "only" (its roles: "only")');
});
