import type { Generated } from 'kysely';

/**
 * A reusable document: its PDF (encrypted in the blob store, kept until the template is archived), the
 * page geometry measured when it was uploaded, and its fields. Requests made from it copy all three.
 */
export interface TemplatesTable {
  /** Insertion order: the list is newest first. */
  seq: Generated<number>;
  id: string;
  account_id: string;
  api_key_id: string;
  name: string;
  /** `original_filename` of the Template resource. */
  filename: string;
  sha256: string;
  size: number;
  page_count: number;
  /** JSON array of {width, height, rotation} in points, as displayed. */
  pages_json: string;
  /** Blob id in the store; null once archived (the PDF is deleted then). */
  blob_id: string | null;
  /** JSON array of FieldInput, as given at creation. */
  fields_json: string;
  field_count: number;
  /** Distinct signer_reference values of the fields: the template's roles. */
  signer_count: number;
  created_at: number;
  updated_at: number;
  archived_at: number | null;
}
