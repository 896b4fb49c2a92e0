// The operator dashboard in real headless Chromium (Debian's /usr/bin/chromium through playwright-core):
// sign in through the banner's URL (the token leaves the address bar), find a request made through
// the API in the list, open it and see its signers; without a token only the sign-in field shows.
// Screenshots at desktop (1280×900) and phone (390×844) width are kept under test-artifacts/.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { chromium, type Page } from 'playwright-core';
import { activate, createRequest } from '../helpers/flows.js';
import { useServer } from '../helpers/server.js';
import { CHROMIUM, IN_CI, missingTool } from '../helpers/system-tools.js';
import { ARTIFACTS, openPage, snapshot } from '../helpers/browser.js';

const LAUNCH_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };


/** No horizontal scrolling of the page itself (tables scroll inside their own region). */
async function assertNoPageOverflow(page: Page, what: string): Promise<void> {
  const overflow = Number(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'));
  assert.ok(overflow <= 0, `${what}: the page scrolls sideways by ${overflow}px`);
}

// Skipped on a desk without Chromium; in CI it runs, and fails, as test/e2e/system-tools.test.ts does.
test('dashboard in Chromium', { skip: !IN_CI && missingTool(CHROMIUM), timeout: 120_000 }, async (t) => {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const server = await useServer(t);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS });
  t.after(() => browser.close());
  const dashboardUrl = server.running.dashboardUrl;
  assert.match(dashboardUrl, /\/_dashboard\/#token=pdash_/);

  const clientReference = `dash-${Math.random().toString(36).slice(2, 10)}`;
  const id = await createRequest(server, { client_reference: clientReference }, 2);
  await activate(server, id);

  for (const [label, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    await t.test(`sign in with the banner's URL, find the request, open it (${label})`, async (st) => {
      const { page, errors } = await openPage(browser, st, { viewport });
      await page.goto(dashboardUrl);
      await page.locator('h1', { hasText: 'Signature requests' }).waitFor();
      assert.ok(!page.url().includes('pdash_'), 'the token left the address bar');
      assert.equal(await page.evaluate("sessionStorage.getItem('paraph.dashboard.token') !== null"), true, 'the token is kept for the tab');
      assert.match((await page.locator('#scope').textContent()) ?? '', /all accounts/);
      const link = page.locator('a.request-link', { hasText: new RegExp(`^${clientReference}$`) });
      await link.waitFor();
      await assertNoPageOverflow(page, `list (${label})`);
      await snapshot(page, `dashboard-requests-${label}`);

      // Keyboard: the link is reachable and opens the request with Enter.
      await link.focus();
      await page.keyboard.press('Enter');
      await page.locator('h1', { hasText: clientReference }).waitFor();
      assert.match(page.url(), new RegExp(`#/requests/${id}$`));
      const signers = page.locator('section[aria-labelledby="section-signers"] tbody tr');
      assert.equal(await signers.count(), 2);
      for (const email of ['s1@example.com', 's2@example.com']) {
        await page.locator('section[aria-labelledby="section-signers"] td', { hasText: email }).waitFor();
      }
      await page.locator('.timeline li').first().waitFor();
      await page.locator('p.ok', { hasText: 'Hash chain intact' }).waitFor();
      await page.locator('button', { hasText: 'Expire links now' }).waitFor();
      await assertNoPageOverflow(page, `request page (${label})`);
      await snapshot(page, `dashboard-request-${label}`);

      // Reloading keeps the session (the token is in sessionStorage, not in the URL).
      await page.reload();
      await page.locator('h1', { hasText: clientReference }).waitFor();
      assert.deepEqual(errors, []);
    });
  }

  await t.test('expire a request from its page', async (st) => {
    const other = await createRequest(server, { client_reference: `expire-${clientReference}` });
    await activate(server, other);
    const { page, errors } = await openPage(browser, st, { viewport: DESKTOP });
    await page.goto(dashboardUrl);
    await page.locator('h1', { hasText: 'Signature requests' }).waitFor();
    await page.evaluate(`location.hash = '#/requests/${other}'`);
    await page.locator('h1 .badge', { hasText: 'active' }).waitFor();
    page.once('dialog', (dialog) => void dialog.accept());
    await page.locator('button', { hasText: 'Expire links now' }).click();
    await page.locator('h1 .badge', { hasText: 'expired' }).waitFor();
    assert.equal(await page.locator('button', { hasText: 'Expire links now' }).count(), 0, 'no expire button once expired');
    await page.locator('.timeline .event-type', { hasText: 'expired' }).first().waitFor();
    assert.deepEqual(errors, []);
  });

  await t.test('without a token only the sign-in field shows', async (st) => {
    const { page, errors } = await openPage(browser, st, { viewport: DESKTOP });
    await page.goto(`${server.url}/_dashboard/`);
    await page.locator('form.sign-in input#token').waitFor();
    assert.equal(await page.locator('table').count(), 0);
    assert.equal(await page.locator('#scope').isVisible(), false);
    await snapshot(page, 'dashboard-sign-in-desktop');
    await page.setViewportSize(PHONE);
    await snapshot(page, 'dashboard-sign-in-phone');
    assert.deepEqual(errors, []);

    // A wrong token: the API's 401 leads back to the sign-in field.
    await page.locator('#token').fill('pdash_wrong');
    await page.locator('#token').press('Enter');
    await page.locator('form.sign-in [role="alert"]').waitFor();
    assert.equal(await page.locator('table').count(), 0);

    // The right one, pasted as the whole URL, signs in.
    await page.locator('#token').fill(dashboardUrl);
    await page.locator('form.sign-in button[type="submit"]').click();
    await page.locator('a.request-link', { hasText: new RegExp(`^${clientReference}$`) }).waitFor();
  });
});
