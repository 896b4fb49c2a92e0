// The keys of the API's answers, as the API description lists them: the tests compare an answer's
// sorted keys with these (literal, so a key added or lost fails a test).

/** A signature request's status (GET /v1/signature-requests/{id}). */
export const STATUS_KEYS = [
  'artifacts',
  'client_reference',
  'created_at',
  'environment',
  'fields',
  'id',
  'retention_expires_at',
  'return_url',
  'sequential_signing',
  'signers',
  'status',
  'updated_at',
];

/** The answer of a create (POST /v1/signature-requests, and from a template). */
export const CREATE_RESPONSE_KEYS = [
  'client_reference',
  'environment',
  'id',
  'idempotent_replay',
  'retention_expires_at',
  'return_url',
  'sequential_signing',
  'status',
  'template_id',
];

/** A webhook delivery in a list (GET /v1/webhook-deliveries); one read alone adds its `attempts`. */
export const DELIVERY_KEYS = [
  'attempt_count',
  'created_at',
  'delivered_at',
  'event_id',
  'event_type',
  'id',
  'last_error',
  'last_status_code',
  'next_attempt_at',
  'payload',
  'signature_request_id',
  'status',
];
