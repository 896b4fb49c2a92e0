import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import path from 'node:path';
import { createContext } from '../../src/context.js';
import { createLog } from '../../src/platform/log.js';
import { advanceClock } from '../../src/features/sandbox/advance-clock.js';
import { signingIdentity } from '../../src/features/artifacts/generate-artifacts.js';
import { activate, advance, auditOf, createRequest, DAY, eventsOf, postJson, signerAction, status } from '../helpers/flows.js';
import { json, useServer } from '../helpers/server.js';

const near = (actual: number, expected: number, slackMs = 5000) =>
  assert.ok(Math.abs(actual - expected) <= slackMs, `${new Date(actual).toISOString()} is not near ${new Date(expected).toISOString()}`);

test('one advance of 11 days: links expire at day 7, then the content is purged at day 10, each at its own time', async (t) => {
  const server = await useServer(t);
  const id = await createRequest(server, {}, { signers: 2 });
  await activate(server, id);
  const start = server.running.ctx.clock.now();
  const blobs = () => fs.readdirSync(path.join(server.dataDir, 'blobs')).filter((f) => f.endsWith('.blob'));
  assert.equal(blobs().length, 1);

  const clock = await advance(server, 11 * DAY);
  assert.ok(clock.offset_seconds >= 11 * 86400 - 5);

  const after = await status(server, id);
  assert.equal(after.status, 'purged');
  assert.equal(after.retention_expires_at, null);
  assert.deepEqual(after.artifacts, { signed_pdf: false, evidence_pdf: false, evidence_json: false });
  assert.deepEqual(
    after.signers.map((s) => s.status),
    ['expired', 'expired'],
  );
  assert.deepEqual(blobs(), [], 'the PDF is deleted from disk');

  const events = eventsOf(server, id);
  assert.deepEqual(
    events.map((e) => e.type),
    ['signature_request.activated', 'signer.expired', 'signer.expired', 'signature_request.expired'],
  );
  for (const event of events.slice(1)) near(event.created_at, start + 7 * DAY);
  assert.deepEqual(
    events.slice(1, 3).map((e) => e.data.signer.status),
    ['expired', 'expired'],
  );
  assert.equal(events[3]?.data.status, 'expired');

  const audit = auditOf(server, id);
  const purged = audit.find((a) => a.type === 'request_purged');
  assert.ok(purged);
  assert.equal(purged.actor_type, 'system');
  near(purged.created_at, start + 10 * DAY);
  assert.deepEqual(
    audit.map((a) => a.id),
    audit.map((_, i) => i + 1),
  );
});

test('a link is capped by the retention deadline', async (t) => {
  const server = await useServer(t);
  const id = await createRequest(server);
  await advance(server, 5 * DAY);
  await activate(server, id, { link_expiry_days: 30 });
  const before = await status(server, id);
  assert.equal(before.signers[0]?.expires_at, before.retention_expires_at);
  await advance(server, 5 * DAY - 60_000);
  assert.equal((await status(server, id)).status, 'active');
  await advance(server, 120_000);
  const after = await status(server, id);
  assert.equal(after.status, 'purged');
  assert.deepEqual(
    eventsOf(server, id)
      .map((e) => e.type)
      .slice(-1),
    ['signature_request.expired'],
  );
});

test('one expired signer leaves the request active while another holds a live link; a reminder revives them', async (t) => {
  const server = await useServer(t);
  const id = await createRequest(server, {}, { signers: 2 });
  await activate(server, id, { link_expiry_days: 2 });
  await advance(server, 1 * DAY);
  const reminded = await postJson(server, `/v1/signature-requests/${id}/reminders`, { signer_reference: 's1' });
  assert.equal(reminded.status, 200);
  await advance(server, 1 * DAY + 60_000);
  const mid = await status(server, id);
  assert.equal(mid.status, 'active');
  assert.deepEqual(
    mid.signers.map((s) => s.status),
    ['pending', 'expired'],
  );

  const revive = await postJson(server, `/v1/signature-requests/${id}/reminders`, { signer_reference: 's2' });
  assert.equal(revive.status, 200);
  assert.deepEqual(
    (await status(server, id)).signers.map((s) => s.status),
    ['pending', 'pending'],
  );
  await advance(server, 3 * DAY);
  const end = await status(server, id);
  assert.equal(end.status, 'expired');
  assert.deepEqual(
    end.signers.map((s) => s.status),
    ['expired', 'expired'],
  );
});

