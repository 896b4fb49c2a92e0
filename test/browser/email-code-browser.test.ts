// The email code unlocks a signing link for the browser that entered it, not for the link: the
// signing page in headless Chromium mails the code as it opens (a reload before the code is entered
// asks for that one), verified once, then the same link forwarded and opened in a fresh browser
// context (no cookie) mails and asks for a new code; a reload in the first browser does not.
// Embedded in an iframe on another site, where the browser neither keeps nor sends the link's
// cookie, the page holds the secret itself and sends it as the Signer-Verification header.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FrameLocator, Page, Request } from 'playwright-core';
import { activeRequest, auditOf, waitForArtifacts } from '../helpers/flows.js';
import { useServer, type TestServer } from '../helpers/server.js';
import { CHROMIUM, IN_CI, missingTool } from '../helpers/system-tools.js';
import { launchChromium, openPage, startEmbedHost } from '../helpers/browser.js';
import { codesMailed, newestCode } from '../helpers/mail.js';

/** On the code screen (of the page, or of the page in a frame): the code the page mailed as it opened, entered; waits for the document. */
async function enterCode(page: Page | FrameLocator, server: TestServer, email: string): Promise<void> {
  await page.locator('html[data-screen="otp"]').waitFor();
  // No click: the page mails the code itself, and shows the code box once it is sent.
  await page.locator('#otp-code').waitFor();
  await page.locator('#otp-code').fill(await newestCode(server, email));
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.locator('.page').first().waitFor();
}

test('a forwarded verified link asks for a new code in a fresh browser', { skip: !IN_CI && missingTool(CHROMIUM), timeout: 240_000 }, async (t) => {
  const server = await useServer(t);
  const browser = await launchChromium();
  t.after(() => browser.close());
  const email = 'forwarded@example.com';
  const created = await activeRequest(
    server,
    { signers: [{ reference: 'client', name: 'Grace Hopper', email, order: 1, verification: 'email_otp' }] },
    { signers: 'payload' },
  );
  const link = created.links.client!;

  // The signer's browser enters the code: the document shows, and a reload keeps it (the cookie).
  const first = await openPage(browser, t);
  await first.page.goto(link);
  await first.page.locator('#otp-code').waitFor();
  assert.equal(await codesMailed(server, email), 1, 'opening the page mailed a code, without a click');
  // A reload before the code is entered asks for the code already mailed, and mails no other.
  await first.page.reload();
  await first.page.locator('#otp-code').waitFor();
  assert.match(await first.page.locator('#otp-status').innerText(), /less than 10 minutes ago/);
  assert.equal(await codesMailed(server, email), 1);
  await enterCode(first.page, server, email);
  const cookies = await first.page.context().cookies();
  const cookie = cookies.find((c) => c.name === 'signer_verification');
  assert.ok(cookie, 'the verification cookie is set');
  assert.equal(cookie.httpOnly, true);
  assert.equal(cookie.sameSite, 'Strict');
  assert.equal(cookie.path, new URL(link).pathname, 'scoped to the link');
  assert.equal(await first.page.evaluate('document.cookie'), '', 'the page script cannot read it');
  await first.page.reload();
  await first.page.locator('.page').first().waitFor();
  assert.equal(await first.page.locator('html[data-screen="otp"]').count(), 0, 'no new code after a reload');

  // The link forwarded to someone else: a fresh browser, no cookie, no document until a new code.
  const second = await openPage(browser, t);
  await second.page.goto(link);
  await second.page.locator('html[data-screen="otp"]').waitFor();
  assert.equal(await second.page.locator('.page').count(), 0, 'no document in the fresh browser');
  // The code entered in the first browser is used: the fresh browser's page mails a new one.
  await second.page.locator('#otp-code').waitFor();
  assert.equal(await codesMailed(server, email), 2);
  const direct = await second.page.evaluate(async (url) => (await fetch(`${new URL(url).pathname}/api/document`)).status, link);
  assert.equal(direct, 409, 'the document stays closed to the fresh browser');
  await enterCode(second.page, server, email);

  const verified = auditOf(server, created.id).filter((e) => e.type === 'otp_verified');
  assert.equal(verified.length, 2, 'each browser verification is in the audit trail');

  // Signed in the first browser (its cookie goes with the call), the request completes: the signed PDF is the
  // signer's copy, and it stays behind the code too. A third browser is asked for one before the download.
  const signed = await first.page.evaluate(
    async (url) =>
      (
        await fetch(`${new URL(url).pathname}/api/sign`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ signature: { type: 'typed', text: 'Grace Hopper' } }),
        })
      ).status,
    link,
  );
  assert.equal(signed, 200);
  await waitForArtifacts(server, created.id);
  const third = await openPage(browser, t);
  await third.page.goto(link);
  await third.page.locator('html[data-screen="otp"]').waitFor();
  assert.equal(await third.page.locator('#download-signed').count(), 0, 'no download before the code');
  const refused = await third.page.evaluate(async (url) => (await fetch(`${new URL(url).pathname}/api/signed-document`)).status, link);
  assert.equal(refused, 409);
  await third.page.locator('#otp-code').waitFor();
  await third.page.locator('#otp-code').fill(await newestCode(server, email));
  await third.page.getByRole('button', { name: 'Verify' }).click();
  await third.page.locator('#download-signed').waitFor();
  await first.page.reload();
  await first.page.locator('#download-signed').waitFor();
  const ignore = /HTTP 409: GET \/sign\/TOKEN\/api\/(document|signed-document)/;
  assert.deepEqual([...first.errors, ...[...second.errors, ...third.errors].filter((e) => !ignore.test(e))], []);
});

