// The signing page in real headless Chromium (Debian's /usr/bin/chromium through playwright-core):
// full signings in en, fr and ar, decline, email code, sequential order, iframe embedding on another
// origin, framing refused from a third origin, return URL and closed links. Screenshots are kept
// under test-artifacts/.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test, type TestContext } from 'node:test';
import type { FrameLocator, Page } from 'playwright-core';
import { activeRequest, eventsOf, postJson, status } from '../helpers/flows.js';
import { makePdf } from '../helpers/pdfs.js';
import { useServer, type TestServer } from '../helpers/server.js';
import { codesMailed, newestCode, wrongCodeFor } from '../helpers/mail.js';
import { CHROMIUM, IN_CI, missingTool } from '../helpers/system-tools.js';
import { ARTIFACTS, assertAxeClean, launchChromium, openPage, snapshot, startEmbedHost } from '../helpers/browser.js';

type Scope = Page | FrameLocator;

async function documentReady(scope: Scope): Promise<void> {
  await scope.locator('html[data-screen="document"] .page[data-rendered="true"]').first().waitFor();
}

/** Draws a stroke on the signature pad with mouse moves, then applies it. */
async function drawSignature(page: Page, scope: Scope = page, screenshot?: string): Promise<void> {
  await scope.locator('.field-mark[data-kind="signature"]').first().click();
  const canvas = scope.locator('dialog .pad-canvas');
  await canvas.waitFor();
  const box = await canvas.boundingBox();
  assert.ok(box, 'the pad canvas has a box');
  const y = box.y + box.height * 0.55;
  await page.mouse.move(box.x + box.width * 0.12, y);
  await page.mouse.down();
  for (let i = 1; i <= 30; i++) {
    await page.mouse.move(box.x + box.width * (0.12 + (0.76 * i) / 30), y - Math.sin(i / 2.5) * box.height * 0.22);
  }
  await page.mouse.up();
  if (screenshot) await page.screenshot({ path: `${ARTIFACTS}${screenshot}.png`, animations: 'disabled' });
  await scope.locator('dialog button[type="submit"]').click();
  await scope.locator('.field-box.field-signature.is-done').first().waitFor();
  const src = await scope.locator('.field-box.field-signature img.mark-image').first().getAttribute('src');
  assert.match(src ?? '', /^data:image\/png;base64,/);
}

/** Adopts a typed mark (the pad's Type tab, prefilled from the signer's name unless `text` is given). */
async function typeMark(scope: Scope, kind: 'signature' | 'initials', text?: string): Promise<void> {
  await scope.locator(`.field-mark[data-kind="${kind}"]`).first().click();
  await scope.locator('#pad-tab-type').click();
  if (text !== undefined) await scope.locator('#pad-typed').fill(text);
  await scope.locator('dialog button[type="submit"]').click();
  await scope.locator(`.field-box.field-${kind}.is-done`).first().waitFor();
}

function marksOf(server: TestServer, requestId: string) {
  const { db } = server.running.ctx;
  return db.all(
    db.q
      .selectFrom('signer_marks')
      .innerJoin('signers', 'signers.id', 'signer_marks.signer_id')
      .select(['signers.reference', 'signer_marks.kind', 'signer_marks.method', 'signer_marks.text', 'signer_marks.image'])
      .where('signers.request_id', '=', requestId),
  );
}

type Message = { origin: string; data: Record<string, unknown> };
// Evaluated in the host page (the test's TypeScript has no DOM types, so these are strings).
async function messagesOf(page: Page): Promise<Message[]> {
  return (await page.evaluate('window.__messages')) as Message[];
}
async function waitForMessage(page: Page, type: string): Promise<Message> {
  await page.waitForFunction(`window.__messages.some((m) => m.data && m.data.type === ${JSON.stringify(type)})`);
  return (await messagesOf(page)).find((m) => m.data.type === type) as Message;
}

const A4 = { width: 595.28, height: 841.89 };

/** Words each language must show (checked against the page, independently of i18n.js). */
const WORDS = {
  en: { sign: 'Sign', consent: 'I have read the document', done: 'Document signed', company: 'Company' },
  fr: { sign: 'Signer', consent: 'J’ai lu le document', done: 'Document signé', company: 'Société' },
  ar: { sign: 'توقيع', consent: 'قرأت المستند', done: 'تم توقيع المستند', company: 'الشركة' },
} as const;

