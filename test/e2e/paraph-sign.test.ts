// `paraph sign` (contract "CLI"): the real binary acts as the signer over HTTP against
// `paraph serve` running as another process on the same data directory. Needs the built dist/
// (`npm run build`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiClient, paraph, serveProcess } from '../helpers/cli.js';
import { wrongCodeFor } from '../helpers/mail.js';
import { closedPort, useReceiver } from '../helpers/receiver.js';
import { a4Pdf } from '../helpers/requests.js';
import { useTmpDir } from '../helpers/server.js';

type Json = Record<string, any>;

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

test('paraph sign drives the signer API from the terminal', async (t) => {
  const dataDir = useTmpDir(t);
  const receiver = await useReceiver(t);
  const serve = await serveProcess(t, ['--data-dir', dataDir, '--allow-loopback-webhooks', '--rate-limit', 'off']);
  const apiUrl = serve.ready.api_url as string;
  const origin = new URL(apiUrl).origin;
  const key = serve.ready.api_key as string;

  const call = apiClient(apiUrl, key);

  /** Creates and activates a request; answers its id and the signing and embed URLs by reference. */
  async function start(request: Json): Promise<{ id: string; links: Record<string, string>; embeds: Record<string, string> }> {
    const form = new FormData();
    form.append('document', new Blob([await a4Pdf()], { type: 'application/pdf' }), 'contract.pdf');
    form.append('request', JSON.stringify({ client_reference: `cli-sign-${Math.random().toString(36).slice(2)}`, ...request }));
    const created = await call('POST', '/signature-requests', form);
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body.id as string;
    const activated = await call('POST', `/signature-requests/${id}/activate`, {});
    assert.equal(activated.status, 200, JSON.stringify(activated.body));
    const signers = activated.body.signers as Array<{ reference: string; signing_url: string; embed_url: string }>;
    return {
      id,
      links: Object.fromEntries(signers.map((s) => [s.reference, s.signing_url])),
      embeds: Object.fromEntries(signers.map((s) => [s.reference, s.embed_url])),
    };
  }

  const statusOf = async (id: string) => {
    const answer = await call('GET', `/signature-requests/${id}`);
    assert.equal(answer.status, 200);
    return answer.body;
  };
  /** The webhook events of one request caught by the receiver, once `count` of them arrived. */
  const eventsFor = async (id: string, count: number): Promise<Json[]> => {
    const deadline = Date.now() + 8000;
    for (;;) {
      const mine = receiver.received.map((r) => JSON.parse(r.body) as Json).filter((e) => e.data.signature_request_id === id);
      if (mine.length >= count || Date.now() > deadline) return mine;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  const signerOf = (state: Json, reference: string) => (state.signers as Json[]).find((s) => s.reference === reference) as Json;
  const sign = (url: string, ...args: string[]) => paraph(['sign', url, ...args, '--data-dir', dataDir]);
  const signature = (reference: string, y = 50) => ({ signer_reference: reference, type: 'signature', page: 1, x: 50, y, width: 150, height: 40 });
  /** `count` signers with one signature field each; non-sequential unless told. */
  const people = (count: number, extra: Json = {}) => ({
    signers: Array.from({ length: count }, (_, i) => ({
      reference: `s${i + 1}`,
      email: `s${i + 1}-${Math.random().toString(36).slice(2, 8)}@example.com`,
      order: i + 1,
    })),
    fields: Array.from({ length: count }, (_, i) => signature(`s${i + 1}`, 50 + i * 60)),
    ...extra,
  });

  await t.test('signs with --field company=ACME: the request completes and the value is stored', async () => {
    const { id, links } = await start({
      callback_url: receiver.url,
      signers: [{ reference: 'client', name: 'Ada Lovelace', email: 'ada.cli@example.com', order: 1 }],
      fields: [
        signature('client'),
        { signer_reference: 'client', type: 'initials', page: 1, x: 250, y: 50, width: 60, height: 30 },
        { signer_reference: 'client', type: 'text', name: 'company', field_key: 'company', page: 1, x: 50, y: 120, width: 200, height: 20 },
        { signer_reference: 'client', type: 'text', name: 'full_name', field_key: 'signer_name', page: 1, x: 50, y: 150, width: 200, height: 20 },
      ],
    });
    const result = await sign(links.client as string, '--field', 'company=ACME');
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /Signed as "client"; the request is now completed\./);
    const state = await statusOf(id);
    assert.equal(state.status, 'completed');
    assert.equal(signerOf(state, 'client').status, 'signed');
    assert.match(signerOf(state, 'client').signed_at as string, ISO);
    const values = Object.fromEntries((state.fields as Json[]).map((f) => [f.name, f.value]));
    assert.deepEqual(values, { company: 'ACME', full_name: 'Ada Lovelace' });
    // It went through the view like the page: the signer was viewed before signing.
    const types = (await eventsFor(id, 4)).map((e) => e.type as string);
    assert.deepEqual(types.sort(), ['signature_request.activated', 'signature_request.completed', 'signer.completed', 'signer.viewed']);
  });

  await t.test('an unknown field exits 1 with the API message; NAME=VALUE is checked (exit 2)', async () => {
    const { id, links } = await start({
      signers: [{ reference: 's1', email: 'fields.cli@example.com', order: 1 }],
      fields: [signature('s1'), { signer_reference: 's1', type: 'text', name: 'company', page: 1, x: 50, y: 120, width: 200, height: 20 }],
    });
    const [unknown, malformed] = await Promise.all([
      sign(links.s1 as string, '--field', 'company=ACME', '--field', 'bogus=1'),
      sign(links.s1 as string, '--field', 'company'),
    ]);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /bogus/);
    assert.equal(malformed.code, 2);
    assert.match(malformed.stderr, /NAME=VALUE/);
    assert.equal((await statusOf(id)).status, 'active');
  });

  await t.test('--json prints the outcome; an embed_url works as well', async () => {
    const { id, links, embeds } = await start(people(2, { return_url: 'https://app.example.com/done?x=1', embed_origin: 'https://app.example.com' }));
    const result = await sign(links.s1 as string, '--json');
    assert.equal(result.code, 0, result.stderr);
    const outcome = JSON.parse(result.stdout) as Json;
    assert.equal(outcome.signer_reference, 's1');
    assert.equal(outcome.signature_request_id, id);
    assert.equal(outcome.status, 'signed');
    assert.equal(outcome.request_status, 'active');
    assert.match(outcome.signed_at as string, ISO);
    const back = new URL(outcome.return_url as string);
    assert.equal(back.searchParams.get('x'), '1');
    assert.equal(back.searchParams.get('paraph_status'), 'signed');
    assert.equal(back.searchParams.get('signer_reference'), 's1');

    assert.match(embeds.s2 as string, /\/embed\//);
    const viaEmbed = await sign(embeds.s2 as string, '--json');
    assert.equal(viaEmbed.code, 0, viaEmbed.stderr);
    assert.equal((JSON.parse(viaEmbed.stdout) as Json).request_status, 'completed');
    assert.equal((await statusOf(id)).status, 'completed');
  });

  await t.test('email OTP: without --otp a code is sent and it exits 1; a wrong code exits 1; --otp CODE and --otp auto sign', async () => {
    const email = 'otp.cli@example.com';
    const { id, links } = await start({
      signers: [
        { reference: 'v', email, order: 1, verification: 'email_otp' },
        { reference: 'w', email: 'otp2.cli@example.com', order: 2, verification: 'email_otp' },
      ],
      fields: [signature('v'), signature('w', 150)],
    });
    const asked = await sign(links.v as string);
    assert.equal(asked.code, 1);
    assert.match(asked.stderr, /code was sent/);
    const mail = await call('GET', `/_sandbox/emails?to=${encodeURIComponent(email)}`);
    const otps = (mail.body.data as Json[]).filter((m) => m.kind === 'otp');
    assert.equal(otps.length, 1, 'the code was emailed');
    const code = /\b(\d{6})\b/.exec(otps[0]?.text as string)?.[1] as string;
    assert.match(code, /^\d{6}$/);

    // Not a code at all, a reason left empty: bad values of the options (exit 2), nothing sent.
    for (const [args, message] of [
      [['--otp', 'abc'], /^paraph: --otp takes the 6-digit code of the email, or auto/],
      [['--decline', ''], /^paraph: --decline takes the reason for declining, 1 to 500 characters/],
      // A signature longer than the API takes is refused, never cut.
      [['--signature', 'x'.repeat(101)], /^paraph: --signature takes the typed signature, 1 to 100 characters \(got 101\)/],
      [['--signature', ''], /^paraph: --signature takes the typed signature, 1 to 100 characters \(got 0\)/],
    ] as const) {
      const bad = await sign(links.v as string, ...args);
      assert.equal(bad.code, 2, `${args.join(' ')}: ${bad.stderr}`);
      assert.match(bad.stderr, message);
    }
    const wrong = await sign(links.v as string, '--otp', wrongCodeFor(code));
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /wrong code \(4 attempt/);
    assert.equal(signerOf(await statusOf(id), 'v').status, 'viewed');

    const withCode = await sign(links.v as string, '--otp', code);
    assert.equal(withCode.code, 0, withCode.stderr);
    const afterV = signerOf(await statusOf(id), 'v');
    assert.equal(afterV.status, 'signed');
    assert.match(afterV.verified_at as string, ISO);

    const auto = await sign(links.w as string, '--otp', 'auto', '--json');
    assert.equal(auto.code, 0, auto.stderr);
    assert.equal((JSON.parse(auto.stdout) as Json).request_status, 'completed');
    const state = await statusOf(id);
    assert.equal(state.status, 'completed');
    assert.match(signerOf(state, 'w').verified_at as string, ISO);
  });

  await t.test('--decline "reason" declines, and the events reach the callback with the reason', async () => {
    const { id, links } = await start(people(2, { callback_url: receiver.url }));
    const result = await sign(links.s2 as string, '--decline', 'Not my terms');
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /Declined as "s2"; the request is now declined\./);
    const state = await statusOf(id);
    assert.equal(state.status, 'declined');
    assert.equal(signerOf(state, 's2').status, 'declined');
    const events = await eventsFor(id, 4);
    assert.deepEqual(events.map((e) => e.type).sort(), ['signature_request.activated', 'signature_request.declined', 'signer.declined', 'signer.viewed']);
    assert.equal(events.find((e) => e.type === 'signer.declined')?.data.reason, 'Not my terms');
  });

  await t.test('a closed link exits 1 with the reason', async () => {
    const [signed, cancelled] = await Promise.all([start(people(1)), start(people(1))]);
    assert.equal((await call('POST', `/signature-requests/${cancelled.id}/cancel`, {})).status, 200);
    const [first, refused, unknown] = await Promise.all([
      sign(signed.links.s1 as string),
      sign(cancelled.links.s1 as string),
      sign(`${origin}/sign/${'A'.repeat(43)}`),
    ]);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /the link is closed: the request was cancelled/);
    assert.equal(unknown.code, 1);
    // A link this server never issued is told as such, with what to check.
    assert.match(unknown.stderr, /this server knows no open link at this URL: check that it was copied whole, from a request of the server it points to/);

    const again = await sign(signed.links.s1 as string, '--json');
    assert.equal(again.code, 1);
    assert.match(again.stderr, /the link is closed: this signer has already signed/);
    assert.equal(again.stdout, '');
  });

  await t.test('sequential signing: a signer whose turn has not come exits 1', async () => {
    const { id, links } = await start(people(2, { sequential_signing: true }));
    const early = await sign(links.s2 as string);
    assert.equal(early.code, 1);
    assert.match(early.stderr, /sequential: "s1" must sign first/);
    const state = await statusOf(id);
    assert.equal(signerOf(state, 's2').status, 'viewed', 'it could open the link');
    assert.equal(state.status, 'active');
  });

  await t.test('a malformed signing URL is bad usage (exit 2); an unreachable server exits 1', async () => {
    const urls = ['not a url', `${apiUrl}/signature-requests`];
    const closed = await closedPort();
    const [unreachable, ...results] = await Promise.all([sign(`http://127.0.0.1:${closed}/sign/${'A'.repeat(43)}`), ...urls.map((url) => sign(url))]);
    results.forEach((result, i) => {
      assert.equal(result?.code, 2, `${urls[i]}: ${result?.stderr}`);
      assert.match(result?.stderr ?? '', /not a signing URL/);
    });
    assert.equal(unreachable?.code, 1);
    assert.match(
      unreachable?.stderr ?? '',
      new RegExp(`cannot reach http://127\\.0\\.0\\.1:${closed} \\(connection refused\\): is \`paraph serve\` running there\\?`),
    );
  });

  assert.equal(await serve.stop(), 0);
});
