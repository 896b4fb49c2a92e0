// Line-independent: static pages run by Chromium; every server call they make runs on each line in test/integration/.
// The email code unlocks a signing link for the browser that entered it, not for the link: the
// signing page in headless Chromium, verified once, then the same link forwarded and opened in a
// fresh browser context (no cookie) asks for a new code; a reload in the first browser does not.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chromium, type Page } from 'playwright-core';
import { activeRequest, auditOf } from '../helpers/flows.js';
import { json, useServer, type TestServer } from '../helpers/server.js';
import { CHROMIUM, IN_CI, missingTool } from '../helpers/system-tools.js';
import { openPage } from '../helpers/browser.js';

const LAUNCH_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/** The newest email code caught for `email`. */
async function newestCode(server: TestServer, email: string): Promise<string> {
  const mails = await json<{ data: Array<{ kind: string | null; text: string }> }>(await server.call('GET', `/_sandbox/emails?to=${encodeURIComponent(email)}`));
  const code = /\b(\d{6})\b/.exec(mails.data.find((m) => m.kind === 'otp')?.text ?? '')?.[1];
  assert.ok(code, 'the code was mailed');
  return code;
}

/** On the code screen: asks for a code, enters it, waits for the document. */
async function enterCode(page: Page, server: TestServer, email: string): Promise<void> {
  await page.locator('html[data-screen="otp"]').waitFor();
  await page.getByRole('button', { name: 'Email me a code' }).click();
  await page.locator('#otp-code').waitFor();
  await page.locator('#otp-code').fill(await newestCode(server, email));
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.locator('.page').first().waitFor();
}

test('a forwarded verified link asks for a new code in a fresh browser', { skip: !IN_CI && missingTool(CHROMIUM), timeout: 120_000 }, async (t) => {
  const server = await useServer(t);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS });
  t.after(() => browser.close());
  const email = 'forwarded@example.com';
  const created = await activeRequest(server, { signers: [{ reference: 'client', name: 'Grace Hopper', email, order: 1, verification: 'email_otp' }] }, { signers: 'payload' });
  const link = created.links.client!;

  // The signer's browser enters the code: the document shows, and a reload keeps it (the cookie).
  const first = await openPage(browser, t);
  await first.page.goto(link);
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
  const direct = await second.page.evaluate(async (url) => (await fetch(`${new URL(url).pathname}/api/document`)).status, link);
  assert.equal(direct, 409, 'the document stays closed to the fresh browser');
  await enterCode(second.page, server, email);

  const verified = auditOf(server, created.id).filter((e) => e.type === 'otp_verified');
  assert.equal(verified.length, 2, 'each browser verification is in the audit trail');
  assert.deepEqual([...first.errors, ...second.errors.filter((e) => !/HTTP 409: GET \/sign\/TOKEN\/api\/document/.test(e))], []);
});
