// The signer's copy over real HTTP: the signed PDF under a signer's link once the request completes
// (409 before, 410 once purged), the view's `signed_pdf`, the `completed` mail only to signers who
// were mailed, its link readable and never usable for signing (nor sending the signer on to the
// return_url, as the signing link does), and the page's img-src for a logo.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { activate, createRequest, postJson, signerAction, status } from '../helpers/flows.js';
import { json, useServer, type TestServer } from '../helpers/server.js';

type Mail = { kind: string | null; subject: string; text: string; html: string; signer_reference: string | null };

function copyUrl(link: string): string {
  const url = new URL(link);
  return `${url.origin}${url.pathname}/api/signed-document`;
}

async function view(link: string): Promise<{ state: string; closed_reason: string | null; signed_pdf: string; request: Record<string, unknown> | null }> {
  const response = await signerAction(link, 'view');
  assert.equal(response.status, 200);
  return json(response);
}

/**
 * What `probe` answers once the server's background work is done (the artifacts a completion starts,
 * and the `completed` mails sent with them): never null then.
 */
async function settled<T>(server: TestServer, what: string, probe: () => Promise<T | null>): Promise<T> {
  await server.running.ctx.background.idle();
  const value = await probe();
  assert.ok(value !== null, `${what}: not there once the background work was done`);
  return value;
}

async function mailsOf(server: TestServer, id: string): Promise<Mail[]> {
  return (await json<{ data: Mail[] }>(await server.call('GET', `/_sandbox/emails?signature_request_id=${id}`))).data;
}

const sign = (link: string) => signerAction(link, 'sign', { signature: { type: 'typed', text: 'Ada Lovelace' } });

