import type { Context } from '../../context.js';
import { createApiKey } from '../../features/keys/create-api-key.js';
import type { App } from '../app-type.js';
import { principalOf } from '../hooks/auth.js';
import { ApiKeyCreateInput, CreatedApiKey } from '../../contract/sandbox-keys.js';
import { errorResponses } from './responses.js';

/** `POST /_sandbox/api-keys`: what `paraph keys create` does, for clients that only speak HTTP. */
export function registerSandboxKeys(app: App, ctx: Context): void {
  app.post(
    '/_sandbox/api-keys',
    {
      config: { auth: true, summary: "Create an API key: in a new account (default), or another key of the calling key's account" },
      schema: { body: ApiKeyCreateInput, response: { 201: CreatedApiKey, ...errorResponses(400, 401) } },
    },
    async (request, reply) => {
      const same = request.body?.account === 'same';
      const created = createApiKey(ctx, same ? { accountId: principalOf(request).accountId } : {});
      return reply.code(201).send(created);
    },
  );
}
