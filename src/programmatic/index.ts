/**
 * paraph from code: `import { startSandbox } from 'paraph'` starts a throwaway sandbox for a test
 * suite and hands back its addresses, a key and helpers (docs/testing.md).
 */
export { startSandbox } from './start-sandbox.js';
export type {
  ApiKey,
  CaughtEmail,
  EmailFilter,
  FaultRule,
  FaultRuleInput,
  Listener,
  Sandbox,
  SandboxOptions,
  SignatureRequestStatus,
  SignerOutcome,
  SignOptions,
  TriggerOptions,
  TriggerResult,
} from './start-sandbox.js';
export type { CheckReceiverOptions, ReceiverCheck, ReceiverCheckCase, ReceiverCheckDelivery } from './receiver-check.js';
export { SandboxRequestError } from './sandbox-http.js';
export { SignerApiError, SigningLinkError } from '../signer-client/act-as-signer.js';
export { TriggerError } from './trigger-event.js';
