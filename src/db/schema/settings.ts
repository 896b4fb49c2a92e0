/** Small key/value state shared by every process on the data directory (e.g. the clock offset). */
export interface SettingsTable {
  key: string;
  value: string;
}
