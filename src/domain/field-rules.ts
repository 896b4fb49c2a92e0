import type { FieldPlacement } from './field-placement.js';

/** Displayed page size in points, origin top-left (the contract's field geometry). */
export interface PageBox {
  width: number;
  height: number;
}

// Geometry arrives as decimals: allow rounding noise at the page edge.
const EDGE_TOLERANCE = 0.01;
const DATE_KEYS = new Set(['sign_date']);

/**
 * The rules of FieldInput that a schema cannot say: references to signers, unique names, which
 * types take a `field_key` or a sender `value`. Answers the first broken rule as a sentence, or null.
 */
export function checkFields(fields: readonly FieldPlacement[], signers: readonly { reference: string }[], root: string): string | null {
  const references = new Set(signers.map((s) => s.reference));
  const names = new Set<string>();
  for (const [i, field] of fields.entries()) {
    const at = `${root}[${i}]`;
    if (!references.has(field.signer_reference)) {
      return `${at}.signer_reference "${field.signer_reference}" does not match any signer reference`;
    }
    if (field.name !== undefined) {
      if (names.has(field.name)) return `${at}.name "${field.name}" is used by another field`;
      names.add(field.name);
    }
    if (field.field_key !== undefined) {
      if (field.type !== 'text' && field.type !== 'date') {
        return `${at}.field_key is only allowed on text and date fields`;
      }
      if ((field.type === 'date') !== DATE_KEYS.has(field.field_key)) {
        return field.type === 'date'
          ? `${at}.field_key "${field.field_key}" does not fit a date field (use sign_date)`
          : `${at}.field_key "sign_date" needs a date field`;
      }
    }
    if (field.value !== undefined) {
      if (field.type !== 'text' && field.type !== 'date') return `${at}.value is only allowed on text and date fields`;
      if (field.field_key !== undefined) {
        return `${at}.value is not allowed on a field with field_key ${field.field_key}: the signer's own data fills it`;
      }
      if (field.type === 'date' && field.value !== '' && !isIsoDate(field.value)) return `${at}.value ${DATE_VALUE}`;
    }
    if (field.read_only === true && field.value === undefined) return `${at}.read_only requires a value`;
  }
  return null;
}

/** Every field on a page the document has, and inside that page. */
export function checkFieldsOnPages(fields: readonly FieldPlacement[], pages: readonly PageBox[], root: string): string | null {
  for (const [i, field] of fields.entries()) {
    const page = pages[field.page - 1];
    const at = `${root}[${i}]`;
    if (!page) {
      return `${at}.page ${field.page} does not exist: the document has ${pages.length} page${pages.length === 1 ? '' : 's'}`;
    }
    if (field.x + field.width > page.width + EDGE_TOLERANCE || field.y + field.height > page.height + EDGE_TOLERANCE) {
      return `${at} lies outside page ${field.page} (${page.width} x ${page.height} points, origin top-left)`;
    }
  }
  return null;
}

/** Every signer needs at least one field before activation; answers the first reference without one. */
export function signerWithoutField(fields: readonly { signer_reference: string }[], signers: readonly { reference: string }[]) {
  const covered = new Set(fields.map((f) => f.signer_reference));
  return signers.find((s) => !covered.has(s.reference))?.reference ?? null;
}

/** A calendar date written YYYY-MM-DD (2026-02-30 is none): how every date field is stamped. */
export function isIsoDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  // (setUTCFullYear, not Date.UTC: Date.UTC reads the years 0 to 99 as 1900 to 1999.)
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Text that shows nothing once drawn: empty, or only spaces (the no-break one too) and invisible format characters. */
export function isBlankText(value: string): boolean {
  return /^[\s\p{Z}\p{Cf}\p{Cc}]*$/u.test(value);
}

const DATE_VALUE = 'is a date field: give its value as YYYY-MM-DD (ISO 8601), e.g. 2026-11-28';

/** Values for named fields (`field_values`): each name must exist and must not override a read-only value. */
export function checkFieldValues(values: Readonly<Record<string, string>>, fields: readonly FieldPlacement[], root: string) {
  for (const name of Object.keys(values)) {
    const field = fields.find((f) => f.name === name);
    if (!field) return `${root}.${name} does not name any field`;
    if (field.read_only === true) return `${root}.${name} names a read_only field: its value is fixed`;
    if (field.type !== 'text' && field.type !== 'date') return `${root}.${name} names a ${field.type} field, which takes no value`;
    if (field.field_key !== undefined) return `${root}.${name} names a field filled by the signer's own ${field.field_key}`;
    const value = values[name] as string;
    if (field.type === 'date' && value !== '' && !isIsoDate(value)) return `${root}.${name} ${DATE_VALUE}`;
  }
  return null;
}
