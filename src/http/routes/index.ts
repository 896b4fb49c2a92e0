import type { Context } from '../../context.js';
import type { App } from '../app-type.js';
import { apiScopes } from '../api-scope.js';
import type { RateLimits } from '../hooks/rate-limit.js';
import type { NotFoundHandler } from '../not-found.js';
import type { OpenApiRoute } from '../openapi.js';
import { registerDashboard } from './dashboard.js';
import { registerDiscovery } from './discovery.js';
import { registerEvents } from './events.js';
import { registerHealth } from './health.js';
import { registerOpenApi } from './openapi.js';
import { registerRequestLifecycle } from './request-lifecycle.js';
import { registerFaults } from './faults.js';
import { registerSandbox } from './sandbox.js';
import { registerSandboxKeys } from './sandbox-keys.js';
import { registerSandboxTsa } from './sandbox-tsa.js';
import { registerSignatureRequests } from './signature-requests.js';
import { registerSigning } from './signing.js';
import { registerUiVendor } from './ui-files.js';
import { registerWebhookDeliveries } from './webhook-deliveries.js';
import { registerTemplates } from './templates.js';
import { registerBulkSends } from './bulk-sends.js';
import { registerArtifacts } from './artifacts.js';
import { registerDetection } from './detection.js';
import { PARAPH_VERSION } from '../../platform/version.js';

/**
 * Every route paraph serves, in one explicit table. The REST API's modules register in `/v1`
 * plugins (src/http/api-scope.ts), the signer's routes in `/sign` and `/embed` ones: each plugin's
 * hooks apply to its routes alone. The order is the OpenAPI document's.
 */
export async function registerRoutes(
  app: App,
  deps: { ctx: Context; routes: readonly OpenApiRoute[]; rateLimits: RateLimits; notFound: NotFoundHandler },
): Promise<void> {
  const api = apiScopes(app, deps.ctx, deps.rateLimits);
  registerDiscovery(app, deps.ctx, PARAPH_VERSION);
  registerHealth(app);
  registerOpenApi(app, deps.routes, PARAPH_VERSION);
  await api(registerSignatureRequests, registerRequestLifecycle, registerWebhookDeliveries, registerEvents);
  registerSandbox(app, deps.ctx);
  registerSandboxKeys(app, deps.ctx);
  registerSandboxTsa(app, deps.ctx);
  registerFaults(app, deps.ctx);
  await api(registerTemplates, registerBulkSends);
  await registerUiVendor(app);
  await registerSigning(app, deps.ctx, deps.notFound);
  await api(registerArtifacts, registerDetection);
  registerDashboard(app, deps.ctx);
}
