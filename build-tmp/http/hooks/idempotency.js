import { sha256Hex } from '../../crypto/tokens.js';
import { invalidRequest, ParaphError } from '../../errors.js';
import { claimIdempotencyKey, releaseIdempotencyKey, storeIdempotentAnswer, } from '../../services/idempotency-keys.js';
const KEY_SHAPE = /^[\x20-\x7e]{1,255}$/;
/**
 * Idempotency-Key on mutating routes: a repeat within 24 hours answers the stored status and body
 * with `Idempotent-Replayed: true` and does not act again; a call still running answers 409; the key
 * reused for another method, path or body answers 422. 5xx and 429 answers are not stored.
 */
export function registerIdempotency(app, ctx) {
    app.decorateRequest('idempotency', null);
    app.addHook('preHandler', async (request, reply) => {
        if (request.routeOptions.config.idempotent !== true || !request.principal)
            return;
        const header = request.headers['idempotency-key'];
        if (header === undefined)
            return;
        if (typeof header !== 'string' || !KEY_SHAPE.test(header)) {
            throw invalidRequest('Idempotency-Key must be 1 to 255 printable ASCII characters');
        }
        // No body and an empty object are the same call to an endpoint whose input is optional.
        const body = request.routeOptions.config.fingerprint?.(request) ?? request.body ?? {};
        const call = {
            accountId: request.principal.accountId,
            key: header,
            method: request.method,
            path: request.url,
            fingerprint: sha256Hex(canonicalJson(body)),
        };
        const claim = claimIdempotencyKey(ctx, call);
        switch (claim.kind) {
            case 'new':
                request.idempotency = { accountId: call.accountId, key: call.key, settled: false };
                return;
            case 'replay':
                return reply
                    .code(claim.status)
                    .header('idempotent-replayed', 'true')
                    .header('x-request-id', claim.requestId ?? request.id)
                    .header('content-type', claim.contentType ?? 'application/json; charset=utf-8')
                    .send(claim.body);
            case 'in_progress':
                throw new ParaphError('idempotency_request_in_progress', 'a call with this Idempotency-Key is still running; retry shortly');
            case 'mismatch':
                throw new ParaphError('idempotency_key_reused', 'this Idempotency-Key was used for a different call (method, path or body); use a new key');
        }
    });
    app.addHook('onSend', async (request, reply, payload) => {
        const claimed = request.idempotency;
        if (!claimed || claimed.settled)
            return payload;
        claimed.settled = true;
        const status = reply.statusCode;
        if (status >= 500 || status === 429 || !(typeof payload === 'string' || Buffer.isBuffer(payload))) {
            releaseIdempotencyKey(ctx, claimed);
        }
        else {
            const contentType = reply.getHeader('content-type');
            storeIdempotentAnswer(ctx, claimed, {
                status,
                contentType: typeof contentType === 'string' ? contentType : null,
                body: Buffer.from(payload),
                requestId: request.id,
            });
        }
        return payload;
    });
    // A call that never answered (the client went away) must not hold its key.
    const releaseUnsettled = async (request) => {
        const claimed = request.idempotency;
        if (claimed && !claimed.settled) {
            claimed.settled = true;
            releaseIdempotencyKey(ctx, claimed);
        }
    };
    app.addHook('onResponse', releaseUnsettled);
    app.addHook('onRequestAbort', releaseUnsettled);
}
/** JSON with object keys sorted, so equal bodies have equal fingerprints whatever their key order. */
export function canonicalJson(value) {
    if (Array.isArray(value))
        return `[${value.map(canonicalJson).join(',')}]`;
    if (value !== null && typeof value === 'object') {
        const entries = Object.entries(value)
            .filter(([, v]) => v !== undefined)
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
        return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
    }
    return JSON.stringify(value) ?? 'null';
}
//# sourceMappingURL=idempotency.js.map