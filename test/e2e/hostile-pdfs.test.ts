// Hostile PDFs through create and detect-fields against a real `paraph serve`: each gets a clear 4xx or a
// bounded 503 (never a 5xx of another kind, never a hang), no code in a document runs, the server's
// memory comes back under 300 MB, and no process is left behind when it stops.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { residentMb } from '../../src/pdf/detect.js';
import { apiClient, serveProcess } from '../helpers/cli.js';
import * as hostile from '../helpers/hostile-pdfs.js';
import { childrenOf } from '../helpers/processes.js';
import { useTmpDir } from '../helpers/server.js';

const RSS_CEILING_MB = 300;
/** The detection time limit (30 s) and a margin. */
const DETECT_BOUND_MS = 35_000;

/** The server's resident set (it is running, so /proc has it). */
function rssOf(pid: number): number {
  const mb = residentMb(pid);
  if (mb === undefined) throw new Error(`no resident set for process ${pid}`);
  return mb;
}

/** An error answer in the envelope: exactly code, message and request_id. */
function assertEnvelope(body: Record<string, any>, code: string): void {
  assert.deepEqual(Object.keys(body), ['error']);
  assert.deepEqual(Object.keys(body.error).sort(), ['code', 'message', 'request_id']);
  assert.equal(body.error.code, code);
  assert.equal(typeof body.error.message, 'string');
}

const alive = (pid: number) => fs.existsSync(`/proc/${pid}`) && !/State:\s+Z/.test(fs.readFileSync(`/proc/${pid}/status`, 'latin1'));

test('hostile PDFs: a clear 4xx or a bounded 503 each, no code run, memory back under 300 MB, no process left', {
  skip: process.platform !== 'linux',
}, async (t) => {
  const dir = useTmpDir(t);
  const marker = path.join(dir, 'font-matrix-ran');
  const documents: Array<[string, Uint8Array]> = [
    ['decompression bomb (font program, 3 GiB)', hostile.fontBomb(3072)],
    ['decompression bomb (page content, 2 GiB)', hostile.contentBomb(2048)],
    ['arrays nested 100,000 deep', hostile.deepNesting()],
    ['dictionaries nested 100,000 deep in the content', hostile.deepContent()],
    ['cross-reference sections in a loop', hostile.xrefLoop()],
    ['a 50,000-page tree', hostile.pageTree(50_000)],
    ['a page tree that contains itself', hostile.pageTreeCycle()],
    ['form XObjects drawing themselves', hostile.formCycle()],
    ['a 40000×40000 image', hostile.hugeImage()],
    ['CVE-2024-4367 FontMatrix injection', hostile.fontMatrixInjection(marker)],
  ];
  const serve = await serveProcess(t, ['--data-dir', path.join(dir, 'data'), '--rate-limit', 'off']);
  const pid = serve.child.pid as number;
  const api = apiClient(serve.ready.api_url as string, serve.ready.api_key as string);
  const startRss = rssOf(pid);
  let peakRss = startRss;
  const rows: string[] = [];

  for (const [name, bytes] of documents) {
    const form = new FormData();
    form.append('document', new Blob([bytes], { type: 'application/pdf' }), 'hostile.pdf');
    form.append('request', JSON.stringify({ client_reference: `hostile-${rows.length}`, signers: [{ reference: 'a', email: 'a@example.com', order: 1 }] }));
    let started = Date.now();
    const created = await api('POST', '/signature-requests', form);
    const createMs = Date.now() - started;
    let row = `${name}: create ${created.status} (${createMs} ms)`;
    if (created.status !== 201) {
      assert.equal(created.status, 400, `${name}: ${JSON.stringify(created.body)}`);
      assertEnvelope(created.body, 'invalid_document');
    } else {
      started = Date.now();
      const detected = await api('POST', `/signature-requests/${created.body.id}/detect-fields`);
      const detectMs = Date.now() - started;
      row += `, detect ${detected.status} (${detectMs} ms)`;
      assert.ok(detectMs < DETECT_BOUND_MS, `${name}: detect-fields answered within the time limit`);
      if (detected.status === 503) {
        assertEnvelope(detected.body, 'temporarily_unavailable');
      } else {
        assert.equal(detected.status, 200, `${name}: ${JSON.stringify(detected.body)}`);
        assert.ok(Array.isArray(detected.body.suggestions) && Array.isArray(detected.body.pages));
      }
      // The server kept serving through it.
      assert.equal((await fetch(`${new URL(serve.ready.api_url as string).origin}/healthz`)).status, 200);
    }
    peakRss = Math.max(peakRss, rssOf(pid));
    rows.push(row);
  }
  assert.equal(fs.existsSync(marker), false, 'the FontMatrix payload did not run');

  // Memory comes back: what a document took was in the inspection or detection child, not kept.
  const deadline = Date.now() + 15_000;
  let rss = rssOf(pid);
  while (rss >= RSS_CEILING_MB && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    rss = rssOf(pid);
  }
  const children = childrenOf(pid);
  console.log(`hostile PDFs on Node ${process.versions.node}:\n  ${rows.join('\n  ')}`);
  console.log(
    `server RSS: ${Math.round(startRss)} MB at start, peak ${Math.round(peakRss)} MB, ${Math.round(rss)} MB after; child processes: ${children.length}`,
  );
  assert.ok(rss < RSS_CEILING_MB, `server RSS back under ${RSS_CEILING_MB} MB (${Math.round(rss)} MB)`);
  assert.ok(children.length <= 2, 'at most the inspection and detection children run');

  assert.equal(await serve.stop('SIGTERM'), 0);
  for (const child of children) assert.equal(alive(child), false, `process ${child} ended with the server`);
  assert.deepEqual(childrenOf(pid), []);
});
