/** The numbers of the API description's "Limits" table that code (not a schema) enforces. */
export const MAX_PDF_BYTES = 8 * 1024 * 1024;
export const RETENTION_MS = 10 * 24 * 60 * 60 * 1000;
export const DEFAULT_PAGE_SIZE = 25;

/** Sandbox fault rules: how many operations one rule affects, and the longest delay it can add. */
export const MAX_FAULT_COUNT = 1000;
export const MAX_FAULT_DELAY_MS = 30_000;
