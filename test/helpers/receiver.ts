import fs from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import type { TestContext } from 'node:test';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** What the next requests are answered: a status, optionally after a delay or with a Location. */
  respond: (answer: { status: number; delayMs?: number; location?: string }) => void;
  waitFor: (count: number, timeoutMs?: number) => Promise<Received[]>;
}

/** A real webhook receiver on a loopback port, closed when the test ends. */
export async function useReceiver(t: TestContext, path = '/hooks/paraph'): Promise<Receiver> {
  const received: Received[] = [];
  let answer: { status: number; delayMs?: number; location?: string } = { status: 204 };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString(), at: Date.now() });
      const { status, delayMs, location } = answer;
      const send = () => {
        if (response.destroyed) return;
        response.writeHead(status, location ? { location } : {});
        response.end('ok');
      };
      if (delayMs) setTimeout(send, delayMs).unref();
      else send();
    });
  });
  const port = await listenOnLoopback(t, server);
  return {
    url: `http://127.0.0.1:${port}${path}`,
    received,
    respond: (next) => {
      answer = next;
    },
    async waitFor(count, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      if (received.length < count) throw new Error(`expected ${count} webhook(s), received ${received.length}`);
      return received;
    },
  };
}

/** Starts an HTTP server on a free loopback port, closed (its connections too) when the test ends. */
export async function listenOnLoopback(t: { after(fn: () => unknown): void }, server: http.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return (server.address() as AddressInfo).port;
}

/**
 * A loopback port nothing listens on: free now, and below the range the system hands out to `listen(0)`,
 * so that no other test's server (they all listen on port 0, two test files run at once) takes it a
 * moment later. (A port freed by `listen(0)` may be handed out again within seconds, and a connection
 * meant to be refused then reaches a mail catcher's greeting instead.)
 */
export async function closedPort(): Promise<number> {
  const low = ephemeralLow();
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 10_000 + Math.floor(Math.random() * (low - 10_000));
    if (await isFree(port)) return port;
  }
  throw new Error(`no free loopback port found between 10000 and ${low}`);
}

/** The first port of the system's range for `listen(0)` (Linux: /proc/sys/net/ipv4/ip_local_port_range; 32768 elsewhere). */
function ephemeralLow(): number {
  try {
    const low = Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 11_000 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

function isFree(port: number): Promise<boolean> {
  const server = net.createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
