import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../../context.js';
import { sha256Hex } from '../../platform/crypto/tokens.js';
import { invalidRequest, ParaphError } from '../../domain/errors.js';
import { MAX_IDEMPOTENCY_KEY } from '../../domain/limits.js';
import { noteReplayedError } from '../errors.js';
import { claimIdempotencyKey, releaseIdempotencyKey, storeIdempotentAnswer } from '../../features/idempotency/idempotency-keys.js';
import { runKeyedCall } from '../../features/idempotency/committed-answers.js';

interface ClaimedKey {
  accountId: string;
  key: string;
  fingerprint: string;
  settled: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotency: ClaimedKey | null;
  }
  interface FastifyContextConfig {
    /** A mutating route: it honours the Idempotency-Key header (registered in the API's `keyed` plugin). */
    idempotent?: boolean;
    /** What identifies the call's body when it is not `request.body` (multipart: the parsed parts). */
    fingerprint?: (request: FastifyRequest) => unknown;
    /** Reads a body fastify does not parse (multipart), before the key is claimed; its checks come later. */
    readBody?: (request: FastifyRequest) => Promise<void>;
  }
}

const KEY_SHAPE = new RegExp(`^[\\x20-\\x7e]{1,${MAX_IDEMPOTENCY_KEY}}$`);

/**
 * The call's path as one call is always written: its resource id in lower case (an id names the same resource
 * whatever its case) and no empty query (`/cancel?` is `/cancel`), so a retry spelt otherwise replays.
 */
function callPath(request: FastifyRequest): string {
  const cut = request.url.indexOf('?');
  const path = cut < 0 ? request.url : request.url.slice(0, cut);
  const query = cut < 0 ? '' : request.url.slice(cut + 1);
  const segments = path.split('/');
  const at = (request.routeOptions.url ?? '').split('/').indexOf(':id');
  const id = segments[at];
  if (at >= 0 && id !== undefined) segments[at] = id.toLowerCase();
  return query === '' ? segments.join('/') : `${segments.join('/')}?${query}`;
}

/**
 * Idempotency-Key on the routes of `scope`, the REST API's plugin for its mutating routes
 * (src/http/api-scope.ts): a repeat within 24 hours answers the stored status and body
 * with `Idempotent-Replayed: true` and does not act again; a call still running answers 409; the key
 * reused for another method, path or body answers 422. 5xx and 429 answers are not stored, unless the
 * change committed: use cases write their answer in the transaction of their change
 * (src/features/idempotency/committed-answers.ts), so a crash at any instant never makes a retry act twice.
 */
export function keyedCalls(scope: FastifyInstance, ctx: Context): void {
  // Before the body is validated: an answer to a body that is not valid (400) is kept and replayed as
  // any other, and a key reused with another body answers 422 whether or not that body is valid.
  const claimKey = async (request: FastifyRequest, reply: FastifyReply) => {
    const config = request.routeOptions.config;
    if (config.readBody) await config.readBody(request);
    if (!request.principal) return;
    const header = request.headers['idempotency-key'];
    if (header === undefined) return;
    if (typeof header !== 'string' || !KEY_SHAPE.test(header)) {
      throw invalidRequest(`Idempotency-Key must be 1 to ${MAX_IDEMPOTENCY_KEY} printable ASCII characters`);
    }
    // No body and an empty object are the same call to an endpoint whose input is optional.
    const body = config.fingerprint?.(request) ?? request.body ?? {};
    const call = {
      accountId: request.principal.accountId,
      key: header,
      method: request.method,
      path: callPath(request),
      fingerprint: sha256Hex(canonicalJson(body)),
    };
    const claim = claimIdempotencyKey(ctx, call);
    switch (claim.kind) {
      case 'new':
        request.idempotency = { accountId: call.accountId, key: call.key, fingerprint: call.fingerprint, settled: false };
        return;
      case 'replay':
        noteReplayedError(reply, claim.status, claim.body);
        return reply
          .code(claim.status)
          .header('idempotent-replayed', 'true')
          .header('x-request-id', claim.requestId ?? request.id)
          .header('content-type', claim.contentType ?? 'application/json; charset=utf-8')
          .send(claim.body);
      case 'replay_object':
        noteReplayedError(reply, claim.status, claim.body);
        // Serialized by the route's response schema, as the first answer would have been.
        return reply
          .code(claim.status)
          .header('idempotent-replayed', 'true')
          .header('x-request-id', claim.requestId ?? request.id)
          .send(claim.body);
      case 'in_progress':
        throw new ParaphError('idempotency_request_in_progress', 'a call with this Idempotency-Key is still running; retry shortly');
      case 'mismatch':
        throw new ParaphError('idempotency_key_reused', 'this Idempotency-Key was used for a different call (method, path or body); use a new key');
    }
  };

  const onSend = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const claimed = request.idempotency;
    if (!claimed || claimed.settled) return payload;
    claimed.settled = true;
    const status = reply.statusCode;
    try {
      if (status >= 500 || status === 429 || !(typeof payload === 'string' || Buffer.isBuffer(payload))) {
        releaseIdempotencyKey(ctx, claimed);
      } else {
        const contentType = reply.getHeader('content-type');
        storeIdempotentAnswer(ctx, claimed, {
          status,
          contentType: typeof contentType === 'string' ? contentType : null,
          body: Buffer.from(payload),
          requestId: request.id,
        });
      }
    } catch (error) {
      // The answer goes as it is (a full disk must not turn it into another): the key is free for a retry,
      // which replays an answer written with its change or, if none was, runs the call again.
      request.log.error({ err: error }, 'the Idempotency-Key outcome could not be written');
    }
    return payload;
  };

  // A call that never answered (the client went away) must not hold its key.
  const releaseUnsettled = async (request: FastifyRequest) => {
    const claimed = request.idempotency;
    if (claimed && !claimed.settled) {
      claimed.settled = true;
      try {
        releaseIdempotencyKey(ctx, claimed);
      } catch (error) {
        request.log.error({ err: error }, 'the Idempotency-Key could not be freed');
      }
    }
  };
  // The hooks of this plugin only: the other routes (every read) run none of them.
  scope.addHook('preValidation', claimKey);
  scope.addHook('onSend', onSend);
  scope.addHook('onResponse', releaseUnsettled);
  scope.addHook('onRequestAbort', releaseUnsettled);
  scope.addHook('onRoute', (route) => {
    // The OpenAPI document reads the mark (an Idempotency-Key parameter, 409 and 422): it must say so.
    if (route.config?.idempotent !== true) throw new Error(`${route.method} ${route.url} honours Idempotency-Key: mark it config.idempotent`);
    // The handler runs as the claimed call: its use case writes the answer with its change.
    const handler = route.handler;
    route.handler = function keyedHandler(this: unknown, request, reply) {
      const claimed = request.idempotency;
      if (!claimed) return handler.call(this as never, request, reply);
      const call = { accountId: claimed.accountId, key: claimed.key, fingerprint: claimed.fingerprint, requestId: request.id, recorded: false };
      return runKeyedCall(ctx, call, () => handler.call(this as never, request, reply));
    };
  });
}

/** JSON with object keys sorted, so equal bodies have equal fingerprints whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
