import Type from 'typebox';
import type { App } from '../app-type.js';

export function registerHealth(app: App, isReady: () => boolean): void {
  app.get(
    '/healthz',
    {
      config: { summary: 'Liveness and readiness: 200 once the API, the scheduler and the SMTP catcher are up' },
      schema: { response: { 200: Type.Object({ status: Type.Literal('ok') }), 503: Type.Object({ status: Type.Literal('starting') }) } },
    },
    async (_request, reply) => (isReady() ? { status: 'ok' as const } : reply.code(503).send({ status: 'starting' as const })),
  );
}