// Skipped on a desk without Chromium; in CI it runs, and fails, as test/e2e/system-tools.test.ts does.
test('signing page in Chromium', { skip: !IN_CI && missingTool(CHROMIUM), timeout: 300_000, concurrency: 3 }, async (t) => {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const server = await useServer(t);
  const browser = await launchChromium();
  t.after(() => browser.close());
  const host = await startEmbedHost(t);
  // Page 2 rotated, and in units of 2/72 inch (/UserUnit 2): fields are in the page's own units.
  const twoPages = await makePdf([A4, { ...A4, rotate: 90, userUnit: 2 }], { text: 'Service agreement' });
  // Each subtest makes its own requests and opens its own page: they run side by side.
  const subtests: Array<Promise<void>> = [];

  async function fullSigning(st: TestContext, lang: 'en' | 'fr' | 'ar') {
    // en: the browser's language; fr: the signer's locale (wins over a German browser); ar: Accept-Language.
    const browserLocale = { en: 'en-US', fr: 'de-DE', ar: 'ar-MA' }[lang];
    const created = await activeRequest(
      server,
      {
        signers: [{ reference: 'client', name: 'Ada Lovelace', email: `ada-${lang}@example.com`, order: 1, ...(lang === 'fr' ? { locale: 'fr' } : {}) }],
        fields: [
          { signer_reference: 'client', type: 'text', name: 'company', field_key: 'company', page: 1, x: 72, y: 160, width: 220, height: 24 },
          {
            signer_reference: 'client',
            type: 'text',
            name: 'contract_no',
            page: 1,
            x: 330,
            y: 160,
            width: 190,
            height: 24,
            value: 'C-2024-042',
            read_only: true,
          },
          { signer_reference: 'client', type: 'date', field_key: 'sign_date', page: 1, x: 72, y: 210, width: 150, height: 24 },
          { signer_reference: 'client', type: 'date', name: 'start_date', page: 1, x: 330, y: 210, width: 150, height: 24 },
          { signer_reference: 'client', type: 'initials', page: 1, x: 490, y: 770, width: 70, height: 40 },
          // Page 2 is rotated: displayed landscape (841.89 x 595.28), so x = 600 only fits as displayed.
          { signer_reference: 'client', type: 'signature', page: 2, x: 600, y: 420, width: 200, height: 60 },
        ],
      },
      { signers: 'payload', document: { bytes: twoPages } },
    );
    // fr: a browser 14 hours ahead of UTC, where the link's expiry falls on another day than the mail's (UTC) says.
    const { page, errors } = await openPage(browser, st, { locale: browserLocale, ...(lang === 'fr' ? { timezoneId: 'Pacific/Kiritimati' } : {}) });
    await page.goto(created.links.client!);
    await documentReady(page);
    await page.locator('.page[data-page="2"][data-rendered="true"]').waitFor();
    // The link's expiry names the time zone it is written in.
    if (lang === 'fr') assert.match(await page.locator('body').innerText(), /Lien valable jusqu’au .+ UTC\+14/);
    if (lang === 'en') assert.match(await page.locator('body').innerText(), /Link valid until .+ (UTC|GMT)\b/);

    const html = page.locator('html');
    assert.equal(await html.getAttribute('lang'), lang);
    assert.equal(await html.getAttribute('dir'), lang === 'ar' ? 'rtl' : 'ltr');
    assert.match(await page.locator('label[for="consent"]').innerText(), new RegExp(WORDS[lang].consent));
    assert.equal((await page.locator('#sign-button').innerText()).trim(), WORDS[lang].sign);
    assert.match((await page.locator('[data-field-name="company"] input').getAttribute('aria-label')) ?? '', new RegExp(WORDS[lang].company));
    if (lang === 'ar') assert.match(await page.locator('body').innerText(), /[\u0600-\u06FF]{3,}/);

    // Geometry: points to CSS pixels on the displayed (rotated) page.
    const pageBox = (await page.locator('.page[data-page="2"]').boundingBox())!;
    const fieldBox = (await page.locator('.page[data-page="2"] .field-signature').boundingBox())!;
    assert.ok(Math.abs(pageBox.width / pageBox.height - 841.89 / 595.28) < 0.01, 'page 2 is displayed landscape');
    assert.ok(Math.abs((fieldBox.x - pageBox.x) / pageBox.width - 600 / 841.89) < 0.005);
    assert.ok(Math.abs((fieldBox.y - pageBox.y) / pageBox.height - 420 / 595.28) < 0.005);
    assert.ok(Math.abs(fieldBox.width / pageBox.width - 200 / 841.89) < 0.005);

    // Prefilled values: read-only sender value and the signing date are shown, locked.
    assert.equal(await page.locator('[data-field-name="contract_no"] input').inputValue(), 'C-2024-042');
    assert.equal(await page.locator('[data-field-name="contract_no"] input').getAttribute('readonly'), '');
    // The signing date, shown as the signed PDF writes it (ISO 8601, whatever the page's language).
    const today = new Date().toISOString().slice(0, 10);
    assert.equal(await page.locator('.field-date.is-locked input').inputValue(), today);

    const signButton = page.locator('#sign-button');
    assert.equal(await signButton.isDisabled(), true);
    await page.locator('#next-field').click();
    assert.equal(await page.evaluate('document.activeElement.name'), 'company', '"Next field" goes to the first field to fill');
    await page.locator('[data-field-name="company"] input').fill('ACME');
    assert.equal(await page.locator('[data-field-name="start_date"] input').getAttribute('type'), 'date');
    await page.locator('[data-field-name="start_date"] input').fill('2025-01-31');
    await drawSignature(page, page, `pad-${lang}`);
    await typeMark(page, 'initials');
    assert.equal(await signButton.isDisabled(), true, 'consent still missing');
    await page.locator('#consent').check();
    assert.equal(await signButton.isDisabled(), false);
    await snapshot(page, `signing-${lang}`);

    await signButton.click();
    await page.locator('html[data-screen="result"]').waitFor();
    assert.equal((await page.locator('#card-title').innerText()).trim(), WORDS[lang].done);
    if (lang === 'en') await snapshot(page, 'result-en');
    assert.deepEqual(errors, []);

    const after = (await status(server, created.id)) as Awaited<ReturnType<typeof status>> & {
      fields: Array<{ name: string; value: string; completed: boolean }>;
    };
    assert.equal(after.status, 'completed');
    assert.equal(after.signers[0]!.status, 'signed');
    const company = after.fields.find((f) => f.name === 'company');
    assert.equal(company?.value, 'ACME');
    assert.equal(company?.completed, true);
    assert.equal(after.fields.find((f) => f.name === 'start_date')?.value, '2025-01-31');
    const marks = marksOf(server, created.id);
    const signature = marks.find((m) => m.kind === 'signature');
    assert.equal(signature?.method, 'drawn');
    assert.ok(signature?.image && Buffer.from(signature.image).subarray(1, 4).toString() === 'PNG', 'the drawn signature is stored as a PNG');
    assert.deepEqual(
      marks.filter((m) => m.kind === 'initials').map((m) => [m.method, m.text]),
      [['typed', 'AL']],
    );
  }

  subtests.push(
    t.test("the browser opens no page of its own beside the page under test (test/helpers/chromium.sh's merged features)", async (st) => {
      const { page } = await openPage(browser, st);
      await page.goto('about:blank');
      const session = await browser.newBrowserCDPSession();
      const { targetInfos } = (await session.send('Target.getTargets')) as { targetInfos: Array<{ type: string; url: string }> };
      await session.detach();
      const own = targetInfos.filter((target) => target.url.startsWith('chrome://')).map((target) => `${target.type} ${target.url}`);
      assert.deepEqual(own, [], "Chromium's address-bar popups are disabled (DISABLED_FEATURES in test/helpers/browser.ts)");
    }),
  );
  subtests.push(t.test('full signing in English', (st) => fullSigning(st, 'en')));
  subtests.push(t.test('full signing in French (signer locale)', (st) => fullSigning(st, 'fr')));
  subtests.push(t.test('full signing in Arabic, right to left', (st) => fullSigning(st, 'ar')));

  subtests.push(
    t.test('decline with a reason', async (st) => {
      const created = await activeRequest(server, {}, { signers: 'payload' });
      const { page, errors } = await openPage(browser, st);
      await page.goto(created.links.client!);
      await documentReady(page);
      await page.locator('#decline-button').click();
      const dialog = page.locator('dialog');
      await dialog.locator('button[type="submit"]').click();
      assert.match(await dialog.locator('.form-error').innerText(), /Enter a reason/);
      await page.screenshot({ path: `${ARTIFACTS}decline-en.png`, animations: 'disabled' });
      // The page's limit is the API's (src/domain/limits.ts), written on the page by the server.
      assert.equal(await dialog.locator('#decline-reason').getAttribute('maxlength'), '500');
      assert.match(await dialog.locator('#decline-count').innerText(), /500/);
      await dialog.locator('#decline-reason').fill('The amount on page 1 is wrong.');
      await dialog.locator('button[type="submit"]').click();
      await page.locator('html[data-screen="result"][data-outcome="declined"]').waitFor();
      assert.match(await page.locator('#card-title').innerText(), /declined/);
      assert.deepEqual(errors, []);
      const after = await status(server, created.id);
      assert.equal(after.status, 'declined');
      assert.equal(after.signers[0]!.status, 'declined');
      assert.equal(eventsOf(server, created.id).find((e) => e.type === 'signer.declined')?.data.reason, 'The amount on page 1 is wrong.');
    }),
  );

  subtests.push(
    t.test('email code: a wrong code, then the right one', async (st) => {
      const email = 'otp-signer@example.com';
      const created = await activeRequest(
        server,
        { signers: [{ reference: 'client', name: 'Grace Hopper', email, order: 1, verification: 'email_otp' }] },
        { signers: 'payload' },
      );
      const { page, errors } = await openPage(browser, st);
      await page.goto(created.links.client!);
      await page.locator('html[data-screen="otp"]').waitFor();
      assert.equal(await page.locator('.page').count(), 0, 'no document before the code');
      // The page mails the code as it opens: the code box shows once it is sent.
      await page.locator('#otp-code').waitFor();
      const code = await newestCode(server, email);
      const wrong = wrongCodeFor(code);
      await page.locator('#otp-code').fill(wrong);
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.locator('#otp-error', { hasText: 'Wrong code' }).waitFor();
      assert.match(await page.locator('#otp-error').innerText(), /Attempts left with this code: 4/);
      await snapshot(page, 'otp');
      await page.locator('#otp-code').fill(code);
      await page.getByRole('button', { name: 'Verify' }).click();
      await documentReady(page);
      // Keyboard only: the signature field opens the pad, the arrow key picks "Type", Enter applies.
      const focused = () => page.evaluate('document.activeElement && (document.activeElement.id || document.activeElement.className)');
      assert.equal(await focused(), 'doc-name', "after the right code, focus is on the document's title, not lost on the page");
      await page.locator('.field-mark').focus();
      await page.keyboard.press('Enter');
      await page.locator('dialog').waitFor();
      assert.equal(await focused(), 'pad-tab-draw');
      await page.keyboard.press('ArrowRight');
      assert.equal(await focused(), 'pad-tab-type');
      await page.keyboard.press('Tab');
      assert.equal(await focused(), 'pad-typed');
      await page.keyboard.press('Control+A');
      await page.keyboard.type('Grace Hopper');
      await page.keyboard.press('Enter');
      await page.locator('.field-box.field-signature.is-done').waitFor();
      assert.equal(await focused(), 'field field-mark', 'focus returns to the field');
      await page.locator('#consent').focus();
      await page.keyboard.press('Space');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      assert.equal(await focused(), 'sign-button');
      await page.keyboard.press('Enter');
      await page.locator('html[data-screen="result"]').waitFor();
      assert.deepEqual(errors, []);
      const after = (await status(server, created.id)) as Awaited<ReturnType<typeof status>> & { signers: Array<{ verified_at: string | null }> };
      assert.equal(after.signers[0]!.status, 'signed');
      assert.ok(after.signers[0]!.verified_at);
      assert.deepEqual(
        marksOf(server, created.id).map((m) => [m.kind, m.method, m.text]),
        [['signature', 'typed', 'Grace Hopper']],
      );
    }),
  );

  subtests.push(
    t.test('email code: the 15th wrong code locks, and the page says until when and offers no new code', async (st) => {
      const email = 'locked-signer@example.com';
      const created = await activeRequest(server, { signers: [{ reference: 'client', email, order: 1, verification: 'email_otp' }] }, { signers: 'payload' });
      const link = new URL(created.links.client!);
      const apiUrl = `${link.origin}${link.pathname}/api`;
      // 10 wrong codes through the page's API, on two codes; the next five are typed on the page.
      for (let round = 0; round < 2; round++) {
        assert.equal((await fetch(`${apiUrl}/otp`, { method: 'POST' })).status, 200);
        const wrong = wrongCodeFor(await newestCode(server, email));
        for (let i = 0; i < 5; i++) {
          const checked = await fetch(`${apiUrl}/otp/verify`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ code: wrong }),
          });
          assert.equal(checked.status, 200);
        }
      }
      const { page } = await openPage(browser, st);
      await page.goto(created.links.client!);
      await page.locator('html[data-screen="otp"]').waitFor();
      await page.locator('#otp-code').waitFor();
      // The code the page mailed as it opened.
      assert.equal(await codesMailed(server, email), 3);
      const wrong = wrongCodeFor(await newestCode(server, email));
      const verify = async (code: string) => {
        await page.locator('#otp-code').fill(code);
        await page.locator('.otp-form button[type="submit"]').click();
      };
      for (let left = 4; left >= 1; left--) {
        await verify(wrong);
        await page.locator('#otp-error', { hasText: `Attempts left with this code: ${left}.` }).waitFor();
      }
      // The 15th wrong code in 24 hours: locked, until when, and neither a code box nor a button to send one.
      await verify(wrong);
      await page.locator('#otp-error', { hasText: 'Too many wrong codes' }).waitFor();
      assert.match(await page.locator('#otp-error').innerText(), /locked until .*\d{4}/);
      assert.equal(await page.locator('#otp-code').isVisible(), false, 'no code box');
      assert.equal(await page.getByRole('button', { name: /code/i }).count(), 0, 'no button to send a code');
      // Opened again: the code it would mail is refused, the lock is explained at once, still nothing to try.
      await page.reload();
      await page.locator('#otp-error', { hasText: 'Too many wrong codes' }).waitFor();
      assert.equal(await page.getByRole('button', { name: /code/i }).count(), 0);
      assert.equal(await page.locator('.page').count(), 0);
      await assertAxeClean(page, 'email code locked');
    }),
  );

  subtests.push(
    t.test('email code: a code used up elsewhere asks for a new one', async (st) => {
      const email = 'used-up-signer@example.com';
      const created = await activeRequest(server, { signers: [{ reference: 'client', email, order: 1, verification: 'email_otp' }] }, { signers: 'payload' });
      const link = new URL(created.links.client!);
      const apiUrl = `${link.origin}${link.pathname}/api`;
      const { page } = await openPage(browser, st);
      await page.goto(created.links.client!);
      await page.locator('html[data-screen="otp"]').waitFor();
      await page.locator('#otp-code').waitFor();
      const code = await newestCode(server, email);
      // Five wrong tries from elsewhere kill the code the page is about to send.
      const wrong = wrongCodeFor(code);
      for (let i = 0; i < 5; i++) {
        const checked = await fetch(`${apiUrl}/otp/verify`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ code: wrong }),
        });
        assert.equal(checked.status, 200);
      }
      await page.locator('#otp-code').fill(code);
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.locator('#otp-error', { hasText: 'This code has expired or was replaced' }).waitFor();
      assert.equal(await page.locator('.page').count(), 0);
    }),
  );

  subtests.push(
    t.test('sequential signing: the second signer waits (phone width)', async (st) => {
      const created = await activeRequest(
        server,
        {
          sequential_signing: true,
          signers: [
            { reference: 'seller', name: 'Sam Seller', email: 'seller@example.com', order: 1 },
            { reference: 'buyer', name: 'Bea Buyer', email: 'buyer@example.com', order: 2 },
          ],
          fields: [
            { signer_reference: 'seller', type: 'signature', page: 1, x: 60, y: 700, width: 200, height: 50 },
            { signer_reference: 'buyer', type: 'text', name: 'buyer_company', field_key: 'company', page: 1, x: 320, y: 640, width: 200, height: 24 },
            { signer_reference: 'buyer', type: 'signature', page: 1, x: 320, y: 700, width: 200, height: 50 },
          ],
        },
        { signers: 'payload' },
      );
      const { page, errors } = await openPage(browser, st, { viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
      await page.goto(created.links.buyer!);
      await documentReady(page);
      assert.match(await page.locator('#waiting-notice').innerText(), /Sam Seller/, 'the person, not the reference');
      // On a phone the fields are filled in the guide at the bottom, one at a time.
      assert.equal(await page.locator('#guide-label').innerText(), 'Company, page 1');
      assert.equal(await page.locator('#guide-input').getAttribute('maxlength'), '500');
      await page.locator('#guide-input').fill('Buyer Ltd');
      assert.equal(await page.locator('[data-field-name="buyer_company"] input').inputValue(), 'Buyer Ltd', 'the page shows what the guide took');
      await typeMark(page, 'signature');
      await page.locator('#consent').check();
      assert.equal(await page.locator('#sign-button').isDisabled(), true, 'Sign stays disabled before the seller signed');
      const overflow = Number(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'));
      assert.ok(overflow <= 0, `no horizontal scrolling at 375 px (${overflow})`);
      await snapshot(page, 'sequential-375px');
      assert.deepEqual(errors, []);
      assert.equal((await status(server, created.id)).signers.find((s) => s.reference === 'buyer')?.status, 'viewed');
    }),
  );

  subtests.push(
    t.test('embedded on another origin: messages to the parent, no redirect', async (st) => {
      const origin = `http://localhost:${host.port}`;
      const created = await activeRequest(
        server,
        {
          embed_origin: origin,
          return_url: `${origin}/done`,
          signers: [
            { reference: 'employee', name: 'Emmy Noether', email: 'emmy@example.com', order: 1 },
            { reference: 'manager', name: 'Max Planck', email: 'max@example.com', order: 2, verification: 'email_otp' },
          ],
          fields: [
            { signer_reference: 'employee', type: 'signature', page: 1, x: 60, y: 700, width: 200, height: 50 },
            { signer_reference: 'manager', type: 'signature', page: 1, x: 320, y: 700, width: 200, height: 50 },
          ],
        },
        { signers: 'payload' },
      );
      const embedUrl = created.embeds.employee!;
      assert.match(embedUrl, /\/embed\//);
      const serverOrigin = new URL(server.url).origin;
      const { page, errors } = await openPage(browser, st);
      await page.goto(`${origin}/host?src=${encodeURIComponent(embedUrl)}`);
      const loaded = await waitForMessage(page, 'signing.loaded');
      assert.equal(loaded.origin, serverOrigin);
      assert.deepEqual(loaded.data, {
        source: 'paraph',
        type: 'signing.loaded',
        signatureRequestId: created.id,
        clientReference: created.clientReference,
        signerReference: 'employee',
      });

      const frame = page.frameLocator('#signing');
      await documentReady(frame);
      assert.equal(await frame.locator('html').getAttribute('data-mode'), 'embed');
      await drawSignature(page, frame);
      await frame.locator('#consent').check();
      await frame.locator('#sign-button').click();
      const signed = await waitForMessage(page, 'signing.signed');
      assert.deepEqual(signed.data, {
        source: 'paraph',
        type: 'signing.signed',
        signatureRequestId: created.id,
        clientReference: created.clientReference,
        signerReference: 'employee',
      });
      await frame.locator('html[data-screen="result"]').waitFor();
      assert.equal(new URL(page.url()).pathname, '/host', 'the host page stays');
      assert.match(page.frames()[1]!.url(), /\/embed\//, 'the iframe is not sent to the return URL');

      // The same link again: closed, said to the parent with the reason.
      await page.reload();
      const closed = await waitForMessage(page, 'signing.closed');
      assert.deepEqual(closed.data, {
        source: 'paraph',
        type: 'signing.closed',
        signatureRequestId: created.id,
        clientReference: created.clientReference,
        signerReference: 'employee',
        status: 'signed',
      });
      assert.equal(new URL(page.url()).pathname, '/host');

      // A signer with an email code: loaded, then verification_required.
      await page.goto(`${origin}/host?src=${encodeURIComponent(created.embeds.manager!)}`);
      const verification = await waitForMessage(page, 'signing.verification_required');
      assert.equal(verification.data.signerReference, 'manager');
      assert.deepEqual(
        (await messagesOf(page)).map((m) => m.data.type),
        ['signing.loaded', 'signing.verification_required'],
      );
      assert.ok((await messagesOf(page)).every((m) => m.origin === serverOrigin));
      assert.deepEqual(errors, []);
    }),
  );

  subtests.push(
    t.test('framing is refused from a third origin', async (st) => {
      const created = await activeRequest(server, { embed_origin: `http://localhost:${host.port}` }, { signers: 'payload' });
      const { page } = await openPage(browser, st);
      const refusal = (directive: string) =>
        page.waitForEvent('console', { predicate: (message) => message.text().includes(`frame-ancestors ${directive}`), timeout: 10_000 });
      // Same host server, other origin: 127.0.0.1 instead of localhost.
      let refused = refusal(`http://localhost:${host.port}`);
      await page.goto(`http://127.0.0.1:${host.port}/host?src=${encodeURIComponent(created.embeds.client!)}`);
      // The refusal is the browser's answer to the frame's response: that document is never committed (an
      // error page takes its place), so nothing of it can run or post a message after this point.
      await refused;
      assert.deepEqual(await messagesOf(page), [], 'no message from a refused frame');
      assert.doesNotMatch(page.frames()[1]!.url(), /\/embed\//, 'the frame did not load the page');
      // The plain signing link can be framed by nobody, not even the embed origin.
      refused = refusal("'none'");
      await page.goto(`http://localhost:${host.port}/host?src=${encodeURIComponent(created.links.client!)}`);
      await refused;
      assert.deepEqual(await messagesOf(page), []);
      assert.doesNotMatch(page.frames()[1]!.url(), /\/sign\//);
      assert.equal((await status(server, created.id)).signers[0]!.status, 'pending', 'a refused frame never loaded the view');
    }),
  );

  subtests.push(
    t.test('return URL after signing, outside an iframe', async (st) => {
      const created = await activeRequest(server, { return_url: `http://127.0.0.1:${host.port}/done?keep=1` }, { signers: 'payload' });
      const { page, errors } = await openPage(browser, st);
      await page.goto(created.links.client!);
      await documentReady(page);
      await drawSignature(page);
      await page.locator('#consent').check();
      await page.locator('#sign-button').click();
      await page.waitForURL((url) => url.pathname === '/done');
      const url = new URL(page.url());
      assert.equal(url.origin, `http://127.0.0.1:${host.port}`);
      assert.equal(url.searchParams.get('keep'), '1');
      assert.equal(url.searchParams.get('paraph_status'), 'signed');
      assert.equal(url.searchParams.get('signature_request_id'), created.id);
      assert.equal(url.searchParams.get('client_reference'), created.clientReference);
      assert.equal(url.searchParams.get('signer_reference'), 'client');
      assert.deepEqual(errors, []);
    }),
  );

  subtests.push(
    t.test('a link closed while the page is open shows why on Sign', async (st) => {
      const created = await activeRequest(server, {}, { signers: 'payload' });
      const { page } = await openPage(browser, st);
      await page.goto(created.links.client!);
      await documentReady(page);
      await drawSignature(page);
      await page.locator('#consent').check();
      assert.equal((await postJson(server, `/v1/signature-requests/${created.id}/cancel`)).status, 200);
      await page.locator('#sign-button').click();
      await page.locator('html[data-screen="closed"][data-closed-reason="cancelled"]').waitFor();
    }),
  );

  subtests.push(
    t.test('closed link: cancelled request', async (st) => {
      const created = await activeRequest(server, {}, { signers: 'payload' });
      const cancel = await postJson(server, `/v1/signature-requests/${created.id}/cancel`, { reason: 'Sent by mistake' });
      assert.equal(cancel.status, 200);
      const { page, errors } = await openPage(browser, st);
      await page.goto(created.links.client!);
      await page.locator('html[data-screen="closed"]').waitFor();
      assert.equal(await page.locator('html').getAttribute('data-closed-reason'), 'cancelled');
      assert.match(await page.locator('main').innerText(), /The sender cancelled this signature request\./);
      assert.match(await page.locator('main').innerText(), /ask the sender to send a new request/, 'the page says what to do');
      await snapshot(page, 'closed');
      assert.deepEqual(errors, []);

      // With a return URL, a closed link sends the signer back with the reason.
      const withReturn = await activeRequest(server, { return_url: `http://127.0.0.1:${host.port}/done?from=paraph` }, { signers: 'payload' });
      assert.equal((await postJson(server, `/v1/signature-requests/${withReturn.id}/cancel`)).status, 200);
      await page.goto(withReturn.links.client!);
      await page.waitForURL((url) => url.pathname === '/done');
      const url = new URL(page.url());
      assert.equal(url.searchParams.get('from'), 'paraph');
      assert.equal(url.searchParams.get('paraph_status'), 'cancelled');
      assert.equal(url.searchParams.get('signature_request_id'), withReturn.id);
    }),
  );
  await Promise.all(subtests);
});
