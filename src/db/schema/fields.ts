export interface FieldsTable {
  id: string;
  request_id: string;
  position: number;
  signer_reference: string;
  type: string;
  field_key: string | null;
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  name: string | null;
  value: string | null;
  read_only: number;
}
