import type { Generated } from 'kysely';

/** One receiver check: the test deliveries it sent and the receiver's answers (never webhook deliveries). */
export interface ReceiverChecksTable {
  seq: Generated<number>;
  id: string;
  account_id: string;
  /** The API key whose webhook secret signed the deliveries. */
  key_id: string;
  url: string;
  /** 1 when every case was right. */
  passed: number;
  /** The whole report (the ReceiverCheck resource), JSON. */
  report_json: string;
  /** Sandbox time. */
  created_at: number;
}
