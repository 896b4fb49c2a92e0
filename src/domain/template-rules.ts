import type { FieldPlacement } from './field-placement.js';
import { checkFields } from './field-rules.js';

/** Signers per request, hence roles per template. */
export const MAX_TEMPLATE_ROLES = 10;

/** A template's roles: the distinct `signer_reference`s of its fields, in order of first use. */
export function rolesOf(fields: readonly Pick<FieldPlacement, 'signer_reference'>[]): string[] {
  return [...new Set(fields.map((f) => f.signer_reference))];
}

/**
 * The rules of a template's fields beyond their schema: 1 to 10 roles, and every rule a request's
 * fields follow (a role always has a field, since the fields define the roles).
 */
export function checkTemplateFields(fields: readonly FieldPlacement[], root: string): string | null {
  const roles = rolesOf(fields);
  if (roles.length > MAX_TEMPLATE_ROLES) {
    return `${root} name ${roles.length} different signer_reference values; a template has at most ${MAX_TEMPLATE_ROLES} roles`;
  }
  return checkFields(
    fields,
    roles.map((reference) => ({ reference })),
    root,
  );
}

/**
 * A template is ready (has a confirmed field set) when it has at least one field: every role then has
 * one by construction. Templates made through the API always are; this guards stored rows.
 */
export function isTemplateReady(fields: readonly FieldPlacement[]): boolean {
  return fields.length > 0;
}

/** A request from a template has exactly one signer per role and no other signer. */
export function checkSignersMatchRoles(signers: readonly { reference: string }[], roles: readonly string[], root: string): string | null {
  const expected = roles.map((r) => `"${r}"`).join(', ');
  const wanted = new Set(roles);
  for (const [i, signer] of signers.entries()) {
    if (!wanted.has(signer.reference)) {
      return `${root}[${i}].reference "${signer.reference}" is not a role of the template (its roles: ${expected})`;
    }
  }
  const given = new Set(signers.map((s) => s.reference));
  const missing = roles.find((role) => !given.has(role));
  return missing === undefined ? null : `${root} has no signer for the template role "${missing}" (its roles: ${expected})`;
}
