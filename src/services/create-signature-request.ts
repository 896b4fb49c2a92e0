import { randomUUID } from 'node:crypto';
import type { Context } from '../context.js';
import {
  findRequestByClientReference,
  insertRequest,
  type NewRequest,
  type RequestRow,
} from '../db/repos/signature-requests.js';
import { checkFieldValues, checkFields, checkFieldsOnPages } from '../domain/field-rules.js';
import { RETENTION_MS } from '../domain/limits.js';
import { checkSigners } from '../domain/signer-rules.js';
import { checkCallbackUrl, checkEmbedOrigin, checkReturnUrl } from '../domain/url-rules.js';
import { invalidDocument, invalidRequest, ParaphError } from '../errors.js';
import type { CreateRequestPayload, CreateResponse } from '../http/schemas/signature-requests.js';
import type { Principal } from './authenticate-api-key.js';
import { fieldRows } from './field-rows.js';
import { audit } from './record-events.js';
import { createResponseOf } from './request-views.js';

export interface CreateRequestInput {
  principal: Principal;
  document: { filename: string; bytes: Buffer };
  /** Already valid against the CreateRequestPayload schema. */
  payload: CreateRequestPayload;
}

export interface CreateRequestResult {
  response: CreateResponse;
  created: boolean;
}

/**
 * Creates a `prepared` request, or answers the existing one when the account already used this
 * `client_reference` (also under concurrent identical calls: the unique index and the write lock decide).
 */
export async function createSignatureRequest(ctx: Context, input: CreateRequestInput): Promise<CreateRequestResult> {
  const { payload, principal } = input;
  const embedOrigin = checkPayload(ctx, payload);

  const existing = findRequestByClientReference(ctx.db, principal.accountId, payload.client_reference);
  if (existing) return { response: createResponseOf(existing, true), created: false };

  if (payload.template_id !== undefined) {
    throw new ParaphError('template_not_found', `template ${payload.template_id} does not exist`);
  }

  const inspection = await ctx.pdf.inspect(input.document.bytes);
  if (!inspection.ok) throw invalidDocument(inspection.message);
  const fields = payload.fields ?? [];
  const pageError = checkFieldsOnPages(fields, inspection.pages, 'request.fields');
  if (pageError) throw invalidRequest(pageError);

  const blob = await ctx.blobs.put(input.document.bytes);
  const now = ctx.clock.now();
  const rows = newRequestRows(payload, { ...principal, embedOrigin, blob, now, filename: input.document.filename, pages: inspection.pages });
  let row: RequestRow;
  let created = false;
  try {
    row = ctx.db.transaction(() => {
      const raced = findRequestByClientReference(ctx.db, principal.accountId, payload.client_reference);
      if (raced) return raced;
      insertRequest(ctx.db, rows);
      audit(ctx, {
        requestId: rows.request.id,
        type: 'request_created',
        actor: { type: 'api_client', keyId: principal.apiKeyId },
        data: { document_sha256: blob.sha256, signers: payload.signers.length, fields: payload.fields?.length ?? 0 },
        at: now,
      });
      created = true;
      return findRequestByClientReference(ctx.db, principal.accountId, payload.client_reference) as RequestRow;
    });
  } finally {
    if (!created) await ctx.blobs.delete(blob.id);
  }
  return { response: createResponseOf(row, !created), created };
}

/** The rules a schema cannot express; answers the normalised embed origin. */
function checkPayload(ctx: Context, payload: CreateRequestPayload): string | null {
  const fail = (message: string | null) => {
    if (message) throw invalidRequest(message);
  };
  if (payload.template_id !== undefined && payload.fields !== undefined) {
    fail('request.template_id cannot be combined with request.fields: the template brings its fields');
  }
  fail(checkSigners(payload.signers, payload.sequential_signing === true, 'request.signers'));
  const fields = payload.fields ?? [];
  fail(checkFields(fields, payload.signers, 'request.fields'));
  if (payload.field_values !== undefined && payload.template_id === undefined) {
    fail(checkFieldValues(payload.field_values, fields, 'request.field_values'));
  }
  if (payload.callback_url !== undefined) {
    const error = checkCallbackUrl(payload.callback_url, { allowLoopback: ctx.policy.allowLoopbackWebhooks });
    fail(error && `request.callback_url: ${error}`);
  }
  if (payload.return_url !== undefined) {
    const error = checkReturnUrl(payload.return_url);
    fail(error && `request.return_url: ${error}`);
  }
  if (payload.embed_origin === undefined) return null;
  const origin = checkEmbedOrigin(payload.embed_origin);
  if ('error' in origin) fail(`request.embed_origin: ${origin.error}`);
  return 'origin' in origin ? origin.origin : null;
}

interface RowContext extends Principal {
  embedOrigin: string | null;
  blob: { id: string; sha256: string; size: number };
  now: number;
  filename: string;
  pages: readonly { width: number; height: number; rotation: number }[];
}

function newRequestRows(payload: CreateRequestPayload, c: RowContext): NewRequest {
  const requestId = randomUUID();
  const documentId = randomUUID();
  return {
    document: {
      id: documentId,
      account_id: c.accountId,
      filename: c.filename,
      sha256: c.blob.sha256,
      size: c.blob.size,
      page_count: c.pages.length,
      pages_json: JSON.stringify(c.pages),
      blob_id: c.blob.id,
      created_at: c.now,
      purged_at: null,
    },
    request: {
      id: requestId,
      account_id: c.accountId,
      api_key_id: c.apiKeyId,
      client_reference: payload.client_reference,
      template_id: null,
      status: 'prepared',
      document_id: documentId,
      callback_url: payload.callback_url ?? null,
      sequential_signing: payload.sequential_signing === true ? 1 : 0,
      return_url: payload.return_url ?? null,
      embed_origin: c.embedOrigin,
      email_json: payload.email === undefined ? null : JSON.stringify(payload.email),
      created_at: c.now,
      updated_at: c.now,
      retention_expires_at: c.now + RETENTION_MS,
      activated_at: null,
      completed_at: null,
      cancelled_at: null,
      cancellation_reason: null,
      link_expiry_days: null,
    },
    signers: payload.signers.map((signer, position) => ({
      id: randomUUID(),
      request_id: requestId,
      position,
      reference: signer.reference,
      name: signer.name ?? null,
      email: signer.email,
      signing_order: signer.order,
      locale: signer.locale ?? null,
      verification: signer.verification ?? null,
      status: 'pending',
      signed_at: null,
      expires_at: null,
      verified_at: null,
      replaced_at: null,
      created_at: c.now,
      updated_at: c.now,
    })),
    fields: fieldRows(requestId, payload.fields ?? [], payload.field_values),
  };
}