test("sequential: once the signer whose turn it is has expired, no one can sign: a later signer's live link does not keep the request active", async (t) => {
  const server = await useServer(t);
  const id = await createRequest(server, { sequential_signing: true }, { signers: 2 });
  await activate(server, id, { link_expiry_days: 2 });
  await advance(server, 1 * DAY);
  // The second signer's link, renewed, outlives the first signer's; they still sign only after the first.
  const reminded = await postJson(server, `/v1/signature-requests/${id}/reminders`, { signer_reference: 's2' });
  assert.equal(reminded.status, 200);
  await advance(server, 1 * DAY + 60_000);
  const end = await status(server, id);
  assert.equal(end.status, 'expired');
  assert.deepEqual(
    end.signers.map((s) => s.status),
    ['expired', 'pending'],
  );
  // The signer.expired that ends the request carries the request's status after the change, as its signature_request.expired does.
  assert.deepEqual(
    eventsOf(server, id).map((e) => [e.type, e.data.status]),
    [
      ['signature_request.activated', 'active'],
      ['signer.expired', 'expired'],
      ['signature_request.expired', 'expired'],
    ],
  );
  // The later signer's renewed link is closed with the request.
  const link = (await json<{ reminders: Array<{ signing_url: string }> }>(reminded)).reminders[0]?.signing_url ?? '';
  assert.match(link, /\/sign\//);
  const refused = await signerAction(link, 'sign', { signature: { type: 'typed', text: 'S2' } });
  assert.ok(refused.status >= 400 && refused.status < 500, `${refused.status}: ${await refused.clone().text()}`);

  // Once the first signer has signed, the second's turn has come: with their link renewed, the third signer's
  // link expiring (they wait behind the second) leaves the request active, the second still able to sign.
  const next = await createRequest(server, { sequential_signing: true }, { signers: 3 });
  const links = (await activate(server, next, { link_expiry_days: 2 })).signers.map((s) => s.signing_url);
  const signed = await signerAction(links[0] ?? '', 'sign', { signature: { type: 'typed', text: 'S1' } });
  assert.equal(signed.status, 200, await signed.clone().text());
  await advance(server, 1 * DAY);
  assert.equal((await postJson(server, `/v1/signature-requests/${next}/reminders`, { signer_reference: 's2' })).status, 200);
  await advance(server, 1 * DAY + 60_000);
  const alive = await status(server, next);
  assert.equal(alive.status, 'active');
  assert.deepEqual(
    alive.signers.map((s) => s.status),
    ['signed', 'pending', 'expired'],
  );
});

test('the last signer able to sign signs while another has expired: the request expires then, each event with the status after the change', async (t) => {
  const server = await useServer(t);
  const id = await createRequest(server, {}, { signers: 2 });
  await activate(server, id, { link_expiry_days: 2 });
  await advance(server, 1 * DAY);
  const reminded = await postJson(server, `/v1/signature-requests/${id}/reminders`, { signer_reference: 's2' });
  const link = (await json<{ reminders: Array<{ signing_url: string }> }>(reminded)).reminders[0]?.signing_url ?? '';
  await advance(server, 1 * DAY + 60_000);
  assert.equal((await status(server, id)).status, 'active', 's2 can still sign');

  const signed = await signerAction(link, 'sign', { signature: { type: 'typed', text: 'S2' } });
  assert.equal(signed.status, 200, await signed.clone().text());
  const outcome = await json<{ status: string; request_status: string; next: string }>(signed);
  assert.deepEqual([outcome.status, outcome.request_status, outcome.next], ['signed', 'expired', 'none']);
  const end = await status(server, id);
  assert.equal(end.status, 'expired');
  assert.deepEqual(
    end.signers.map((s) => s.status),
    ['expired', 'signed'],
  );
  assert.deepEqual(
    eventsOf(server, id).map((e) => [e.type, e.data.status]),
    [
      ['signature_request.activated', 'active'],
      ['signer.expired', 'active'],
      // s2 signed without loading the view first: viewed as they signed.
      ['signer.viewed', 'active'],
      ['signer.completed', 'expired'],
      ['signature_request.expired', 'expired'],
    ],
  );
  // Later clock moves find nothing more to do with it.
  await advance(server, 2 * DAY);
  assert.equal(eventsOf(server, id).length, 5);
});

test('forced expire and purge over HTTP apply the same transitions, with 409 where the state forbids them', async (t) => {
  const server = await useServer(t);
  const prepared = await createRequest(server);
  const active = await createRequest(server);
  await activate(server, active);

  const expireActive = await postJson(server, `/_sandbox/signature-requests/${active}/expire`);
  assert.equal(expireActive.status, 200);
  const expired = await json<{ status: string; signers: Array<{ status: string }> }>(expireActive);
  assert.equal(expired.status, 'expired');
  assert.deepEqual(
    expired.signers.map((s) => s.status),
    ['expired'],
  );
  assert.deepEqual(
    eventsOf(server, active).map((e) => e.type),
    ['signature_request.activated', 'signer.expired', 'signature_request.expired'],
  );
  for (const target of [prepared, active]) {
    const refused = await postJson(server, `/_sandbox/signature-requests/${target}/expire`);
    assert.equal(refused.status, 409);
    assert.equal((await json<{ error: { code: string } }>(refused)).error.code, 'conflict');
  }

  const purge = await postJson(server, `/_sandbox/signature-requests/${prepared}/purge`);
  assert.equal(purge.status, 200);
  assert.equal((await json<{ status: string }>(purge)).status, 'purged');
  const again = await postJson(server, `/_sandbox/signature-requests/${prepared}/purge`);
  assert.equal(again.status, 409);

  const other = server.newKey();
  assert.equal((await postJson(server, `/_sandbox/signature-requests/${active}/purge`, undefined, other.apiKey)).status, 404);
  assert.equal((await postJson(server, '/_sandbox/signature-requests/not-a-uuid/purge')).status, 404);
});

test('the clock endpoints: state, validation, authentication', async (t) => {
  const server = await useServer(t);
  const clock = await json<{ now: string; offset_seconds: number }>(await server.call('GET', '/_sandbox/clock'));
  assert.deepEqual(Object.keys(clock).sort(), ['now', 'offset_seconds']);
  assert.equal(clock.offset_seconds, 0);
  near(Date.parse(clock.now), Date.now());
  const moved = await advance(server, 90_000);
  assert.equal(moved.offset_seconds, 90);
  near(Date.parse(moved.now), Date.now() + 90_000);
  for (const body of [{ seconds: 0 }, { seconds: -5 }, { seconds: '10' }, { seconds: 1.5 }, { seconds: 10, extra: 1 }, {}]) {
    const response = await postJson(server, '/_sandbox/clock/advance', body);
    assert.equal(response.status, 400, JSON.stringify(body));
  }
  assert.equal((await server.call('GET', '/_sandbox/clock', { key: null })).status, 401);
  // The sandbox controls are not rate-limited and carry no rate-limit headers.
  assert.equal((await server.call('GET', '/_sandbox/clock')).headers.get('x-ratelimit-limit'), null);
});

test('the scheduler inside serve expires links within a second of their due time', async (t) => {
  const server = await useServer(t);
  const id = await createRequest(server);
  await activate(server, id, { link_expiry_days: 1 });
  // Move the clock without running jobs, as another process's clock advance that only wrote the offset would.
  server.running.ctx.clock.advance(DAY + 1000);
  const deadline = Date.now() + 4000;
  let current = await status(server, id);
  while (current.status === 'active' && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    current = await status(server, id);
  }
  assert.equal(current.status, 'expired');
});

test('two processes advancing the clock at once apply each transition once', async (t) => {
  const server = await useServer(t);
  const id = await createRequest(server, {}, { signers: 3 });
  await activate(server, id);
  const other = await createContext({ dataDir: server.dataDir, log: createLog('silent') });
  t.after(() => other.close());
  await Promise.all([advanceClock(server.running.ctx, 8 * DAY), advanceClock(other, 8 * DAY)]);
  const types = eventsOf(server, id).map((e) => e.type);
  assert.equal(types.filter((type) => type === 'signer.expired').length, 3);
  assert.equal(types.filter((type) => type === 'signature_request.expired').length, 1);
});

test('the clock goes no further than the year 9998: an advance past it is a 400 and moves nothing; dates just before it are RFC 3339', async (t) => {
  const server = await useServer(t);
  // Ten-year advances repeated would take 800 calls: move the offset there directly, then advance over HTTP.
  const latest = Date.UTC(9999, 0, 1);
  server.running.ctx.clock.advance(latest - 40 * DAY - server.running.ctx.clock.now());
  const refused = await postJson(server, '/_sandbox/clock/advance', { seconds: 50 * 86400 });
  assert.equal(refused.status, 400);
  const body = await json<{ error: { code: string; message: string } }>(refused);
  assert.equal(body.error.code, 'invalid_request');
  assert.match(body.error.message, /goes no further than 9998-12-31T23:59:59\.999Z/);
  const clock = await json<{ now: string }>(await server.call('GET', '/_sandbox/clock'));
  assert.ok(Date.parse(clock.now) < latest - 39 * DAY, `the refused advance moved the clock to ${clock.now}`);
  assert.equal((await advance(server, 10 * DAY)).now.slice(0, 4), '9998');

  // A request made then: every date-time it answers is an RFC 3339 one, and it reads back and lists.
  const id = await createRequest(server);
  await activate(server, id, { link_expiry_days: 30 });
  const read = await json<{ created_at: string; updated_at: string; retention_expires_at: string; signers: { expires_at: string }[] }>(
    await server.call('GET', `/v1/signature-requests/${id}`),
  );
  const dates = [read.created_at, read.updated_at, read.retention_expires_at, ...read.signers.map((s) => s.expires_at)];
  for (const date of dates) assert.match(String(date), /^9998-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.equal((await server.call('GET', '/v1/signature-requests')).status, 200);
});

test('a data directory whose test certificates end (made by an earlier paraph, valid 20 years): the clock stops there, saying how to go on', async (t) => {
  const server = await useServer(t);
  const ctx = server.running.ctx;
  const certificate = path.join(server.dataDir, 'signing-certificate.json');
  await signingIdentity(ctx);
  // The certificate an earlier paraph made: valid 20 years (openssl's, in place of the stored one).
  const pem = execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', '/dev/null', '-subj', '/CN=earlier', '-days', '7300'], {
    encoding: 'utf8',
  });
  const stored = JSON.parse(fs.readFileSync(certificate, 'utf8')) as Record<string, string>;
  fs.writeFileSync(certificate, JSON.stringify({ ...stored, certificate_pem: pem }));
  const end = Date.parse(new X509Certificate(pem).validTo);
  await assert.rejects(advanceClock(ctx, end - ctx.clock.now() + DAY), (error: Error) => {
    assert.match(error.message, /after this data directory's test certificates end/);
    assert.match(error.message, /delete signing-certificate\.json and timestamp-authority\.json/);
    return true;
  });
  // Up to the end it moves.
  await advanceClock(ctx, end - ctx.clock.now() - DAY);
  assert.ok(ctx.clock.now() > end - 2 * DAY);
});
