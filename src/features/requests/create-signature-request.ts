import { randomUUID } from 'node:crypto';
import type { Context } from '../../context.js';
import { findRequestByClientReference, insertRequest, type NewRequest, type RequestRow } from '../../model/request-queries.js';
import { findActiveTemplate } from '../templates/queries.js';
import { checkFieldValues, checkFields, checkFieldsOnPages, type PageBox } from '../../domain/field-rules.js';
import { RETENTION_MS } from '../../domain/limits.js';
import { checkSigners } from '../../domain/signer-rules.js';
import { checkSignersMatchRoles } from '../../domain/template-rules.js';
import { checkCallbackUrl, checkEmbedOrigin, checkLogoUrl, checkReturnUrl } from '../../domain/url-rules.js';
import { failWith, invalidDocument, invalidRequest } from '../../domain/errors.js';
import type { CreateRequestPayload, CreateResponse, FieldInput } from '../../contract/signature-requests.js';
import type { Principal } from '../../domain/principal.js';
import { fieldRows } from './field-rows.js';
import { loadTemplate, templateNotFound, type TemplateSource } from '../templates/load-template.js';
import { audit } from '../events/record-events.js';
import { createResponseOf } from './request-views.js';
import { recordIdempotentAnswer } from '../idempotency/committed-answers.js';
import { undrawnFieldValue, undrawnTextProblem } from '../../pdf/font-coverage.js';

export interface CreateRequestInput {
  principal: Principal;
  /** The uploaded PDF. A request from a template (`payload.template_id`) uses the template's PDF instead. */
  document: { filename: string; bytes: Buffer } | null;
  /** Already valid against the CreateRequestPayload schema. */
  payload: CreateRequestPayload;
  /** The template of `payload.template_id`, when the caller already loaded it (a bulk send, once per batch). */
  template?: TemplateSource;
  /** How messages name the payload: `request` (the multipart part) by default, `recipients[3]` for a bulk row. */
  root?: string;
}

export interface CreateRequestResult {
  response: CreateResponse;
  created: boolean;
}

/**
 * Creates a `prepared` request, or answers the existing one when the account already used this
 * `client_reference` (also under concurrent identical calls: the unique index and the write lock decide).
 * The document and fields come from the upload and the payload, or from a template; either way the
 * request gets its own encrypted copy of the PDF and its own retention deadline.
 */
export async function createSignatureRequest(ctx: Context, input: CreateRequestInput): Promise<CreateRequestResult> {
  const { payload, principal } = input;
  const root = input.root ?? 'request';
  const embedOrigin = checkPayload(ctx, payload, root);

  const existing = findRequestByClientReference(ctx.db, principal.accountId, payload.client_reference);
  if (existing) return { response: createResponseOf(existing, true), created: false };

  const { source, blob } = await storeDocument(ctx, input, root);
  const now = ctx.clock.now();
  const rows = newRequestRows(payload, { ...principal, embedOrigin, blob, now, source });
  let row: RequestRow;
  let created = false;
  try {
    row = ctx.db.transaction(() => {
      const raced = findRequestByClientReference(ctx.db, principal.accountId, payload.client_reference);
      if (raced) return raced;
      // An archive that committed since the template was loaded wins: nothing is made from it any more.
      if (source.templateId !== null && !findActiveTemplate(ctx.db, principal.accountId, source.templateId)) {
        throw templateNotFound(source.templateId);
      }
      insertRequest(ctx.db, rows);
      audit(ctx, {
        requestId: rows.request.id,
        type: 'request_created',
        actor: { type: 'api_client', keyId: principal.apiKeyId },
        data: {
          document_sha256: blob.sha256,
          signers: payload.signers.length,
          fields: source.fields.length,
          ...(source.templateId !== null ? { template_id: source.templateId } : {}),
        },
        at: now,
      });
      created = true;
      const made = findRequestByClientReference(ctx.db, principal.accountId, payload.client_reference) as RequestRow;
      recordIdempotentAnswer(ctx, { status: 201, body: createResponseOf(made, false) });
      return made;
    });
  } finally {
    if (!created) await ctx.blobs.delete(blob.id);
  }
  // A request made without fields has them detected next, as a rule: the analysis process starts meanwhile.
  if (created && source.fields.length === 0) ctx.workers.detector.warm();
  return { response: createResponseOf(row, !created), created };
}

/** Where a new request's PDF, page geometry and fields come from. */
interface RequestDocument {
  filename: string;
  bytes: Buffer;
  pages: readonly (PageBox & { rotation: number })[];
  fields: readonly FieldInput[];
  templateId: string | null;
}

/**
 * The request's document, read and checked, and its encrypted copy in the blob store. An upload is
 * inspected and stored at the same time (the inspection runs in another process); a copy stored for
 * an upload that fails its checks is deleted again.
 */
