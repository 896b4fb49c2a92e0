/** A workspace: every resource belongs to one. */
export interface AccountsTable {
  id: string;
  created_at: number;
}
