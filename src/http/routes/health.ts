import Type from 'typebox';
import type { App } from '../app-type.js';

/**
 * The port opens once the scheduler and the SMTP catcher run (src/server.ts), so every answer is 200;
 * the 503 `starting` answer stays described for clients that wait on it.
 */
export function registerHealth(app: App): void {
  app.get(
    '/healthz',
    {
      config: { summary: 'Liveness and readiness: 200 once the API, the scheduler and the SMTP catcher are up' },
      schema: { response: { 200: Type.Object({ status: Type.Literal('ok') }), 503: Type.Object({ status: Type.Literal('starting') }) } },
    },
    async () => ({ status: 'ok' as const }),
  );
}
