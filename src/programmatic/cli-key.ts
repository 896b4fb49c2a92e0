import { spawn } from 'node:child_process';

/** A data directory whose first key was shown at an earlier start: a new key, made by the CLI. */
export async function keyFromCli(
  bin: string,
  dataDir: string,
  env: NodeJS.ProcessEnv | undefined,
): Promise<{ api_key: string; webhook_secret: string; account_id: string }> {
  const child = spawn(process.execPath, [bin, 'keys', 'create', '--json', '--data-dir', dataDir], {
    env: env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (code !== 0) throw new Error(`paraph keys create failed (exit ${code}): ${err.trim()}`);
  return JSON.parse(out) as { api_key: string; webhook_secret: string; account_id: string };
}
