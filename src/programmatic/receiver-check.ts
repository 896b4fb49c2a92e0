import { spawn } from 'node:child_process';
import type { ReceiverCheck } from '../contract/receiver-check.js';

export type { ReceiverCheck, ReceiverCheckCase, ReceiverCheckDelivery } from '../contract/receiver-check.js';

export interface CheckReceiverOptions {
  /** The timestamp tolerance the receiver applies, in seconds; default 300 (the Standard Webhooks libraries'). */
  toleranceSeconds?: number;
  /** Sign with this API key's webhook secret instead of the sandbox's key (one made by `createKey()`). */
  apiKey?: string;
}

/**
 * Runs `paraph webhooks check --json` on the sandbox's data directory, as the CLI does, and answers
 * its report, passed or not; a check that cannot run (a bad URL, an unknown key) throws.
 */
export async function runReceiverCheck(
  bin: string,
  sandbox: { dataDir: string; apiKey: string; env: NodeJS.ProcessEnv | undefined },
  url: string,
  options: CheckReceiverOptions,
): Promise<ReceiverCheck> {
  const args = [bin, 'webhooks', 'check', '--json', '--url', url, '--data-dir', sandbox.dataDir];
  if (options.toleranceSeconds !== undefined) args.push('--tolerance', String(options.toleranceSeconds));
  // The key goes by the environment, never on a command line that `ps` shows.
  const env = { ...(sandbox.env ?? process.env), PARAPH_API_KEY: options.apiKey ?? sandbox.apiKey };
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (code === 0 || (code === 1 && out.trimStart().startsWith('{'))) return JSON.parse(out) as ReceiverCheck;
  throw new Error(`paraph webhooks check failed (exit ${code}): ${err.trim().replace(/^paraph: /, '')}`);
}
