// Webhook receivers of users, on loopback, for the receiver check: the correct one of
// examples/webhook-receiver (run as a user runs it) and one that checks signatures but not timestamps.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { listenOnLoopback } from './receiver.js';
import path from 'node:path';
import { timingSafeEqual } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Webhook } from 'standardwebhooks';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const EXAMPLE_RECEIVER = path.join(ROOT, 'examples/webhook-receiver/receiver.mjs');

/** What cleans up after a receiver: a node:test TestContext, or a script's own list. */
export interface Cleanup {
  after(fn: () => unknown): void;
}

/** `node examples/webhook-receiver/receiver.mjs` on a free loopback port; its URL and what it printed. */
export async function startExampleReceiver(t: Cleanup, secret: string): Promise<{ url: string; output: () => string }> {
  const child = spawn(process.execPath, [EXAMPLE_RECEIVER], {
    env: { ...process.env, PARAPH_WEBHOOK_SECRET: secret, PORT: '0', HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.after(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let output = '';
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
      const match = /Receiving webhooks at (\S+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`the example receiver exited with ${code}: ${output}`)));
  });
  return { url, output: () => output };
}

/**
 * A receiver that verifies `webhook-signature` (every header present, a v1 entry matching the HMAC of
 * id.timestamp.body, compared in constant time) and never looks at how old the timestamp is.
 */
export async function signatureOnlyReceiver(t: Cleanup, secret: string): Promise<string> {
  const webhook = new Webhook(secret);
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      const id = request.headers['webhook-id'];
      const timestamp = request.headers['webhook-timestamp'];
      const signatures = request.headers['webhook-signature'];
      if (typeof id !== 'string' || !id || typeof timestamp !== 'string' || !timestamp || typeof signatures !== 'string') {
        return response.writeHead(400).end('missing headers');
      }
      // The timestamp is taken as it comes: only the signature over it is checked.
      const expected = Buffer.from(webhook.sign(id, new Date(Number(timestamp) * 1000), body));
      const match = signatures.split(' ').some((entry) => {
        const given = Buffer.from(entry);
        return given.length === expected.length && timingSafeEqual(given, expected);
      });
      response.writeHead(match ? 204 : 401).end();
    });
  });
  return `http://127.0.0.1:${await listenOnLoopback(t, server)}/webhooks`;
}
