// The dashboard's receiver check page in real headless Chromium: run the check against the example
// receiver (every case right) and against one that accepts everything (the wrong cases say what they
// cost and how to fix them), show an earlier check again; axe-core clean and no sideways scrolling at
// desktop and phone width, photographed under test-artifacts/.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { useReceiver } from '../helpers/receiver.js';
import { useServer } from '../helpers/server.js';
import { CHROMIUM, IN_CI, missingTool } from '../helpers/system-tools.js';
import { ARTIFACTS, assertAxeClean, assertNoPageOverflow, launchChromium, openPage, snapshot } from '../helpers/browser.js';
import { startExampleReceiver } from '../helpers/webhook-receivers.js';

const WAIT = { timeout: 30_000 };

test('receiver check page in Chromium', { skip: !IN_CI && missingTool(CHROMIUM), timeout: 240_000 }, async (t) => {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const server = await useServer(t);
  const secret = server.running.firstKey?.webhook_secret ?? '';
  const example = await startExampleReceiver(t, secret);
  const acceptAll = await useReceiver(t, '/webhooks');
  const browser = await launchChromium();
  t.after(() => browser.close());

  for (const [label, viewport] of [
    ['desktop', { width: 1280, height: 900 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    await t.test(`run, read and show again (${label})`, async (st) => {
      const { page, errors } = await openPage(browser, st, { viewport, bypassCSP: true });
      await page.goto(server.running.dashboardUrl);
      await page.locator('h1', { hasText: 'Signature requests' }).waitFor(WAIT);
      await page.locator('#nav a', { hasText: 'Receiver check' }).click();
      await page.locator('h1', { hasText: 'Check a webhook receiver' }).waitFor(WAIT);
      assert.match((await page.locator('#check-key option').first().textContent()) ?? '', /^whsec_…/);

      await page.locator('#check-url').fill(example.url);
      await page.locator('button', { hasText: 'Run the check' }).click();
      await page.locator('#check-verdict', { hasText: 'Every case right (24 of 24).' }).waitFor(WAIT);
      assert.equal(await page.locator('#check-report .badge-failed').count(), 0);
      assert.equal(await page.locator('#check-report .badge-delivered').count(), 24);
      await assertNoPageOverflow(page, `passed (${label})`);
      await assertAxeClean(page, `passed (${label})`);
      await snapshot(page, `dashboard-receiver-check-passed-${label}`);

      await page.locator('#check-url').fill(acceptAll.url);
      await page.locator('button', { hasText: 'Run the check' }).click();
      await page.locator('#check-verdict', { hasText: '11 of 24 cases wrong.' }).waitFor(WAIT);
      const forged = page.locator('#check-report tr', { hasText: 'a forged webhook-signature' });
      assert.equal(await forged.locator('.badge-failed').count(), 1);
      assert.match((await forged.textContent()) ?? '', /anyone who learns the URL/);
      // What a case sent: its headers (the test-delivery mark among them) and body.
      await page.locator('#check-report summary', { hasText: 'a forged webhook-signature' }).click();
      await page.locator('#check-report details[open] pre', { hasText: 'paraph-test-delivery: true' }).waitFor(WAIT);
      await assertNoPageOverflow(page, `failed (${label})`);
      await assertAxeClean(page, `failed (${label})`);
      await snapshot(page, `dashboard-receiver-check-failed-${label}`);

      // After a reload the earlier checks are listed, newest first, and one can be shown again.
      await page.reload();
      await page.locator('#section-earlier-checks-region tbody tr').first().waitFor(WAIT);
      const rows = page.locator('#section-earlier-checks-region tbody tr');
      assert.match((await rows.first().textContent()) ?? '', /13 of 24 right/);
      await rows.nth(1).locator('button', { hasText: 'Show' }).click();
      await page.locator('#check-verdict', { hasText: 'Every case right' }).waitFor(WAIT);
      assert.deepEqual(errors, []);
    });
  }
});
