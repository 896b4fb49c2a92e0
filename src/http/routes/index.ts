import type { Context } from '../../context.js';
import type { App } from '../app-type.js';
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

/** Every route paraph serves, in one explicit table. */
export async function registerRoutes(
  app: App,
  deps: { ctx: Context; routes: readonly OpenApiRoute[] },
): Promise<void> {
  registerDiscovery(app, deps.ctx, PARAPH_VERSION);
  registerHealth(app);
  registerOpenApi(app, deps.routes, PARAPH_VERSION);
  registerSignatureRequests(app, deps.ctx);
  registerRequestLifecycle(app, deps.ctx);
  registerWebhookDeliveries(app, deps.ctx);
  registerEvents(app, deps.ctx);
  registerSandbox(app, deps.ctx);
  registerSandboxKeys(app, deps.ctx);
  registerSandboxTsa(app, deps.ctx);
  registerFaults(app, deps.ctx);
  registerTemplates(app, deps.ctx);
  registerBulkSends(app, deps.ctx);
  await registerUiVendor(app);
  await registerSigning(app, deps.ctx);
  registerArtifacts(app, deps.ctx);
  registerDetection(app, deps.ctx);
  registerDashboard(app, deps.ctx, deps.routes);
}
