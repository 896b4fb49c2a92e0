// The operator dashboard in real headless Chromium (Debian's /usr/bin/chromium through playwright-core)
// against the real server: sign in through the banner's URL, walk a request from creation to its
// artifacts while the dashboard is open and see it update, open a caught mail and check that its HTML
// cannot run script nor load remote images until asked, replay a failed delivery to a real loopback
// receiver, advance the clock and see a link expire, frame a signer in the embed test page; then every
// page is checked with axe-core and photographed at desktop (1280×900) and phone (390×844) width
// under test-artifacts/.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { test, type TestContext } from 'node:test';
import nodemailer from 'nodemailer';
import type { Browser, Page } from 'playwright-core';
import { activate, advance, createRequest, signerAction } from '../helpers/flows.js';
import { rotateDashboardToken } from '../../src/features/dashboard/dashboard-token.js';
import { useReceiver } from '../helpers/receiver.js';
import { waitUntil } from '../helpers/crash-loop.js';
import { createForm, payload } from '../helpers/requests.js';
import { makePdf } from '../helpers/pdfs.js';
import { json, useServer } from '../helpers/server.js';
import { CHROMIUM, IN_CI, missingTool } from '../helpers/system-tools.js';
import { ARTIFACTS, launchChromium, openPage, snapshot } from '../helpers/browser.js';

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
const WAIT = { timeout: 30_000 };
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** No horizontal scrolling of the page itself (wide content scrolls inside its own region). */
async function assertNoPageOverflow(page: Page, what: string): Promise<void> {
  const overflow = Number(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'));
  assert.ok(overflow <= 0, `${what}: the page scrolls sideways by ${overflow}px`);
}

/**
 * axe-core on the page as it is: no serious or critical violation (the page's context must bypass CSP
 * to inject it). Framed content (a caught mail, the signing page) is not the dashboard's and is left out.
 */
async function assertAxeClean(page: Page, what: string): Promise<void> {
  if (!(await page.evaluate('typeof window.axe !== "undefined"'))) await page.addScriptTag({ content: AXE_SOURCE });
  const result = (await page.evaluate(
    `axe.run(document, { resultTypes: ['violations'], iframes: false, rules: { 'label-content-name-mismatch': { enabled: true } } }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) })))`,
  )) as Array<{ id: string; impact: string; help: string; nodes: string[] }>;
  const bad = result.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(bad, [], `${what}: axe-core violations ${JSON.stringify(bad, null, 2)}`);
}

/** What a blocked remote image leaves in the console, and a blocked mail script (when Chromium reports it). */
const IMAGE_BLOCKED = /^console: Loading the image '[^']*\/pixel\.png' violates the following Content Security Policy directive: "img-src data:"/;
const SCRIPT_BLOCKED =
  /^console: Blocked script execution in '[^']*\/_dashboard\/mail\/pmail_\w+' because the document's frame is sandboxed and the 'allow-scripts' permission is not set\.$/;
const SANDBOX_NOISE = { test: (line: string) => IMAGE_BLOCKED.test(line) || SCRIPT_BLOCKED.test(line) };

async function signIn(browser: Browser, t: TestContext, dashboardUrl: string, viewport = DESKTOP, options: { bypassCSP?: boolean } = {}) {
  const opened = await openPage(browser, t, { viewport, ...options });
  opened.page.on('dialog', (dialog) => void dialog.accept());
  await opened.page.goto(dashboardUrl);
  await opened.page.locator('h1', { hasText: 'Signature requests' }).waitFor(WAIT);
  return opened;
}

