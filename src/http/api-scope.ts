import type { Context } from '../context.js';
import type { App } from './app-type.js';
import { apiFaultHook } from './hooks/faults.js';
import { keyedCalls } from './hooks/idempotency.js';
import type { RateLimits } from './hooks/rate-limit.js';

/** Where a REST API route module registers: every route on `api`, a mutating one on `keyed`. */
export interface ApiScope {
  /** Routes under `/v1` (paths given without it): rate limits and fault rules apply to their calls. */
  api: App;
  /** A plugin inside `api` for the mutating routes: they also honour Idempotency-Key. */
  keyed: App;
}

export type ApiRoutes = (scope: ApiScope, ctx: Context) => void;

/**
 * The REST API as fastify plugins with the `/v1` prefix: their hooks apply to their routes alone, so
 * none tests a URL and the other routes (sandbox controls, signing page, dashboard) never run them.
 * The answered function registers some route modules in one such plugin, in the order given (the
 * OpenAPI document lists routes in registration order, so the modules keep theirs). Every plugin
 * shares the app's rate-limit state.
 */
export function apiScopes(app: App, ctx: Context, limitRate: RateLimits): (...modules: ApiRoutes[]) => Promise<void> {
  const injectFault = apiFaultHook(ctx);
  const keyedScopes = new WeakSet<object>();
  return async (...modules) => {
    await app.register(
      async (api: App) => {
        // After the app's own onRequest (auth among it): the rate limit, then the account's fault rules.
        // One synchronous hook (no promise per step).
        api.addHook('onRequest', (request, reply, done) => {
          try {
            // fastify makes a new routeOptions object at each read: one read for the two steps.
            const route = request.routeOptions;
            limitRate.limit(request, reply, route);
            const delayMs = injectFault(request, reply, route);
            if (delayMs > 0) {
              setTimeout(() => done(), delayMs);
              return;
            }
          } catch (error) {
            return done(error as Error);
          }
          done();
        });
        // A call that did no work gives back its slot in a bucket that counts work (detection, bulk sends).
        api.addHook('onResponse', (request, reply, done) => {
          limitRate.settle(request, reply);
          done();
        });
        // A route marked idempotent on `api` would answer a repeat twice: refused when it is added.
        api.addHook('onRoute', function idempotentOnlyWhenKeyed(this: object, route) {
          if (route.config?.idempotent === true && !keyedScopes.has(this))
            throw new Error(`${route.method} ${route.url} is marked idempotent: register it on keyed`);
        });
        await api.register(async (keyed: App) => {
          keyedScopes.add(keyed);
          keyedCalls(keyed, ctx);
          for (const register of modules) register({ api, keyed }, ctx);
        });
      },
      { prefix: '/v1' },
    );
  };
}