/** A call of the page to the link's API, with what it carried: the verification header, the cookie. */
interface LinkCall {
  method: string;
  path: string;
  status: number | null;
  header: boolean;
  cookie: boolean;
}

/** Records every call the page (and its frames) makes to a signing link's API. */
function recordLinkCalls(page: Page): () => Promise<LinkCall[]> {
  const pending: Array<Promise<LinkCall>> = [];
  page.on('request', (request: Request) => {
    const path = new URL(request.url()).pathname;
    if (!/^\/sign\/[^/]+\/api\//.test(path)) return;
    pending.push(
      (async () => {
        const headers = await request.allHeaders();
        const response = await request.response();
        return {
          method: request.method(),
          path: path.replace(/^\/sign\/[^/]+/, ''),
          status: response?.status() ?? null,
          header: typeof headers['signer-verification'] === 'string' && headers['signer-verification'] !== '',
          cookie: (headers.cookie ?? '').includes('signer_verification='),
        };
      })(),
    );
  });
  return () => Promise.all(pending);
}

test('embedded in an iframe on another site, the code works through the Signer-Verification header, for that frame only', {
  skip: !IN_CI && missingTool(CHROMIUM),
  timeout: 240_000,
}, async (t) => {
  // The browser goes first: a server stops once the frames' connections are gone.
  const browser = await launchChromium();
  t.after(() => browser.close());
  const server = await useServer(t);
  const host = await startEmbedHost(t);
  // The server is 127.0.0.1, the client's site localhost: another site, so the link's SameSite cookie is neither kept nor sent.
  const origin = `http://localhost:${host.port}`;
  const email = 'embedded@example.com';
  const created = await activeRequest(
    server,
    { embed_origin: origin, signers: [{ reference: 'client', name: 'Ada Lovelace', email, order: 1, verification: 'email_otp' }] },
    { signers: 'payload' },
  );
  const hostPage = `${origin}/host?src=${encodeURIComponent(created.embeds.client!)}`;

  const first = await openPage(browser, t);
  const calls = recordLinkCalls(first.page);
  await first.page.goto(hostPage);
  const frame = first.page.frameLocator('#signing');
  await frame.locator('html[data-mode="embed"]').waitFor();
  await enterCode(frame, server, email);
  assert.deepEqual(
    (await first.page.context().cookies()).filter((c) => c.name === 'signer_verification'),
    [],
    'the browser kept no verification cookie for the frame on another site',
  );
  const made = await calls();
  const verify = made.find((c) => c.path === '/api/otp/verify');
  assert.deepEqual(verify && [verify.status, verify.header], [200, false], 'the code is checked without a secret');
  const documents = made.filter((c) => c.path === '/api/document');
  assert.ok(documents.length > 0, 'the frame loaded the document');
  for (const call of documents) assert.deepEqual([call.status, call.header, call.cookie], [200, true, false], 'the document came with the header, no cookie');
  // The header alone unlocks it: the same frame, asking without it, is refused.
  const framed = first.page.frames().find((f) => f.url().includes('/embed/'));
  assert.ok(framed);
  // Evaluated in the frame (the test's TypeScript has no DOM types, so a string).
  const bare = await framed.evaluate(`fetch(location.pathname.replace('/embed/', '/sign/') + '/api/document', { cache: 'no-store' }).then((r) => r.status)`);
  assert.equal(bare, 409, 'without the header the frame gets no document');

  // The secret lives for this load of the frame: the host page reloaded asks for a code again.
  await first.page.reload();
  await frame.locator('html[data-screen="otp"]').waitFor();
  assert.equal(await frame.locator('.page').count(), 0, 'no document in the reloaded frame');

  // Another browser with the same embed link: a new code, its own verification.
  const second = await openPage(browser, t);
  await second.page.goto(hostPage);
  const other = second.page.frameLocator('#signing');
  await other.locator('html[data-screen="otp"]').waitFor();
  assert.equal(await other.locator('.page').count(), 0, 'no document in the fresh browser');
  await enterCode(other, server, email);

  const verified = auditOf(server, created.id).filter((e) => e.type === 'otp_verified');
  assert.equal(verified.length, 2, 'each verification is in the audit trail');
  assert.deepEqual([...first.errors.filter((e) => e !== 'HTTP 409: GET /sign/TOKEN/api/document'), ...second.errors], []);
});
