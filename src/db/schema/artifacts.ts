/** A completed request's products (signed-pdf, evidence.pdf, evidence.json), encrypted in the blob store. */
export interface ArtifactsTable {
  request_id: string;
  type: string;
  /** null once purged */
  blob_id: string | null;
  sha256: string;
  size: number;
  created_at: number;
  purged_at: number | null;
}
