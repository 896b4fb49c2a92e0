/** An uploaded PDF; its bytes live encrypted in the blob store until retention purges them. */
export interface DocumentsTable {
  id: string;
  account_id: string;
  filename: string;
  sha256: string;
  size: number;
  page_count: number;
  /** JSON array of {width, height, rotation} in points, as displayed. */
  pages_json: string;
  /** Blob id in the store; null once purged. */
  blob_id: string | null;
  created_at: number;
  purged_at: number | null;
}