test("the signer's copy of the signed PDF", { timeout: 240_000 }, async (t) => {
  const server = await useServer(t);

  await t.test('a request another signer declined will never have one: the 409 says so, not "not all signed yet"', async () => {
    const id = await createRequest(server, {}, { signers: 2 });
    const { signers } = await activate(server, id);
    const [first, second] = signers.map((s) => s.signing_url);
    assert.equal((await sign(first as string)).status, 200);
    assert.equal((await signerAction(second as string, 'decline', { reason: 'not for me' })).status, 200);
    const copy = await fetch(copyUrl(first as string));
    assert.equal(copy.status, 409);
    assert.equal((await json<{ error: { message: string } }>(copy)).error.message, 'this request is declined: it will never have a signed document');
  });

  await t.test('two signers: 409 until complete, then the PDF under each link and a completed mail each', async () => {
    const id = await createRequest(server, {
      email: { sender_name: 'Northwind Trading', message: 'Please sign.', logo_url: 'https://cdn.example.com/logo.png' },
      signers: [
        { reference: 'a', name: 'Ada Lovelace', email: 'ada.copy@example.com', order: 1, locale: 'fr' },
        { reference: 'b', name: 'Bob', email: 'bob.copy@example.com', order: 2 },
      ],
      fields: [
        { signer_reference: 'a', type: 'signature', page: 1, x: 50, y: 700, width: 200, height: 50 },
        { signer_reference: 'b', type: 'signature', page: 1, x: 300, y: 700, width: 200, height: 50 },
      ],
    });
    const { signers } = await activate(server, id, { send_emails: true });
    const link = (ref: string) => signers.find((s) => s.reference === ref)!.signing_url;

    // Who is asking, in the view.
    const open = await view(link('a'));
    assert.equal(open.request?.sender_name, 'Northwind Trading');
    assert.equal(open.request?.message, 'Please sign.');
    assert.equal(open.request?.logo_url, 'https://cdn.example.com/logo.png');
    assert.equal(open.signed_pdf, 'none');
    // The page may load that logo, and only images from its origin besides its own.
    const page = await fetch(link('a'));
    await page.text();
    assert.match(page.headers.get('content-security-policy') ?? '', /img-src 'self' data: blob: https:\/\/cdn\.example\.com;/);

    const early = await fetch(copyUrl(link('a')));
    assert.equal(early.status, 409);
    assert.equal((await json<{ error: { code: string } }>(early)).error.code, 'conflict');

    assert.equal((await sign(link('a'))).status, 200);
    // Signed, the others still to sign: readable, no copy yet.
    const waiting = await view(link('a'));
    assert.deepEqual([waiting.state, waiting.closed_reason, waiting.signed_pdf], ['closed', 'signed', 'none']);
    const stillWaiting = await fetch(copyUrl(link('a')));
    assert.equal(stillWaiting.status, 409);
    assert.match((await json<{ error: { message: string } }>(stillWaiting)).error.message, /^the other signers have not all signed yet/);

    assert.equal((await sign(link('b'))).status, 200);
    await settled(server, 'the signed PDF', async () => ((await view(link('a'))).signed_pdf === 'ready' ? true : null));
    for (const ref of ['a', 'b']) {
      const response = await fetch(copyUrl(link(ref)));
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('content-type'), 'application/pdf');
      assert.equal(response.headers.get('cache-control'), 'no-store');
      assert.match(response.headers.get('content-disposition') ?? '', /^attachment; filename="contract-signed\.pdf"/);
      const bytes = Buffer.from(await response.arrayBuffer());
      assert.equal(bytes.subarray(0, 5).toString(), '%PDF-');
      assert.ok(bytes.includes('/ByteRange'), 'the sealed PDF');
    }

    const completed = await settled(server, 'the completed mails', async () => {
      const found = (await mailsOf(server, id)).filter((m) => m.kind === 'completed');
      return found.length === 2 ? found : null;
    });
    const fr = completed.find((m) => m.signer_reference === 'a')!;
    assert.match(fr.subject, /« contract\.pdf » est signé/);
    assert.match(fr.text, /Télécharger le document signé: http/);
    assert.match(fr.text, /tant que le document est conservé/);
    const mailLink = /(http:\/\/\S+\/sign\/[0-9A-Za-z]+)/.exec(fr.text)?.[1];
    assert.ok(mailLink && !mailLink.startsWith(link('a').split('?')[0]!), 'a link of its own');
    const fromMail = await fetch(copyUrl(mailLink));
    assert.equal(fromMail.status, 200);
    await fromMail.arrayBuffer();
    const signAgain = await sign(mailLink);
    assert.equal(signAgain.status, 409, 'never usable for signing');
    await signAgain.text();
    assert.equal((await status(server, id)).status, 'completed');

    // Purged: the link still explains, the copy is gone (410).
    assert.equal((await postJson(server, `/_sandbox/signature-requests/${id}/purge`)).status, 200);
    assert.equal((await view(link('a'))).signed_pdf, 'purged');
    const gone = await fetch(copyUrl(link('a')));
    assert.equal(gone.status, 410);
    assert.equal((await json<{ error: { code: string } }>(gone)).error.code, 'artifact_not_available');
  });

  await t.test("with a return_url, the signing link sends the signer back; the completed mail's link stays the signer's copy", async () => {
    const id = await createRequest(
      server,
      {
        return_url: 'https://app.example.com/signed',
        signers: [{ reference: 'client', name: 'Ada', email: 'ada.back@example.com', order: 1 }],
      },
      { signers: 'payload' },
    );
    const { signers } = await activate(server, id, { send_emails: true });
    const link = signers[0]!.signing_url;
    assert.equal((await sign(link)).status, 200);
    const completed = await settled(server, 'the completed mail', async () => (await mailsOf(server, id)).find((m) => m.kind === 'completed') ?? null);
    const mailLink = /(http:\/\/\S+\/sign\/[0-9A-Za-z]+)/.exec(completed.text)?.[1];
    assert.ok(mailLink);
    const back = await json<{ return_url: string; closed_reason: string }>(await signerAction(link, 'view'));
    assert.equal(back.closed_reason, 'signed');
    assert.match(back.return_url, /^https:\/\/app\.example\.com\/signed\?paraph_status=signed&/);
    // The mail promises the signed PDF: its page shows it instead of leaving for the client's site.
    const copy = await json<{ return_url: string; closed_reason: string; signed_pdf: string }>(await signerAction(mailLink, 'view'));
    assert.deepEqual([copy.closed_reason, copy.signed_pdf, copy.return_url], ['signed', 'ready', '']);
  });

  await t.test(
    'a signer with an email code: the copy stays behind it; the link forwarded, or the completed mail opened elsewhere, asks for a new one',
    async () => {
      const email = 'vera.copy@example.com';
      const id = await createRequest(
        server,
        { signers: [{ reference: 'client', name: 'Vera', email, order: 1, verification: 'email_otp' }] },
        { signers: 'payload' },
      );
      const { signers } = await activate(server, id, { send_emails: true });
      const link = signers[0]!.signing_url;
      const codeMailed = async () => {
        const otp = (await mailsOf(server, id)).find((m) => m.kind === 'otp');
        return /\b(\d{6})\b/.exec(otp?.text ?? '')?.[1] ?? '';
      };
      const post = (to: string, action: string, body: unknown, secret?: string) =>
        fetch(`${new URL(to).origin}${new URL(to).pathname}/api/${action}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(secret ? { 'signer-verification': secret } : {}) },
          body: JSON.stringify(body),
        });
      const enterCode = async (to: string) => {
        assert.equal((await post(to, 'otp', {})).status, 200);
        const verified = await post(to, 'otp/verify', { code: await codeMailed() });
        assert.equal(verified.status, 200, await verified.clone().text());
        return verified.headers.get('signer-verification') ?? '';
      };
      const copy = (to: string, secret?: string) => fetch(copyUrl(to), { headers: secret ? { 'signer-verification': secret } : {} });

      const mine = await enterCode(link);
      assert.equal((await post(link, 'sign', { signature: { type: 'typed', text: 'Vera' } }, mine)).status, 200);
      const completed = await settled(server, 'the completed mail', async () => (await mailsOf(server, id)).find((m) => m.kind === 'completed') ?? null);
      const mailLink = /(http:\/\/\S+\/sign\/[0-9A-Za-z]+)/.exec(completed.text)?.[1] as string;

      // The browser that entered the code has the copy.
      const own = await copy(link, mine);
      assert.equal(own.status, 200);
      assert.equal(
        Buffer.from(await own.arrayBuffer())
          .subarray(0, 5)
          .toString(),
        '%PDF-',
      );
      // Another one (the link forwarded, the mail's link): asked for the code, the PDF refused until then.
      for (const to of [link, mailLink]) {
        const shown = await json<{ state: string; closed_reason: string; verification_required: boolean }>(await post(to, 'view', {}));
        assert.deepEqual([shown.state, shown.closed_reason, shown.verification_required], ['closed', 'signed', true], to === link ? 'forwarded' : 'mail');
        const refused = await copy(to);
        assert.equal(refused.status, 409);
        assert.match((await json<{ error: { message: string } }>(refused)).error.message, /enter the code sent by email/);
      }
      // A code of its own opens it.
      const theirs = await enterCode(mailLink);
      assert.notEqual(theirs, mine);
      const opened = await json<{ verification_required: boolean; signed_pdf: string }>(await post(mailLink, 'view', {}, theirs));
      assert.deepEqual([opened.verification_required, opened.signed_pdf], [false, 'ready']);
      const got = await copy(mailLink, theirs);
      assert.equal(got.status, 200);
      await got.arrayBuffer();
    },
  );

  await t.test('a request run without mails gets no completed mail; an unknown token is neutral', async () => {
    const id = await createRequest(
      server,
      { signers: [{ reference: 'client', name: 'Ada', email: 'ada.nomail@example.com', order: 1 }] },
      { signers: 'payload' },
    );
    const { signers } = await activate(server, id);
    assert.equal((await sign(signers[0]!.signing_url)).status, 200);
    await settled(server, 'the signed PDF', async () => ((await view(signers[0]!.signing_url)).signed_pdf === 'ready' ? true : null));
    assert.deepEqual(await mailsOf(server, id), []);

    const unknown = signers[0]!.signing_url.replace(/\/sign\/[0-9A-Za-z]+/, `/sign/${'Q'.repeat(43)}`);
    const neutral = await view(unknown);
    assert.deepEqual([neutral.state, neutral.closed_reason, neutral.request, neutral.signed_pdf], ['closed', 'unavailable', null, 'none']);
    const response = await fetch(copyUrl(unknown));
    assert.equal(response.status, 409);
    await response.text();
  });
});
