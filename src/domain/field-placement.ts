/** The kinds of field a signer fills, and the facts paraph can fill a field with. */
export const FIELD_KINDS = ['signature', 'date', 'text', 'initials'] as const;
export type FieldKind = (typeof FIELD_KINDS)[number];
export const FIELD_KEYS = ['signer_name', 'signer_email', 'company', 'job_title', 'sign_date', 'initials'] as const;
export type FieldKey = (typeof FIELD_KEYS)[number];

/**
 * A field placed on the document, as a client gives it (the contract's FieldInput has this shape):
 * page from 1, position and size in points from the page's top-left corner.
 */
export interface FieldPlacement {
  signer_reference: string;
  type: FieldKind;
  field_key?: FieldKey | undefined;
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  name?: string | undefined;
  value?: string | undefined;
  read_only?: boolean | undefined;
}