// Skipped on a desk without Chromium; in CI it runs, and fails, as test/e2e/system-tools.test.ts does.
test('dashboard in Chromium', { skip: !IN_CI && missingTool(CHROMIUM), timeout: 420_000 }, async (t) => {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const server = await useServer(t, { allowLoopbackWebhooks: true });
  const receiver = await useReceiver(t);
  const browser = await launchChromium();
  t.after(() => browser.close());
  const dashboardUrl = server.running.dashboardUrl;
  assert.match(dashboardUrl, /\/_dashboard\/#token=pdash_/);
  const tag = Math.random().toString(36).slice(2, 8);
  const walked = `walk-${tag}`;
  let walkedId = '';
  let mailId = '';
  let invitationId = '';
  let embedId = '';

  await t.test('sign in, then walk a request from creation to artifacts while the dashboard is open', async (st) => {
    const { page, errors } = await signIn(browser, st, dashboardUrl);
    assert.ok(!page.url().includes('pdash_'), 'the token left the address bar');
    assert.equal(await page.evaluate("sessionStorage.getItem('paraph.dashboard.token') !== null"), true, 'the token is kept for the tab');
    assert.match((await page.locator('#scope').textContent()) ?? '', /all accounts/);

    // Created through the API while the list is open: it appears, then turns active, without a reload.
    const signers = [
      { reference: 'client', name: 'Camille Martin', email: 'camille@example.com', order: 1, locale: 'fr' },
      { reference: 'witness', name: 'Ada Lovelace', email: 'ada@example.com', order: 2, locale: 'en' },
    ];
    const fields = [
      { signer_reference: 'client', type: 'signature', page: 1, x: 60, y: 620, width: 200, height: 50 },
      { signer_reference: 'witness', type: 'signature', page: 1, x: 320, y: 620, width: 200, height: 50 },
      { signer_reference: 'client', type: 'text', name: 'city', page: 1, x: 60, y: 560, width: 160, height: 24, value: 'Lyon', read_only: true },
    ];
    const created = await server.call('POST', '/v1/signature-requests', {
      // An A4 page in units of 2/72 inch (/UserUnit 2): fields are in the page's own units.
      body: await createForm(payload({ client_reference: walked, signers, fields, callback_url: receiver.url }), {
        bytes: await makePdf([{ width: 595.28, height: 841.89, userUnit: 2 }]),
      }),
    });
    assert.equal(created.status, 201, await created.clone().text());
    walkedId = (await json<{ id: string }>(created)).id;
    const row = page.locator('tr', { has: page.locator('a.request-link', { hasText: new RegExp(`^${walked}$`) }) });
    await row.locator('.badge', { hasText: 'prepared' }).waitFor(WAIT);
    const links = (await activate(server, walkedId, { send_emails: true })).signers;
    await row.locator('.badge', { hasText: 'active' }).waitFor(WAIT);

    // Keyboard: the link is reachable and opens the request with Enter.
    await row.locator('a.request-link').focus();
    await page.keyboard.press('Enter');
    await page.locator('h1', { hasText: walked }).waitFor(WAIT);
    assert.match(page.url(), new RegExp(`#/requests/${walkedId}$`));
    await page.locator('#section-signers-region td', { hasText: 'camille@example.com' }).waitFor(WAIT);
    await page.locator('.pdf-preview[data-state="rendered"]').waitFor(WAIT);
    assert.equal(await page.locator('.pdf-page .field-box').count(), 3, 'every field drawn on the document');
    const sheet = (await page.locator('.pdf-page').first().boundingBox())!;
    const witness = (await page.locator('.pdf-page .field-box').nth(1).boundingBox())!;
    assert.ok(Math.abs((witness.x - sheet.x) / sheet.width - 320 / 595.28) < 0.005, 'the field where the page has it, in its own units');
    assert.ok(Math.abs((witness.y - sheet.y) / sheet.height - 620 / 841.89) < 0.005);
    await page.locator('p.ok', { hasText: 'Hash chain intact' }).waitFor(WAIT);
    await page.locator('#section-mail-region a', { hasText: /./ }).first().waitFor(WAIT);

    // Both sign through their links; the page follows to completed and offers the artifacts.
    for (const [i, name] of ['Camille Martin', 'Ada Lovelace'].entries()) {
      const link = links[i]!.signing_url;
      assert.equal((await signerAction(link, 'view')).status, 200);
      const signed = await signerAction(link, 'sign', { signature: { type: 'typed', text: name } });
      assert.equal(signed.status, 200, await signed.clone().text());
    }
    await page.locator('h1 .badge', { hasText: 'completed' }).waitFor(WAIT);
    await page.locator('.timeline .event-type', { hasText: 'request_completed' }).first().waitFor(WAIT);
    const download = page.locator('button.download', { hasText: 'Signed PDF' });
    await download.waitFor({ timeout: 60_000 });
    const [file] = await Promise.all([page.waitForEvent('download', WAIT), download.click()]);
    assert.match(file.suggestedFilename(), /-signed\.pdf$/);
    const saved = `${ARTIFACTS}dashboard-download-signed.pdf`;
    await file.saveAs(saved);
    assert.equal(fs.readFileSync(saved).subarray(0, 5).toString(), '%PDF-');
    await page.locator('#section-webhook-deliveries-region article.delivery-delivered').first().waitFor(WAIT);
    // The attempt that made them is listed beside the webhook attempts.
    await page.locator('#section-artifact-attempts-region td', { hasText: /^succeeded$/ }).waitFor(WAIT);
    assert.deepEqual(errors, []);
  });

  await t.test('mail: new mail appears by itself; its HTML cannot run script, remote images wait until asked', async (st) => {
    const pixel = await useReceiver(st, '/pixel.png');
    const { page, errors } = await signIn(browser, st, dashboardUrl);
    await page.locator('nav#nav a', { hasText: 'Mail' }).click();
    await page.locator('h1', { hasText: 'Mail' }).waitFor(WAIT);
    await page.locator('a.mail-link', { hasText: /./ }).first().waitFor(WAIT);

    const smtp = nodemailer.createTransport({ host: '127.0.0.1', port: server.running.smtpPort, secure: false, ignoreTLS: true });
    st.after(() => smtp.close());
    const subject = `Weekly report ${tag}`;
    await smtp.sendMail({
      from: 'reports@elsewhere.test',
      to: 'ops@elsewhere.test',
      subject,
      text: 'The report, as text.',
      html: `<h1 style="color:#1f5fbf">Report</h1><p id="static">Static content.</p><script>document.body.insertAdjacentHTML('beforeend', '<p id="ran">script ran</p>'); parent.document.title = 'pwned';</script><img alt="remote pixel" src="${pixel.url}">`,
    });
    const link = page.locator('a.mail-link', { hasText: subject });
    await link.waitFor(WAIT);
    await link.click();
    await page.locator('h1', { hasText: subject }).waitFor(WAIT);
    mailId = decodeURIComponent(page.url().split('#/mail/')[1] ?? '');
    assert.ok(mailId);

    const frameElement = page.locator('iframe.mail-frame');
    assert.equal(
      await frameElement.getAttribute('sandbox'),
      'allow-popups allow-popups-to-escape-sandbox',
      'sandboxed: no script, only links opening in a new tab',
    );
    const frame = page.frameLocator('iframe.mail-frame');
    // The document is parsed in order: once the image after the script is in it, the script would have
    // run; once the image is complete (refused, or loaded), its request would have reached the pixel server.
    const image = frame.locator('img[alt="remote pixel"]');
    await image.waitFor({ state: 'attached', ...WAIT });
    await waitUntil(
      'the remote image to be refused or loaded',
      () => image.evaluate((img) => (img as unknown as { complete: boolean }).complete),
      WAIT.timeout,
      50,
    );
    assert.equal(await frame.locator('#ran').count(), 0, 'the mail script did not run');
    assert.doesNotMatch(await page.title(), /pwned/);
    assert.equal(pixel.received.length, 0, 'no remote image before asking');
    await page.locator('pre.mail-text', { hasText: 'The report, as text.' }).waitFor(WAIT);
    await page.locator('td', { hasText: 'reports@elsewhere.test' }).first().waitFor(WAIT);
    await page.locator('details.raw summary').click();
    await page.locator('details.raw pre', { hasText: `Subject: ${subject}` }).waitFor(WAIT);

    await page.locator('#remote-images').click();
    await pixel.waitFor(1, 15_000);
    assert.equal(await page.locator('#remote-images').getAttribute('aria-pressed'), 'true');
    await frame.locator('#static').waitFor(WAIT);
    assert.equal(await frame.locator('#ran').count(), 0, 'still no script with remote images');

    // A paraph invitation links to its request; the French signer's one is in French.
    // Newest first: the request's `completed` mail to her comes before the invitation.
    await page.goto(`${server.url}/_dashboard/#/mail?to=camille@example.com`);
    await page.locator('a.mail-link', { hasText: 'vous invite à signer' }).first().click();
    await page.locator('dd a', { hasText: walkedId }).waitFor(WAIT);
    await page.locator('h1', { hasText: 'vous invite à signer' }).waitFor(WAIT);
    invitationId = decodeURIComponent(page.url().split('#/mail/')[1] ?? '');
    // Encoded header words are shown decoded (the raw source keeps them as received).
    await page.locator('#section-headers-region td', { hasText: /^paraph vous invite à signer « contract\.pdf »$/ }).waitFor(WAIT);
    await page.frameLocator('iframe.mail-frame').locator('body', { hasText: 'Bonjour Camille Martin' }).waitFor(WAIT);
    assert.match((await page.locator('pre.mail-text').textContent()) ?? '', /Bonjour Camille Martin,/, 'the French invitation as the signer saw it');
    // Its links open in a new tab: from the preview (the signing page refuses to be framed) and from the list under it.
    const listed = page.locator('.mail-links a[target="_blank"]').first();
    assert.match((await listed.getAttribute('href')) ?? '', /\/sign\//);
    const [popup] = await Promise.all([
      page.context().waitForEvent('page'),
      page.frameLocator('iframe.mail-frame').locator('a', { hasText: 'Consulter et signer' }).first().click(),
    ]);
    await popup.waitForLoadState('domcontentloaded');
    assert.match(popup.url(), /\/sign\//, 'the signing page opens in its own tab');
    await popup.close();
    assert.match(page.url(), /#\/mail\//, 'the dashboard stays where it was');
    assert.ok(
      errors.some((e) => IMAGE_BLOCKED.test(e)),
      `Chromium reports the remote image blocked: ${JSON.stringify(errors)}`,
    );
    assert.deepEqual(
      errors.filter((e) => !SANDBOX_NOISE.test(e)),
      [],
    );
  });

  await t.test('webhooks: a failed delivery shows why, and a replay to a receiver that now answers delivers it', async (st) => {
    const flaky = await useReceiver(st, '/hooks/flaky');
    flaky.respond({ status: 500 });
    const id = await createRequest(server, { client_reference: `hook-${tag}`, callback_url: flaky.url });
    await activate(server, id);
    await flaky.waitFor(1, 15_000);
    const { page, errors } = await signIn(browser, st, dashboardUrl);
    // While it is retried, a failing delivery is red with its next retry, not a calm "pending".
    await page.evaluate(`location.hash = '#/webhooks?status=pending'`);
    const failing = page.locator('article.delivery-retrying', { has: page.locator(`a[href="#/requests/${id}"]`) }).first();
    // The retry's time written as every time of the dashboard (UTC, ISO order), not in the browser's locale.
    await failing.locator('.badge-retrying', { hasText: /failing · retry \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC/ }).waitFor(WAIT);
    await failing.locator('.attempt-failed', { hasText: '500' }).first().waitFor(WAIT);
    // The retries (+1 min … +2 h) run out on the sandbox clock: the delivery fails.
    await advance(server, 3 * 60 * 60 * 1000);
    await page.evaluate(`location.hash = '#/webhooks?status=failed'`);
    const card = page.locator('article.delivery', { has: page.locator(`a[href="#/requests/${id}"]`) }).first();
    await card.locator('.badge', { hasText: 'failed' }).waitFor(WAIT);
    await card.locator('td', { hasText: '500' }).first().waitFor(WAIT);
    const attempts = await card.locator('tbody tr').count();
    assert.ok(attempts >= 2, `the automatic attempts are listed (${attempts})`);
    await card.locator('details.attempt summary').first().click();
    await card.locator('details.attempt pre', { hasText: 'webhook-signature: v1,' }).first().waitFor(WAIT);
    await card.locator('details.attempt pre', { hasText: '"type"' }).first().waitFor(WAIT);

    flaky.respond({ status: 204 });
    const before = flaky.received.length;
    await card.locator('button.replay').click();
    await page.locator('#webhooks-status', { hasText: /Replayed [a-z_.]+: attempt \d+ answered 204; the delivery is delivered/ }).waitFor(WAIT);
    assert.equal(flaky.received.length, before + 1);
    // The failed filter no longer lists it; all deliveries show it delivered, the replay last.
    await page.evaluate(`location.hash = '#/webhooks'`);
    const delivered = page.locator('article.delivery', { has: page.locator(`a[href="#/requests/${id}"]`) }).first();
    await delivered.locator('.badge', { hasText: 'delivered' }).waitFor(WAIT);
    await delivered.locator('tbody tr').last().locator('td', { hasText: 'replay' }).waitFor(WAIT);
    // A new delivery appears on the open page by itself.
    const next = await createRequest(server, { client_reference: `hook-next-${tag}`, callback_url: flaky.url });
    await activate(server, next);
    await page
      .locator('article.delivery', { has: page.locator(`a[href="#/requests/${next}"]`) })
      .locator('.badge', { hasText: 'delivered' })
      .waitFor(WAIT);
    assert.deepEqual(errors, []);
  });

  await t.test('clock: advance from the dashboard, see what fell due and the link expire', async (st) => {
    const reference = `expire-${tag}`;
    const id = await createRequest(server, { client_reference: reference });
    await activate(server, id, { link_expiry_days: 1 });
    const { page, errors } = await signIn(browser, st, dashboardUrl);
    await page.locator('nav#nav a', { hasText: 'Clock' }).click();
    await page.locator('h1', { hasText: 'Sandbox clock' }).waitFor(WAIT);
    const offset = (await page.locator('#clock-offset').textContent()) ?? '';
    await page.locator('#advance-by').fill('2x');
    await page.locator('#advance-by').press('Enter');
    await page.locator('[role="status"].error', { hasText: /Advancing the clock failed/ }).waitFor(WAIT);
    await page.locator('#advance-by').fill('1d1h');
    await page.locator('form.advance button[type="submit"]').click();
    await page.locator('[role="status"]', { hasText: /Advanced by 1d1h: \d+ things? fell due/ }).waitFor(WAIT);
    assert.notEqual(await page.locator('#clock-offset').textContent(), offset);
    const due = page.locator('#fell-due tr', { hasText: reference });
    await due.filter({ hasText: 'signer_expired' }).first().waitFor(WAIT);
    await due.filter({ hasText: 'request_expired' }).first().waitFor(WAIT);
    await due.first().locator('a', { hasText: reference }).click();
    await page.locator('h1 .badge', { hasText: 'expired' }).waitFor(WAIT);
    assert.equal(await page.locator('button', { hasText: 'Expire links now' }).count(), 0, 'no expire button once expired');
    assert.deepEqual(errors, ['HTTP 400: POST /_dashboard/api/clock/advance'], 'only the bad duration was refused');
  });

  await t.test('embed test page: frames the signer when the embed origin is the dashboard and logs each message', async (st) => {
    const id = await createRequest(server, { client_reference: `embed-${tag}`, embed_origin: server.url });
    await activate(server, id);
    embedId = id;
    const { page, errors } = await signIn(browser, st, dashboardUrl);
    await page.evaluate(`location.hash = '#/requests/${id}'`);
    await page.locator('h1 .badge', { hasText: 'active' }).waitFor(WAIT);
    const [popup] = await Promise.all([page.context().waitForEvent('page', WAIT), page.locator('button', { hasText: 'Embed test page' }).click()]);
    await popup.locator('iframe.embed-frame').waitFor(WAIT);
    assert.ok(!popup.url().includes('/embed/'), 'the signing link left the address bar');
    await popup.locator('#log li[data-type="signing.loaded"]').waitFor(WAIT);
    await popup.frameLocator('iframe.embed-frame').locator('body').waitFor(WAIT);

    // The signing page itself, on a fresh link: the one the embed test page holds stops working.
    const [signing] = await Promise.all([page.context().waitForEvent('page', WAIT), page.locator('button', { hasText: 'Open signing page' }).click()]);
    await signing.waitForURL(/\/sign\/[0-9A-Za-z]+/, WAIT);
    await signing.getByText('Signing as s1@example.com').first().waitFor(WAIT);
    await page.locator('.timeline .event-type', { hasText: 'link_issued' }).nth(1).waitFor(WAIT);

    // Another origin: explained, not framed.
    const other = await createRequest(server, { client_reference: `embed-other-${tag}`, embed_origin: 'https://app.example.com' });
    await activate(server, other);
    await page.evaluate(`location.hash = '#/requests/${other}'`);
    await page.locator('h1', { hasText: `embed-other-${tag}` }).waitFor(WAIT);
    const [explained] = await Promise.all([page.context().waitForEvent('page', WAIT), page.locator('button', { hasText: 'Embed test page' }).click()]);
    await explained.locator('.notice', { hasText: 'frame-ancestors https://app.example.com' }).waitFor(WAIT);
    assert.equal(await explained.locator('iframe').count(), 0);
    assert.deepEqual(errors, []);
  });

  await t.test('a token rotated while the dashboard is open sends it back to the sign-in field', async (st) => {
    const other = await useServer(st);
    const { page } = await signIn(browser, st, other.running.dashboardUrl);
    rotateDashboardToken(other.running.ctx);
    await page.locator('form.sign-in [role="alert"]', { hasText: /wrong, or rotated/ }).waitFor(WAIT);
    assert.equal(await page.locator('table').count(), 0);
    assert.equal(await page.evaluate("sessionStorage.getItem('paraph.dashboard.token')"), null);
  });

  await t.test('without a token only the sign-in field shows; a wrong one is refused', async (st) => {
    const { page, errors } = await openPage(browser, st, { viewport: DESKTOP });
    await page.goto(`${server.url}/_dashboard/`);
    await page.locator('form.sign-in input#token').waitFor(WAIT);
    assert.equal(await page.locator('table').count(), 0);
    assert.equal(await page.locator('#scope').isVisible(), false);
    assert.equal(await page.locator('#nav').isVisible(), false);
    assert.deepEqual(errors, []);
    await page.locator('#token').fill('pdash_wrong');
    await page.locator('#token').press('Enter');
    await page.locator('form.sign-in [role="alert"]').waitFor(WAIT);
    assert.equal(await page.locator('table').count(), 0);
    // The right one, pasted as the whole URL, signs in.
    await page.locator('#token').fill(dashboardUrl);
    await page.locator('form.sign-in button[type="submit"]').click();
    await page.locator('a.request-link', { hasText: new RegExp(`^${walked}$`) }).waitFor(WAIT);
  });

  // Every page, as the walk left the data: axe-core clean, no sideways scrolling, photographed.
  for (const [label, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    await t.test(`every page is axe-core clean and fits (${label}); screenshots`, async (st) => {
      const { page, errors } = await signIn(browser, st, dashboardUrl, viewport, { bypassCSP: true });
      const pages: Array<[string, string, () => Promise<void>]> = [
        ['requests', '#/requests', () => page.locator('a.request-link').first().waitFor(WAIT)],
        ['request', `#/requests/${walkedId}`, () => page.locator('.pdf-preview[data-state="rendered"]').waitFor(WAIT)],
        ['mail', '#/mail', () => page.locator('a.mail-link').first().waitFor(WAIT)],
        ['mail-message', `#/mail/${mailId}`, () => page.frameLocator('iframe.mail-frame').locator('#static').waitFor(WAIT)],
        [
          'mail-invitation',
          `#/mail/${invitationId}`,
          () => page.frameLocator('iframe.mail-frame').locator('body', { hasText: 'Bonjour Camille Martin' }).waitFor(WAIT),
        ],
        ['webhooks', '#/webhooks', () => page.locator('article.delivery').first().waitFor(WAIT)],
        ['clock', '#/clock', () => page.locator('#fell-due table').waitFor(WAIT)],
      ];
      for (const [name, hash, ready] of pages) {
        await page.evaluate(`location.hash = ${JSON.stringify(hash)}`);
        await ready();
        await assertNoPageOverflow(page, `${name} (${label})`);
        await assertAxeClean(page, `${name} (${label})`);
        await snapshot(page, `dashboard-${name}-${label}`);
      }
      // The embed test page, opened from the request as a user would.
      await page.evaluate(`location.hash = '#/requests/${embedId}'`);
      const [popup] = await Promise.all([page.context().waitForEvent('page', WAIT), page.locator('button', { hasText: 'Embed test page' }).click()]);
      await popup.setViewportSize(viewport);
      await popup.locator('#log li[data-type="signing.loaded"]').waitFor(WAIT);
      await assertNoPageOverflow(popup, `embed test page (${label})`);
      await assertAxeClean(popup, `embed test page (${label})`);
      await snapshot(popup, `dashboard-embed-test-${label}`);
      await popup.close();

      await page.locator('#sign-out').click();
      await page.locator('form.sign-in').waitFor(WAIT);
      await assertAxeClean(page, `sign-in (${label})`);
      await snapshot(page, `dashboard-sign-in-${label}`);
      assert.deepEqual(
        errors.filter((e) => !SANDBOX_NOISE.test(e)),
        [],
      );
    });
  }
});
