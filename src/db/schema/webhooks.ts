import type { Generated } from 'kysely';
import type { DeliveryStatus } from '../../domain/outbox-states.js';

/** One event to one callback URL: the durable unit of webhook delivery. */
export interface WebhookDeliveriesTable {
  seq: Generated<number>;
  id: string;
  account_id: string;
  request_id: string;
  event_id: string;
  event_type: string;
  url: string;
  status: DeliveryStatus;
  attempt_count: number;
  /** Non-2xx answers since the schedule last (re)started: picks the next retry interval. */
  failures_in_row: number;
  last_status_code: number | null;
  last_error: string | null;
  /** Sandbox time of the next automatic attempt; null when none is scheduled. */
  next_attempt_at: number | null;
  delivered_at: number | null;
  created_at: number;
  /** `pid:processId` of the process sending it now; the lease ends at `lease_until` (real time). */
  lease_owner: string | null;
  lease_until: number | null;
}

export interface WebhookAttemptsTable {
  delivery_id: string;
  number: number;
  /** automatic or replay */
  trigger: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  /** Sandbox time. */
  attempted_at: number;
  /** JSON object of the headers this send carried (signed per send); null when nothing was sent. */
  request_headers: string | null;
}
