/**
 * Create: POST /v1/signature-requests (multipart `document` + `request`, two signers with a signature
 * field each) through the real binary. A ~200 KB PDF with a few requests in flight for a while
 * (requests/s, p50, p99), and an ~8 MiB PDF (just under the upload limit): latency of single creates
 * one after the other, then throughput with the same number in flight.
 */
import { randomBytes } from 'node:crypto';
import { create, createBody, twoSignerPayload, type Client } from './client.js';
import { withServe } from './serve.js';
import { mib } from './pdfs.js';
import { fmt, median, percentile } from './stats.js';

interface Loop {
  count: number;
  elapsedMs: number;
  latencies: number[];
}

/** `inFlight` clients, each creating one request after the other, until `seconds` passed or `count` were started. */
async function closedLoop(client: Client, pdf: Uint8Array, inFlight: number, until: { seconds?: number; count?: number }): Promise<Loop> {
  const make = createBody(pdf);
  const tag = randomBytes(4).toString('hex');
  const latencies: number[] = [];
  let started = 0;
  const begin = performance.now();
  const deadline = until.seconds === undefined ? Infinity : begin + until.seconds * 1000;
  const limit = until.count ?? Infinity;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (performance.now() < deadline && started < limit) {
        const n = (started += 1);
        const body = make(twoSignerPayload(`bench-create-${tag}-${n}`));
        const t = performance.now();
        await create(client, body);
        latencies.push(performance.now() - t);
      }
    }),
  );
  return { count: latencies.length, elapsedMs: performance.now() - begin, latencies };
}

export interface CreateResult {
  small: { bytes: number; inFlight: number; seconds: number; count: number; reqPerS: number; p50Ms: number; p99Ms: number };
  large: {
    bytes: number;
    singleMs: number[];
    singleMedianMs: number;
    inFlight: number;
    count: number;
    reqPerS: number;
    mibPerS: number;
    p50Ms: number;
    p99Ms: number;
  };
}

export async function benchCreate(
  small: Uint8Array,
  large: Uint8Array,
  options: { seconds: number; inFlight: number; largeRuns: number; largeCount: number },
): Promise<CreateResult> {
  return withServe({ scenario: 'create' }, async (serve) => {
    // Warm-up (JIT, connections, the PDF inspection), not counted.
    await closedLoop(serve, small, options.inFlight, { seconds: Math.min(2, options.seconds / 4) });
    const loop = await closedLoop(serve, small, options.inFlight, { seconds: options.seconds });
    const smallResult = {
      bytes: small.length,
      inFlight: options.inFlight,
      seconds: options.seconds,
      count: loop.count,
      reqPerS: (loop.count / loop.elapsedMs) * 1000,
      p50Ms: percentile(loop.latencies, 50),
      p99Ms: percentile(loop.latencies, 99),
    };
    console.log(
      `create, ${fmt(small.length / 1024)} KB PDF, ${options.inFlight} in flight for ${options.seconds} s: ${fmt(smallResult.reqPerS, 1)} requests/s ` +
        `(${loop.count} created), p50 ${fmt(smallResult.p50Ms, 1)} ms, p99 ${fmt(smallResult.p99Ms, 1)} ms`,
    );

    const single: number[] = [];
    for (let i = 0; i < options.largeRuns; i += 1) single.push(...(await closedLoop(serve, large, 1, { count: 1 })).latencies);
    const many = await closedLoop(serve, large, options.inFlight, { count: options.largeCount });
    const largeResult = {
      bytes: large.length,
      singleMs: single,
      singleMedianMs: median(single),
      inFlight: options.inFlight,
      count: many.count,
      reqPerS: (many.count / many.elapsedMs) * 1000,
      mibPerS: ((many.count * mib(large.length)) / many.elapsedMs) * 1000,
      p50Ms: percentile(many.latencies, 50),
      p99Ms: percentile(many.latencies, 99),
    };
    console.log(
      `create, ${fmt(mib(large.length), 2)} MiB PDF: ${fmt(largeResult.singleMedianMs)} ms median alone (${single.map((x) => fmt(x)).join(', ')} ms); ` +
        `${options.inFlight} in flight: ${fmt(largeResult.reqPerS, 1)} requests/s, ${fmt(largeResult.mibPerS, 0)} MiB/s, p50 ${fmt(largeResult.p50Ms)} ms, p99 ${fmt(largeResult.p99Ms)} ms (${many.count} created)`,
    );
    return { small: smallResult, large: largeResult };
  });
}
