import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import Type from 'typebox';
// Under NodeNext, a default import of these CommonJS packages types as the module object, which is neither
// constructible nor callable: take the named class and the plugin's `default` instead (both exist at run time).
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import { BulkSendInput, BulkSendResponse, type BulkSendRecipient, type BulkSendResult, type BulkSendSigner } from '../../src/contract/bulk-sends.js';
import { DetectionResult, type DetectionSuggestion } from '../../src/contract/detection.js';
import { EvidenceResponse, type EvidenceEvent, type EvidenceSigner, type EvidenceTimestamp } from '../../src/contract/evidence.js';
import { ClockAdvanceInput, ClockState, SandboxEmailQuery } from '../../src/contract/sandbox.js';
import type { FieldInput, SignerInput } from '../../src/contract/signature-requests.js';
import { Template, TemplateCreateMultipart, TemplateFieldsJson, TemplateList } from '../../src/contract/templates.js';
import { EventType, WebhookDelivery, WebhookDeliveryListQuery, WebhookDeliveryPage, WebhookEvent, type WebhookSigner } from '../../src/contract/webhooks.js';

const addFormats = addFormatsPlugin.default;

function newAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true, discriminator: true });
  addFormats(ajv);
  return ajv;
}

// One strict Ajv 2020 instance per schema, independent of the server's own compiler.
const compiled = new WeakMap<object, ValidateFunction>();
function validator(schema: object): ValidateFunction {
  let validate = compiled.get(schema);
  if (validate === undefined) {
    validate = newAjv().compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

const describe = (errors: readonly ErrorObject[] | null | undefined): string =>
  JSON.stringify((errors ?? []).map((e) => `${e.instancePath || '/'} ${e.keyword} ${e.message ?? ''}`));

function accepts(schema: object, value: unknown): void {
  const validate = validator(schema);
  assert.ok(validate(value), `expected to be accepted, got ${describe(validate.errors)}`);
}

/** Rejected, and for the rule under test: an error with this keyword at this instance path. */
function rejects(schema: object, value: unknown, instancePath: string, keyword: string): void {
  const validate = validator(schema);
  assert.equal(validate(value), false, `expected to be rejected at ${instancePath || '/'} by ${keyword}`);
  assert.ok(
    (validate.errors ?? []).some((e) => e.instancePath === instancePath && e.keyword === keyword),
    `expected a ${keyword} error at "${instancePath}", got ${describe(validate.errors)}`,
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Every exported schema of every schema file.

const schemaDir = new URL('../../src/contract/', import.meta.url);
const schemaFiles = readdirSync(schemaDir)
  .filter((name) => name.endsWith('.ts'))
  .sort();
const exportsByFile = new Map<string, Array<[string, object]>>();
for (const file of schemaFiles) {
  const module = (await import(new URL(file, schemaDir).href)) as Record<string, unknown>;
  const schemas: Array<[string, object]> = [];
  for (const [name, value] of Object.entries(module)) {
    if (typeof value === 'function') continue; // Page(), a schema factory
    assert.ok(typeof value === 'object' && value !== null, `${file}: export ${name} is not a schema`);
    schemas.push([name, value]);
  }
  exportsByFile.set(file, schemas);
}

/** Every subschema, with a JSON-pointer-like path. */
function* walk(schema: unknown, path: string): Generator<[string, Record<string, unknown>]> {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return;
  const node = schema as Record<string, unknown>;
  yield [path, node];
  for (const key of ['properties', 'patternProperties', '$defs'] as const) {
    const children = node[key];
    if (typeof children === 'object' && children !== null) {
      for (const [name, child] of Object.entries(children)) yield* walk(child, `${path}/${key}/${name}`);
    }
  }
  for (const key of ['items', 'additionalProperties', 'not', 'contentSchema'] as const) {
    yield* walk(node[key], `${path}/${key}`);
  }
  for (const key of ['anyOf', 'allOf', 'oneOf', 'prefixItems'] as const) {
    const children = node[key];
    if (!Array.isArray(children)) continue;
    for (const [index, child] of children.entries()) yield* walk(child, `${path}/${key}/${index}`);
  }
}

test('the schema directory holds the resource files', () => {
  const resources = ['templates', 'detection', 'webhooks', 'evidence', 'bulk-sends', 'sandbox'];
  for (const file of ['common', 'signature-requests', ...resources].map((name) => `${name}.ts`)) {
    assert.ok(schemaFiles.includes(file), `missing ${file}`);
  }
});

test('Ajv strict mode is on and TypeBox markers stay invisible to it', () => {
  assert.throws(() => newAjv().compile({ type: 'string', maxLenght: 3 }), /unknown keyword/);
  // TypeBox 1.x tags schemas with `~kind` / `~optional`, as non-enumerable properties that Ajv never sees.
  const optional = Type.Optional(Type.String({ maxLength: 3 }));
  assert.deepEqual(Object.keys(optional), ['type', 'maxLength']);
  assert.ok(Reflect.ownKeys(optional).includes('~optional'));
});

for (const file of schemaFiles) {
  test(`${file}: every exported schema compiles with Ajv 2020 in strict mode`, () => {
    const schemas = exportsByFile.get(file) ?? [];
    assert.ok(schemas.length > 0);
    for (const [name, schema] of schemas) {
      assert.doesNotThrow(() => validator(schema), `${file}: ${name}`);
    }
  });

  test(`${file}: every object with properties rejects unknown ones`, () => {
    for (const [name, schema] of exportsByFile.get(file) ?? []) {
      for (const [path, node] of walk(schema, name)) {
        if (node['properties'] === undefined) continue;
        assert.equal(node['additionalProperties'], false, `${file}: ${path} is open`);
      }
    }
  });
}

test('a title names one shape only, across every schema file (OpenAPI components are keyed by it)', () => {
  const byId = new Map<string, { where: string; json: string }>();
  for (const [file, schemas] of exportsByFile) {
    for (const [name, schema] of schemas) {
      for (const [path, node] of walk(schema, `${file}:${name}`)) {
        const id = node['title'];
        if (typeof id !== 'string') continue;
        const json = JSON.stringify(node);
        const seen = byId.get(id);
        if (seen === undefined) byId.set(id, { where: path, json });
        else assert.equal(json, seen.json, `title ${id} at ${path} differs from ${seen.where}`);
      }
    }
  }
  const named = [
    ['Template', 'TemplateList'],
    ['DetectionResult', 'DetectionSuggestion', 'DetectionPage'],
    ['WebhookEvent', 'WebhookDelivery', 'WebhookSigner', 'WebhookData'],
    ['EvidenceResponse', 'BulkSendInput', 'BulkSendResponse', 'ClockState', 'ClockAdvanceInput'],
  ].flat();
  for (const id of named) {
    assert.ok(byId.has(id), `no schema has title ${id}`);
  }
});

// ---------------------------------------------------------------------------------------------------------------
// Samples

const ID = '0b6f7f3e-5d0a-4c1e-9a57-3d2f1c7e9b10';
const ID2 = '6a1e4c2b-8f3d-4b7a-a0c9-52e1d8f4b3a6';
const NOW = '2025-03-14T09:26:53.589Z';
const chars = (n: number): string => 'a'.repeat(n);

const field: FieldInput = {
  signer_reference: 'client',
  type: 'signature',
  page: 1,
  x: 72,
  y: 700,
  width: 180,
  height: 40,
};
const signer: SignerInput = { reference: 'client', email: 'ada@example.com', order: 1 };

// templates.ts

const template: Template = {
  id: ID,
  name: 'NDA',
  original_filename: 'nda.pdf',
  fields: [field, { ...field, type: 'text', field_key: 'company', name: 'company' }],
  field_count: 2,
  signer_count: 1,
  created_at: NOW,
  updated_at: NOW,
};

test('templates: Template and TemplateList', () => {
  accepts(Template, template);
  accepts(Template, { ...template, name: chars(120), signer_count: 10 });
  rejects(Template, { ...template, name: chars(121) }, '/name', 'maxLength');
  rejects(Template, { ...template, field_count: 0 }, '/field_count', 'minimum');
  rejects(Template, { ...template, signer_count: 11 }, '/signer_count', 'maximum');
  rejects(Template, { ...template, signer_count: 0 }, '/signer_count', 'minimum');
  rejects(Template, { ...template, created_at: 'yesterday' }, '/created_at', 'format');
  rejects(Template, { ...template, status: 'ready' }, '', 'additionalProperties');
  rejects(Template, { ...template, fields: [{ ...field, colour: 'red' }] }, '/fields/0', 'additionalProperties');
  accepts(TemplateList, { data: [template] });
  accepts(TemplateList, { data: [] });
  rejects(TemplateList, { data: [], next_cursor: '' }, '', 'additionalProperties');
});

test('templates: the create call and its decoded fields', () => {
  accepts(TemplateFieldsJson, [field]);
  accepts(
    TemplateFieldsJson,
    Array.from({ length: 100 }, () => field),
  );
  rejects(TemplateFieldsJson, [], '', 'minItems');
  rejects(
    TemplateFieldsJson,
    Array.from({ length: 101 }, () => field),
    '',
    'maxItems',
  );
  rejects(TemplateFieldsJson, [{ ...field, page: 0 }], '/0/page', 'minimum');
  rejects(TemplateFieldsJson, [{ ...field, type: 'checkbox' }], '/0/type', 'enum');

  const multipart = { document: '%PDF-1.7', name: 'NDA', fields: JSON.stringify([field]) };
  accepts(TemplateCreateMultipart, multipart);
  const { name: _name, ...withoutName } = multipart;
  rejects(TemplateCreateMultipart, withoutName, '', 'required');
  rejects(TemplateCreateMultipart, { ...multipart, name: chars(121) }, '/name', 'maxLength');
  rejects(TemplateCreateMultipart, { ...multipart, fields: [field] }, '/fields', 'type');
  rejects(TemplateCreateMultipart, { ...multipart, request: '{}' }, '', 'additionalProperties');
});

// detection.ts

const suggestion: DetectionSuggestion = {
  id: 's1',
  type: 'signature',
  page: 1,
  x: 72,
  y: 700,
  width: 180,
  height: 40,
  confidence: 0.65,
  reason: 'label_with_geometry',
};
const detection: DetectionResult = {
  suggestions: [suggestion, { ...suggestion, id: 's2', type: 'date', confidence: 1, roleHint: 'client', fieldKey: 'sign_date' }],
  pages: [{ page: 1, width: 595.28, height: 841.89, rotation: 0 }],
  stats: { pageCount: 1, totalSuggestions: 2, extractionMs: 12.5, ocrPages: 0 },
  ocrStatus: 'disabled',
};
const withSuggestion = (change: Record<string, unknown>): unknown => ({
  ...detection,
  suggestions: [{ ...suggestion, ...change }],
});

test('detection: DetectionResult', () => {
  accepts(DetectionResult, detection);
  const empty = { suggestions: [], pages: [], stats: { pageCount: 0, totalSuggestions: 0 }, ocrStatus: 'enabled' };
  accepts(DetectionResult, empty);
  rejects(DetectionResult, withSuggestion({ confidence: 0.64 }), '/suggestions/0/confidence', 'minimum');
  rejects(DetectionResult, withSuggestion({ confidence: 1.01 }), '/suggestions/0/confidence', 'maximum');
  rejects(DetectionResult, withSuggestion({ reason: 'heuristic' }), '/suggestions/0/reason', 'enum');
  rejects(DetectionResult, withSuggestion({ width: 0 }), '/suggestions/0/width', 'exclusiveMinimum');
  rejects(DetectionResult, withSuggestion({ page: 0 }), '/suggestions/0/page', 'minimum');
  rejects(DetectionResult, withSuggestion({ x: -1 }), '/suggestions/0/x', 'minimum');
  rejects(DetectionResult, withSuggestion({ score: 0.9 }), '/suggestions/0', 'additionalProperties');
  rejects(DetectionResult, { ...detection, ocrStatus: 'auto' }, '/ocrStatus', 'enum');
  rejects(DetectionResult, { ...detection, stats: { pageCount: 1 } }, '/stats', 'required');
  rejects(DetectionResult, { ...detection, stats: { ...detection.stats, ocrPages: 0.5 } }, '/stats/ocrPages', 'type');
  const page = { page: 1, width: 1, height: 1, rotation: 90, dpi: 72 };
  rejects(DetectionResult, { ...detection, pages: [page] }, '/pages/0', 'additionalProperties');
  const { ocrStatus: _ocrStatus, ...withoutOcrStatus } = detection;
  rejects(DetectionResult, withoutOcrStatus, '', 'required');
});

// webhooks.ts

const webhookSigner: WebhookSigner = { id: ID2, reference: 'client', email: 'ada@example.com', status: 'declined' };
const declined: WebhookEvent = {
  id: 'evt_1',
  type: 'signer.declined',
  created_at: NOW,
  data: {
    signature_request_id: ID,
    client_reference: 'order-42',
    status: 'declined',
    signer: webhookSigner,
    reason: 'wrong amount',
  },
};
const withData = (change: Record<string, unknown>): unknown => ({ ...declined, data: { ...declined.data, ...change } });
const delivery: WebhookDelivery = {
  id: ID2,
  event_id: 'evt_1',
  event_type: 'signer.declined',
  signature_request_id: ID,
  status: 'pending',
  attempt_count: 1,
  last_status_code: 500,
  last_error: 'HTTP 500',
  next_attempt_at: NOW,
  delivered_at: null,
  created_at: NOW,
  payload: declined,
};

test('webhooks: EventType and WebhookEvent', () => {
  const values = (EventType as unknown as { enum: string[] }).enum;
  assert.equal(new Set(values).size, 10);
  accepts(WebhookEvent, declined);
  const activated: WebhookEvent = {
    id: 'evt_2',
    type: 'signature_request.activated',
    created_at: NOW,
    data: { signature_request_id: ID, client_reference: 'order-42', status: 'active' },
  };
  accepts(WebhookEvent, activated);
  const newSigner = { ...webhookSigner, id: ID, email: 'new@example.com', status: 'pending' };
  const oldSigner = { ...webhookSigner, status: 'viewed' };
  const replaced = { ...activated, type: 'signer.replaced', data: { ...activated.data, signer: newSigner } };
  accepts(WebhookEvent, { ...replaced, data: { ...replaced.data, replaced_signer: oldSigner } });
  rejects(WebhookEvent, { ...declined, type: 'signer.signed' }, '/type', 'enum');
  rejects(WebhookEvent, { ...declined, created_at: 'now' }, '/created_at', 'format');
  rejects(WebhookEvent, withData({ ip: '127.0.0.1' }), '/data', 'additionalProperties');
  rejects(WebhookEvent, withData({ status: 'signed' }), '/data/status', 'enum');
  rejects(WebhookEvent, withData({ signature_request_id: 'order-42' }), '/data/signature_request_id', 'format');
  rejects(WebhookEvent, withData({ replaced_signer: { id: ID } }), '/data/replaced_signer', 'required');
  rejects(WebhookEvent, withData({ signer: { ...webhookSigner, name: 'A' } }), '/data/signer', 'additionalProperties');
  const { status: _status, ...dataWithoutStatus } = declined.data;
  rejects(WebhookEvent, { ...declined, data: dataWithoutStatus }, '/data', 'required');
});

test('webhooks: WebhookDelivery, its list query and page', () => {
  accepts(WebhookDelivery, delivery);
  const delivered = { status: 'delivered', last_status_code: 204, last_error: null, next_attempt_at: null };
  accepts(WebhookDelivery, { ...delivery, ...delivered, delivered_at: NOW });
  const failed = { status: 'failed', last_status_code: null, last_error: 'connection refused', next_attempt_at: null };
  accepts(WebhookDelivery, { ...delivery, ...failed });
  rejects(WebhookDelivery, { ...delivery, status: 'retrying' }, '/status', 'enum');
  rejects(WebhookDelivery, { ...delivery, last_status_code: '500' }, '/last_status_code', 'anyOf');
  rejects(WebhookDelivery, { ...delivery, attempt_count: -1 }, '/attempt_count', 'minimum');
  rejects(WebhookDelivery, { ...delivery, next_attempt_at: 'in a minute' }, '/next_attempt_at', 'anyOf');
  rejects(WebhookDelivery, { ...delivery, payload: withData({ reason: 42 }) }, '/payload/data/reason', 'type');
  const { last_error: _lastError, ...withoutLastError } = delivery;
  rejects(WebhookDelivery, withoutLastError, '', 'required');

  accepts(WebhookDeliveryPage, { data: [delivery], next_cursor: '' });
  rejects(WebhookDeliveryPage, { data: [delivery] }, '', 'required');

  const Query = WebhookDeliveryListQuery;
  accepts(Query, {});
  accepts(Query, { signature_request_id: ID, event_type: 'signer.viewed', status: 'failed', limit: 100, cursor: 'c' });
  rejects(Query, { limit: 0 }, '/limit', 'minimum');
  rejects(Query, { limit: 101 }, '/limit', 'maximum');
  rejects(Query, { status: 'sent' }, '/status', 'enum');
  rejects(Query, { event_type: 'signer.signed' }, '/event_type', 'enum');
  rejects(Query, { signature_request_id: 'x' }, '/signature_request_id', 'format');
  accepts(Query, { cursor: '' }); // empty means the first page
  rejects(Query, { cursor: 'c'.repeat(201) }, '/cursor', 'maxLength');
  rejects(Query, { request: ID }, '', 'additionalProperties');
});

// evidence.ts

const evidenceSigner: EvidenceSigner = {
  id: ID2,
  reference: 'client',
  name: 'Ada',
  email: 'ada@example.com',
  signing_order: null,
  status: 'signed',
  signed_at: NOW,
};
const evidenceEvent: EvidenceEvent = {
  id: 1,
  type: 'request_activated',
  actor_type: 'api_client',
  actor_email: '',
  signer_id: null,
  created_at: NOW,
};
const evidenceTimestamp: EvidenceTimestamp = {
  provider: 'sandbox-tsa',
  hash_algorithm: 'SHA-256',
  document_hash: 'b'.repeat(64),
  generated_at: null,
  verification_status: 'unverified',
};
const evidence: EvidenceResponse = {
  schema_version: 'paraph.evidence/1.2',
  generated_at: NOW,
  signature_request_id: ID,
  client_reference: 'order-42',
  environment: 'sandbox',
  document: {
    evidence_ref: 'EV-2025-0001',
    name: 'nda.pdf',
    status: 'completed',
    sequential_signing: true,
    created_at: NOW,
    completed_at: NOW,
  },
  trust: {
    certificate: 'test/self-signed',
    production_trust_service: false,
    identity_verified: false,
    otp_used: false,
    qualified_timestamp: false,
    long_term_archive: false,
  },
  hashes: {
    original_pdf_sha256: 'a'.repeat(64),
    signed_pdf_sha256: 'b'.repeat(64),
    evidence_pdf_sha256: 'c'.repeat(64),
  },
  signers: [evidenceSigner, { ...evidenceSigner, id: ID, reference: 'witness', signing_order: 2, verification: 'email_otp', verified_at: NOW }],
  events: [evidenceEvent, { ...evidenceEvent, id: 2, type: 'signer_signed', actor_type: 'signer', signer_id: ID2 }],
  timestamps: [evidenceTimestamp],
  retention_expires_at: null,
};
type Change = Record<string, unknown>;
const withTrust = (change: Change): unknown => ({ ...evidence, trust: { ...evidence.trust, ...change } });
const withSigner = (change: Change): unknown => ({ ...evidence, signers: [{ ...evidenceSigner, ...change }] });
const withEvent = (change: Change): unknown => ({ ...evidence, events: [{ ...evidenceEvent, ...change }] });

test('evidence: EvidenceResponse', () => {
  const E = EvidenceResponse;
  accepts(E, evidence);
  accepts(E, { ...evidence, schema_version: 'acme2.evidence/1.2', retention_expires_at: NOW });
  accepts(E, withSigner({ verification: '', verified_at: null }));
  rejects(E, { ...evidence, schema_version: 'paraph.evidence/1.1' }, '/schema_version', 'pattern');
  rejects(E, { ...evidence, schema_version: 'Paraph.evidence/1.2' }, '/schema_version', 'pattern');
  rejects(E, { ...evidence, schema_version: 'paraphXevidence/1.2' }, '/schema_version', 'pattern');
  rejects(E, { ...evidence, schema_version: 'paraph.evidence/1.2.1' }, '/schema_version', 'pattern');
  rejects(E, withTrust({ identity_verified: true }), '/trust/identity_verified', 'const');
  rejects(E, withTrust({ otp_used: true }), '/trust/otp_used', 'const');
  rejects(E, withTrust({ long_term_archive: 'false' }), '/trust/long_term_archive', 'type');
  rejects(E, withTrust({ certificate: 'qualified' }), '/trust/certificate', 'const');
  rejects(E, withTrust({ eidas_level: 'none' }), '/trust', 'additionalProperties');
  rejects(E, { ...evidence, environment: 'production' }, '/environment', 'const');
  rejects(E, withSigner({ signing_order: 1.5 }), '/signers/0/signing_order', 'anyOf');
  rejects(E, withSigner({ verification: 'sms' }), '/signers/0/verification', 'enum');
  rejects(E, withSigner({ ip_address: '10.0.0.1' }), '/signers/0', 'additionalProperties');
  rejects(E, withEvent({ id: '1' }), '/events/0/id', 'type');
  rejects(E, withEvent({ signer_id: 'client' }), '/events/0/signer_id', 'anyOf');
  rejects(E, withEvent({ user_agent: 'curl' }), '/events/0', 'additionalProperties');
  const badTimestamp = { ...evidenceTimestamp, verification_status: 'valid' };
  rejects(E, { ...evidence, timestamps: [badTimestamp] }, '/timestamps/0/verification_status', 'enum');
  const { completed_at: _completedAt, ...documentWithoutCompletedAt } = evidence.document;
  rejects(E, { ...evidence, document: documentWithoutCompletedAt }, '/document', 'required');
  const { retention_expires_at: _retention, ...withoutRetention } = evidence;
  rejects(E, withoutRetention, '', 'required');
});

// bulk-sends.ts

const recipient: BulkSendRecipient = { client_reference: 'order-1', signers: [signer] };
const recipients = (n: number): BulkSendRecipient[] => Array.from({ length: n }, (_, i) => ({ ...recipient, client_reference: `order-${i + 1}` }));
const bulk: BulkSendInput = {
  template_id: ID,
  recipients: [{ ...recipient, field_values: { company: 'ACME' }, return_url: 'https://example.com/back' }],
  callback_url: 'https://example.com/hooks',
  return_url: 'https://example.com/done',
  email: { sender_name: 'ACME', subject: 'Please sign' },
  sequential_signing: true,
  send_emails: true,
  link_expiry_days: 30,
  embed_origin: 'https://app.example.com',
};
const withRecipient = (change: Record<string, unknown>): unknown => ({
  ...bulk,
  recipients: [{ ...recipient, ...change }],
});

test('bulk-sends: BulkSendInput', () => {
  const B = BulkSendInput;
  accepts(B, bulk);
  accepts(B, { template_id: ID, recipients: recipients(50) });
  rejects(B, { template_id: ID, recipients: recipients(51) }, '/recipients', 'maxItems');
  rejects(B, { template_id: ID, recipients: [] }, '/recipients', 'minItems');
  rejects(B, { recipients: recipients(1) }, '', 'required');
  rejects(B, { template_id: 'tpl_1', recipients: recipients(1) }, '/template_id', 'format');
  rejects(B, { ...bulk, name: 'March batch' }, '', 'additionalProperties');
  rejects(B, { ...bulk, link_expiry_days: 31 }, '/link_expiry_days', 'maximum');
  rejects(B, { ...bulk, link_expiry_days: 0 }, '/link_expiry_days', 'minimum');
  rejects(B, { ...bulk, embed_origin: `https://${chars(248)}` }, '/embed_origin', 'maxLength');
  rejects(B, { ...bulk, callback_url: 'not a url' }, '/callback_url', 'format');
  rejects(B, { ...bulk, send_emails: 'yes' }, '/send_emails', 'type');
  rejects(B, { ...bulk, email: { subject: 'a\nb' } }, '/email/subject', 'pattern');
  rejects(B, withRecipient({ client_reference: '' }), '/recipients/0/client_reference', 'minLength');
  rejects(B, withRecipient({ client_reference: chars(161) }), '/recipients/0/client_reference', 'maxLength');
  rejects(B, withRecipient({ signers: [] }), '/recipients/0/signers', 'minItems');
  const elevenSigners = Array.from({ length: 11 }, (_, i) => ({ ...signer, reference: `s${i}` }));
  rejects(B, withRecipient({ signers: elevenSigners }), '/recipients/0/signers', 'maxItems');
  rejects(B, withRecipient({ signers: [{ ...signer, email: 'nobody' }] }), '/recipients/0/signers/0/email', 'format');
  const longValue = { company: chars(501) };
  rejects(B, withRecipient({ field_values: longValue }), '/recipients/0/field_values/company', 'maxLength');
  rejects(B, withRecipient({ return_url: 'example.com/back' }), '/recipients/0/return_url', 'format');
  rejects(B, withRecipient({ callback_url: 'https://example.com/hooks' }), '/recipients/0', 'additionalProperties');
  rejects(B, { template_id: ID, recipients: [{ signers: [signer] }] }, '/recipients/0', 'required');
});

test('bulk-sends: BulkSendResponse', () => {
  const bulkSigner: BulkSendSigner = {
    id: ID2,
    reference: 'client',
    email: 'ada@example.com',
    status: 'pending',
    signing_url: 'http://127.0.0.1:4010/sign/abc',
    email_delivery: 'sent',
    embed_url: '',
  };
  const active: BulkSendResult = { client_reference: 'order-1', status: 'active', id: ID, signers: [bulkSigner] };
  const response: BulkSendResponse = {
    template_id: ID,
    total: 3,
    created: 1,
    failed: 1,
    results: [
      active,
      { client_reference: 'order-2', status: 'already_exists', id: ID2, signers: [] },
      {
        client_reference: 'order-3',
        status: 'error',
        signers: [],
        error: { code: 'activation_failed', message: 'no field for signer client' },
      },
    ],
  };
  const withResult = (change: Change): unknown => ({ ...response, results: [{ ...active, ...change }] });
  const R = BulkSendResponse;
  accepts(R, response);
  rejects(R, withResult({ status: 'created' }), '/results/0/status', 'enum');
  rejects(R, withResult({ id: 'order-1' }), '/results/0/id', 'format');
  rejects(R, withResult({ error: { code: 'not_found', message: 'x' } }), '/results/0/error/code', 'enum');
  const queued = { ...bulkSigner, email_delivery: 'queued' };
  rejects(R, withResult({ signers: [queued] }), '/results/0/signers/0/email_delivery', 'enum');
  rejects(R, withResult({ signers: [{ ...bulkSigner, token: 'x' }] }), '/results/0/signers/0', 'additionalProperties');
  rejects(R, { ...response, results: [{ client_reference: 'order-3', status: 'error' }] }, '/results/0', 'required');
  rejects(R, { ...response, total: 1.5 }, '/total', 'type');
  rejects(R, { ...response, skipped: 0 }, '', 'additionalProperties');
});

// sandbox.ts

test('sandbox: clock and email controls', () => {
  accepts(ClockState, { now: NOW, offset_seconds: 0 });
  accepts(ClockState, { now: NOW, offset_seconds: 950400 });
  rejects(ClockState, { now: NOW, offset_seconds: 1.5 }, '/offset_seconds', 'type');
  rejects(ClockState, { now: 'now', offset_seconds: 0 }, '/now', 'format');

  accepts(ClockAdvanceInput, { seconds: 1 });
  accepts(ClockAdvanceInput, { seconds: 11 * 86400 });
  rejects(ClockAdvanceInput, { seconds: 0 }, '/seconds', 'minimum');
  rejects(ClockAdvanceInput, { seconds: -60 }, '/seconds', 'minimum');
  rejects(ClockAdvanceInput, { seconds: 1.5 }, '/seconds', 'type');
  rejects(ClockAdvanceInput, { seconds: '90s' }, '/seconds', 'type');
  rejects(ClockAdvanceInput, {}, '', 'required');
  rejects(ClockAdvanceInput, { seconds: 60, run_jobs: false }, '', 'additionalProperties');

  accepts(SandboxEmailQuery, {});
  accepts(SandboxEmailQuery, { to: 'ada@example.com', signature_request_id: ID });
  rejects(SandboxEmailQuery, { signature_request_id: 'order-42' }, '/signature_request_id', 'format');
  rejects(SandboxEmailQuery, { limit: 10 }, '', 'additionalProperties');
});