async function storeDocument(ctx: Context, input: CreateRequestInput, root: string): Promise<{ source: RequestDocument; blob: RowContext['blob'] }> {
  if (input.payload.template_id !== undefined || !input.document) {
    const source = await documentOf(ctx, input, root);
    return { source, blob: await ctx.blobs.put(source.bytes) };
  }
  const [source, blob] = await Promise.allSettled([documentOf(ctx, input, root), ctx.blobs.put(input.document.bytes)]);
  if (source.status === 'rejected') {
    if (blob.status === 'fulfilled') await ctx.blobs.delete(blob.value.id);
    throw source.reason;
  }
  if (blob.status === 'rejected') throw blob.reason;
  if (source.value.bytes !== input.document.bytes) {
    // An upload that opens without a password but is encrypted: its decrypted copy is the document.
    const decrypted = await ctx.blobs.put(source.value.bytes);
    await ctx.blobs.delete(blob.value.id);
    return { source: source.value, blob: decrypted };
  }
  return { source: source.value, blob: blob.value };
}

async function documentOf(ctx: Context, input: CreateRequestInput, root: string): Promise<RequestDocument> {
  const { payload } = input;
  if (payload.template_id !== undefined) {
    const template = input.template?.id === payload.template_id ? input.template : await loadTemplate(ctx, input.principal.accountId, payload.template_id);
    failWith(checkSignersMatchRoles(payload.signers, template.roles, `${root}.signers`));
    if (payload.field_values !== undefined) failWith(checkFieldValues(payload.field_values, template.fields, `${root}.field_values`));
    // Measured when the template was uploaded: the bytes are the same, so they are not inspected again.
    return { filename: template.filename, bytes: template.bytes, pages: template.pages, fields: template.fields, templateId: template.id };
  }
  if (!input.document) throw invalidRequest('multipart part "document" is required');
  const inspection = await ctx.workers.inspector.inspect(input.document.bytes);
  if (!inspection.ok) throw invalidDocument(inspection.message);
  const fields = payload.fields ?? [];
  failWith(checkFieldsOnPages(fields, inspection.pages, `${root}.fields`));
  // Encrypted with an empty user password: the decrypted copy is kept, signed and sealed (docs/detection.md).
  const bytes = inspection.decrypted
    ? Buffer.from(inspection.decrypted.buffer, inspection.decrypted.byteOffset, inspection.decrypted.byteLength)
    : input.document.bytes;
  return { filename: input.document.filename, bytes, pages: inspection.pages, fields, templateId: null };
}

/** The rules a schema cannot express; answers the normalised embed origin. */
function checkPayload(ctx: Context, payload: CreateRequestPayload, root: string): string | null {
  if (payload.template_id !== undefined && payload.fields !== undefined) {
    failWith(`${root}.template_id cannot be combined with ${root}.fields: the template brings its fields`);
  }
  failWith(checkSigners(payload.signers, payload.sequential_signing === true, `${root}.signers`));
  const fields = payload.fields ?? [];
  failWith(checkFields(fields, payload.signers, `${root}.fields`));
  failWith(undrawnFieldValue(fields, `${root}.fields`));
  for (const [name, value] of Object.entries(payload.field_values ?? {})) failWith(undrawnTextProblem(`${root}.field_values.${name}`, value, 'value'));
  // With a template, field_values are checked against its fields once it is loaded.
  if (payload.field_values !== undefined && payload.template_id === undefined) {
    failWith(checkFieldValues(payload.field_values, fields, `${root}.field_values`));
  }
  return checkDeliveryOptions(ctx, payload, root);
}

/**
 * `callback_url`, `return_url`, `embed_origin` and `email.logo_url`, as a create and a bulk batch take them; throws the
 * 400 of the first one that breaks its rule, answers the normalised embed origin.
 */
export function checkDeliveryOptions(
  ctx: Context,
  options: Pick<CreateRequestPayload, 'callback_url' | 'return_url' | 'embed_origin' | 'email'>,
  root: string,
): string | null {
  if (options.email?.logo_url !== undefined) {
    const error = checkLogoUrl(options.email.logo_url);
    failWith(error && `${root}.email.logo_url: ${error}`);
  }
  if (options.callback_url !== undefined) {
    const error = checkCallbackUrl(options.callback_url, { allowLoopback: ctx.policy.allowLoopbackWebhooks });
    failWith(error && `${root}.callback_url: ${error}`);
  }
  if (options.return_url !== undefined) {
    const error = checkReturnUrl(options.return_url);
    failWith(error && `${root}.return_url: ${error}`);
  }
  if (options.embed_origin === undefined) return null;
  const origin = checkEmbedOrigin(options.embed_origin);
  if ('error' in origin) throw invalidRequest(`${root}.embed_origin: ${origin.error}`);
  return origin.origin;
}

interface RowContext extends Principal {
  embedOrigin: string | null;
  blob: { id: string; sha256: string; size: number };
  now: number;
  source: RequestDocument;
}

function newRequestRows(payload: CreateRequestPayload, c: RowContext): NewRequest {
  const requestId = randomUUID();
  const documentId = randomUUID();
  return {
    document: {
      id: documentId,
      account_id: c.accountId,
      filename: c.source.filename,
      sha256: c.blob.sha256,
      size: c.blob.size,
      page_count: c.source.pages.length,
      pages_json: JSON.stringify(c.source.pages),
      blob_id: c.blob.id,
      created_at: c.now,
      purged_at: null,
    },
    request: {
      id: requestId,
      account_id: c.accountId,
      api_key_id: c.apiKeyId,
      client_reference: payload.client_reference,
      template_id: c.source.templateId,
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
    fields: fieldRows(requestId, c.source.fields, payload.field_values),
  };
}
