// The signer's experience in real headless Chromium: every state of the signing page at phone and
// desktop sizes in en, fr and ar (screenshots under test-artifacts/signer/, axe-core on each, no
// serious or critical finding), who is asking, closed links that say what to do, a phone flow driven
// by taps only, and the signer's copy: the completed mail and the signed PDF through the link.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { test, type TestContext } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { activeRequest, postJson, signerAction } from '../helpers/flows.js';
import { makePdf } from '../helpers/pdfs.js';
import { json, useServer, type TestServer } from '../helpers/server.js';
import { CHROMIUM, IN_CI, missingTool } from '../helpers/system-tools.js';
import { ARTIFACTS, assertAxeClean, launchChromium, openPage, snapshot } from '../helpers/browser.js';
import { waitUntil } from '../helpers/crash-loop.js';

const SIZES = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 900 } } as const;
const LANGS = ['en', 'fr', 'ar'] as const;
type Lang = (typeof LANGS)[number];
const SHOTS = `${ARTIFACTS}signer/`;

const BRANDING = {
  sender_name: 'Northwind Trading',
  message: 'Hello,\nplease sign the service agreement before Friday.\nThanks, Nadia',
  // Never reachable from the test: the page must stay whole when the logo does not load.
  logo_url: 'https://logo.invalid/northwind.png',
};

/** Words each language must show (checked against the page, independently of i18n.js). */
const WORDS = {
  en: {
    from: 'Request from Northwind Trading',
    cancelled: /ask Northwind Trading to send a new request/,
    unknown: 'This link is not valid',
    signed: 'Your signed document',
    download: 'Download the signed document',
  },
  fr: {
    from: 'Demande de Northwind Trading',
    cancelled: /demandez à Northwind Trading d’envoyer une nouvelle demande/,
    unknown: 'Ce lien n’est pas valide',
    signed: 'Votre document signé',
    download: 'Télécharger le document signé',
  },
  ar: {
    from: 'طلب من Northwind Trading',
    cancelled: /فاطلب طلبًا جديدًا من Northwind Trading/,
    unknown: 'هذا الرابط غير صالح',
    signed: 'مستندك الموقَّع',
    download: 'تنزيل المستند الموقَّع',
  },
} as const;

/** An active request (flows.ts) for one signer speaking `lang`: branded, a text, a date and a signature field. */
async function createSigning(server: TestServer, lang: Lang, overrides: Record<string, unknown> = {}, activation: Record<string, unknown> = {}) {
  const email = `signer-${lang}-${Math.random().toString(36).slice(2)}@example.com`;
  const body = {
    email: BRANDING,
    signers: [{ reference: 'client', name: lang === 'ar' ? 'ليلى حداد' : 'Jeanne Dupont-Lefèvre de la Tour', email, order: 1, locale: lang }],
    fields: [
      { signer_reference: 'client', type: 'text', name: 'company', field_key: 'company', page: 1, x: 72, y: 160, width: 220, height: 24 },
      { signer_reference: 'client', type: 'date', field_key: 'sign_date', page: 1, x: 330, y: 160, width: 150, height: 24 },
      { signer_reference: 'client', type: 'signature', page: 1, x: 72, y: 700, width: 200, height: 50 },
    ],
    ...overrides,
  };
  const pdf = await makePdf([{ width: 595.28, height: 841.89 }], { text: 'Service agreement' });
  const started = await activeRequest(server, body, { document: { bytes: pdf, filename: 'service-agreement.pdf' }, activation });
  return { id: started.id, url: started.signers[0]!.signing_url, links: started.links, email: (body.signers as Array<{ email: string }>)[0]!.email };
}

/** Polls `probe` every 150 ms until it answers something other than null (90 s at most). */
function until<T>(what: string, probe: () => Promise<T | null>): Promise<T> {
  return waitUntil(what, async () => (await probe()) ?? undefined, 90_000, 150);
}

/** Page states axe-core checked in this file (reported at the end). */
let axeStates = 0;

/** axe-core in the page, with its experimental label-in-name rule: no serious or critical finding. */
async function axe(page: Page, name: string): Promise<void> {
  axeStates += 1;
  await assertAxeClean(page, `axe on ${name}`);
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.evaluate('document.fonts.ready');
  await snapshot(page, `signer/${name}`);
  await axe(page, name);
}

async function noOverflow(page: Page, name: string): Promise<void> {
  const overflow = Number(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'));
  assert.ok(overflow <= 0, `${name}: no horizontal scrolling (${overflow})`);
}

async function phonePage(browser: Browser, t: TestContext, lang: Lang) {
  return openPage(browser, t, { viewport: SIZES.phone, isMobile: true, hasTouch: true, deviceScaleFactor: 2, locale: lang });
}

test("the signer's experience in Chromium", { skip: !IN_CI && missingTool(CHROMIUM), timeout: 600_000, concurrency: 3 }, async (t) => {
  fs.mkdirSync(SHOTS, { recursive: true });
  const server = await useServer(t);
  const browser = await launchChromium();
  t.after(() => browser.close());
  // Each subtest makes its own requests and opens its own browser contexts: they run side by side.
  const subtests: Array<Promise<void>> = [];

  for (const lang of LANGS) {
    subtests.push(
      t.test(`every state at 390×844 and 1280×900 in ${lang}`, async (st) => {
        const two = {
          sequential_signing: true,
          signers: [
            { reference: 'seller', name: 'Sam Seller', email: `seller-${lang}@example.com`, order: 1, locale: lang },
            { reference: 'client', name: 'Bea Buyer', email: `buyer-${lang}@example.com`, order: 2, locale: lang },
          ],
          fields: [
            { signer_reference: 'seller', type: 'signature', page: 1, x: 60, y: 700, width: 200, height: 50 },
            { signer_reference: 'client', type: 'signature', page: 1, x: 320, y: 700, width: 200, height: 50 },
          ],
        };
        const open = await createSigning(server, lang, {}, { send_emails: true });
        const otp = await createSigning(server, lang, {
          signers: [{ reference: 'client', name: 'Grace Hopper', email: `otp-${lang}@example.com`, order: 1, locale: lang, verification: 'email_otp' }],
        });
        const cancelled = await createSigning(server, lang);
        assert.equal((await postJson(server, `/v1/signature-requests/${cancelled.id}/cancel`, { reason: 'Sent by mistake' })).status, 200);
        const declined = await createSigning(server, lang);
        assert.equal((await signerAction(declined.url, 'decline', { reason: 'Wrong amount' })).status, 200);
        const declinedLink = await createSigning(server, lang);
        const revoked = await createSigning(server, lang);
        assert.equal((await postJson(server, `/v1/signature-requests/${revoked.id}/reminders`, {})).status, 200);
        const signed = await createSigning(server, lang);
        assert.equal((await signerAction(signed.url, 'sign', { fields: { company: 'ACME' }, signature: { type: 'typed', text: 'Jeanne' } })).status, 200);
        // The buyer waits for the seller; then the seller signed, waiting for the buyer.
        const waiting = await createSigning(server, lang, two);
        const seller = await createSigning(server, lang, { ...two, sequential_signing: false });
        const sellerLink = seller.links.seller!;
        assert.equal((await signerAction(sellerLink, 'sign', { signature: { type: 'typed', text: 'Sam Seller' } })).status, 200);
        const unknown = open.url.replace(/\/sign\/[^/?]+/, `/sign/${'Z'.repeat(43)}`);
        await until('the signed PDF', async () =>
          (await json<{ signed_pdf: string }>(await signerAction(signed.url, 'view'))).signed_pdf === 'ready' ? true : null,
        );

        for (const [size, viewport] of Object.entries(SIZES)) {
          const { page, errors } = size === 'phone' ? await phonePage(browser, st, lang) : await openPage(browser, st, { viewport, locale: lang });
          const name = (state: string) => `${state}-${lang}-${size}`;
          const closed = async (state: string, reason: string) => {
            await page.locator(`html[data-screen="closed"][data-closed-reason="${reason}"]`).waitFor();
            await shoot(page, name(state));
          };

          await page.goto(open.url);
          await page.locator('html[data-screen="document"] .page[data-rendered="true"]').waitFor();
          assert.equal(await page.locator('html').getAttribute('lang'), lang);
          // Names are isolated from the sentence's direction (invisible marks, U+2066–U+2069).
          assert.equal(
            (await page.locator('.sender-name').innerText()).replace(/[\u2066-\u2069]/g, '').trim(),
            WORDS[lang].from,
            'the page says who is asking',
          );
          // On a phone the message folds to its title line; its button shows it.
          if (size === 'phone') await page.locator('#sender-message .message-toggle').click();
          // Wider screens show it whole, with no button to fold it.
          else assert.equal(await page.locator('#sender-message .message-toggle').isVisible(), false, 'no Show button on a wide screen');
          assert.match(await page.locator('#sender-message').innerText(), /please sign the service agreement before Friday/);
          assert.match(await page.locator('.doc-name').innerText(), /service-agreement\.pdf/);
          if (size === 'desktop') assert.ok(await page.locator('.link-expiry').isVisible(), "the link's expiry is shown");
          // The logo's failed load (an unresolvable host) may be reported after the document is drawn.
          await page.locator('.sender-logo').waitFor({ state: 'detached', timeout: 10_000 });
          assert.equal(await page.locator('.sender-logo').count(), 0, 'a logo that does not load is taken away');
          await noOverflow(page, name('document'));
          await shoot(page, name('document'));

          // The dialogs: the pad (typed tab), then declining.
          await page.locator('.field-mark[data-kind="signature"]').click();
          await page.locator('#pad-tab-type').click();
          await page.evaluate('document.fonts.ready');
          await page.screenshot({ path: `${SHOTS}${name('pad-typed')}.png`, animations: 'disabled' });
          await axe(page, name('pad-typed'));
          await page.locator('dialog button[type="submit"]').click();
          await page.locator('#decline-button').click();
          await page.locator('dialog #decline-reason').waitFor();
          await page.screenshot({ path: `${SHOTS}${name('decline')}.png`, animations: 'disabled' });
          await axe(page, name('decline'));
          await page.keyboard.press('Escape');

          await page.goto(otp.url);
          await page.locator('html[data-screen="otp"]').waitFor();
          await shoot(page, name('otp'));
          await page.locator('.card-actions .btn').click();
          await page.locator('#otp-code').waitFor();
          await shoot(page, name('otp-sent'));

          await page.goto(waiting.links.client!);
          await page.locator('html[data-screen="document"] .page[data-rendered="true"]').waitFor();
          await page.locator('#waiting-notice').waitFor();
          await shoot(page, name('waiting'));

          await page.goto(cancelled.url);
          await closed('closed-cancelled', 'cancelled');
          assert.match((await page.locator('main').innerText()).replace(/[\u2066-\u2069]/g, ''), WORDS[lang].cancelled);
          assert.match(await page.locator('main').innerText(), /Sent by mistake/, 'the reason the sender gave');
          await page.goto(declined.url);
          await closed('closed-declined', 'declined');
          await page.goto(revoked.url);
          await closed('closed-revoked', 'revoked');
          await page.goto(signed.url);
          await closed('closed-signed', 'signed');
          assert.equal((await page.locator('#card-title').innerText()).trim(), WORDS[lang].signed);
          await page.locator('#download-signed').waitFor();
          await page.goto(sellerLink);
          await closed('closed-signed-waiting', 'signed');
          assert.equal(await page.locator('#download-signed').count(), 0, 'no copy before every signer signed');
          await page.goto(unknown);
          await closed('closed-unknown', 'unknown');
          assert.equal((await page.locator('#card-title').innerText()).trim(), WORDS[lang].unknown);

          // Declining in the page: the result.
          if (size === 'phone') {
            await page.goto(declinedLink.url);
            await page.locator('html[data-screen="document"]').waitFor();
            await page.locator('#decline-button').click();
            await page.locator('dialog #decline-reason').fill('Wrong amount');
            await page.locator('dialog button[type="submit"]').click();
            await page.locator('html[data-screen="result"][data-outcome="declined"]').waitFor();
            await shoot(page, name('result-declined'));
          }
          assert.deepEqual(errors, []);
        }
      }),
    );
  }

  subtests.push(
    t.test('a phone flow driven by taps: fill, sign, download the signed PDF; the completed mail', async (st) => {
      const lang = 'fr';
      const created = await createSigning(server, lang, {}, { send_emails: true });
      const { page, errors } = await phonePage(browser, st, lang);
      await page.goto(created.url);
      await page.locator('html[data-screen="document"] .page[data-rendered="true"]').waitFor();

      // Step 1: the company, in the guide; the page highlights the field.
      assert.equal((await page.locator('#guide-step').innerText()).trim(), 'Champ 1 sur 2');
      assert.ok(await page.locator('.field-box.is-current[data-field-name="company"]').count(), 'the field is highlighted');
      const input = page.locator('#guide-input');
      const box = (await input.boundingBox())!;
      assert.ok(box.height >= 44, `the guide's input is a 44 px target (${box.height})`);
      assert.ok(
        Number(await page.evaluate("parseFloat(getComputedStyle(document.getElementById('guide-input')).fontSize)")) >= 16,
        'no zoom on focus: 16 px text',
      );
      await input.tap();
      await page.keyboard.type('ACME SARL');
      await snapshot(page, 'signer/phone-guide-fr');
      await page.locator('.guide-next').tap();

      // Step 2: the signature, typed in the pad.
      assert.equal((await page.locator('#guide-step').innerText()).trim(), 'Champ 2 sur 2');
      await page.locator('#guide-input').tap();
      await page.locator('#pad-tab-type').tap();
      await page.evaluate('document.fonts.ready');
      await page.screenshot({ path: `${SHOTS}phone-pad-typed-fr.png`, animations: 'disabled' });
      await page.locator('dialog button[type="submit"]').tap();
      await page.locator('.field-box.field-signature.is-done').waitFor();
      assert.match(await page.locator('.guide-done').innerText(), /Tous les champs sont remplis/);

      // Zoom buttons for the document.
      await page.locator('#zoom-in').tap();
      assert.match(await page.locator('.zoom-level').innerText(), /125/);
      await page.locator('#zoom-fit').tap();

      await page.locator('#consent').tap();
      await page.locator('#sign-button').tap();
      await page.locator('html[data-screen="result"]').waitFor();
      const download = page.locator('#download-signed');
      await download.waitFor({ timeout: 60_000 });
      await shoot(page, 'result-copy-fr-phone');
      assert.equal((await download.innerText()).trim(), WORDS.fr.download);

      // The signed PDF through the link.
      const href = (await download.getAttribute('href'))!;
      const pdf = Buffer.from(
        (await page.evaluate(`fetch(${JSON.stringify(href)}).then((r) => r.arrayBuffer()).then((b) => Array.from(new Uint8Array(b)))`)) as number[],
      );
      assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
      assert.ok(pdf.includes('/ByteRange'), 'the signed (sealed) PDF');
      // Kept and rendered, to be looked at: the typed name in the handwriting font, the date the French way.
      fs.writeFileSync(`${SHOTS}signed-fr.pdf`, pdf);
      execFileSync('pdftoppm', ['-png', '-r', '100', '-f', '1', '-l', '1', '-singlefile', `${SHOTS}signed-fr.pdf`, `${SHOTS}signed-fr`]);
      const fonts = execFileSync('pdffonts', [`${SHOTS}signed-fr.pdf`], { encoding: 'utf8' });
      assert.match(fonts, /ArefRuqaa/, 'the typed signature is stamped in the font the page previewed it in');
      const text = execFileSync('pdftotext', [`${SHOTS}signed-fr.pdf`, '-'], { encoding: 'utf8' });
      const today = new Date().toISOString().slice(0, 10);
      assert.ok(text.includes(today), `the signing date in ISO 8601 (${today}), one format for every signer`);

      // Reopening the link: readable, with the download, never signable again.
      await page.reload();
      await page.locator('html[data-screen="closed"][data-closed-reason="signed"]').waitFor();
      assert.equal((await page.locator('#card-title').innerText()).trim(), WORDS.fr.signed);
      await page.locator('#download-signed').waitFor();
      assert.equal(await page.locator('#sign-button').count(), 0);
      await shoot(page, 'closed-signed-fr-phone');

      // The completed mail: in the signer's language, with a read-only link that offers the PDF too.
      const mails = await json<{ data: Array<{ kind: string | null; subject: string; text: string; html: string }> }>(
        await server.call('GET', `/_sandbox/emails?to=${encodeURIComponent(created.email)}`),
      );
      const completed = mails.data.find((m) => m.kind === 'completed');
      assert.ok(completed, `a completed mail (kinds: ${mails.data.map((m) => m.kind).join(', ')})`);
      assert.match(completed.subject, /« service-agreement\.pdf » est signé/);
      assert.match(completed.text, /Télécharger le document signé/);
      const mailPage = await (await browser.newContext({ viewport: SIZES.phone })).newPage();
      await mailPage.setContent(completed.html);
      await noOverflow(mailPage, 'the completed mail at 390 px');
      await mailPage.screenshot({ path: `${SHOTS}mail-completed-fr-phone.png`, fullPage: true });
      await mailPage.context().close();
      const link = /(http:\/\/\S+\/sign\/\S+)/.exec(completed.text)?.[1];
      assert.ok(link, 'the mail carries a link');
      assert.ok(!completed.text.includes(created.url), 'a link of its own, not the signing link');
      const copy = await fetch(`${new URL(link).origin}${new URL(link).pathname}/api/signed-document`);
      assert.equal(copy.status, 200);
      assert.equal(copy.headers.get('content-type'), 'application/pdf');
      assert.match(copy.headers.get('content-disposition') ?? '', /attachment; filename="service-agreement-signed\.pdf"/);
      const signView = await fetch(`${new URL(link).origin}${new URL(link).pathname}/api/sign`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      assert.equal(signView.status, 409, "the mail's link never signs");
      await signView.text();

      await page.goto(link);
      await page.locator('#download-signed').waitFor();
      assert.deepEqual(errors, []);
    }),
  );

  subtests.push(
    t.test('the mails: 600 px column, one greeting, the message quoted, a wrapped link', async () => {
      for (const lang of LANGS) {
        const created = await createSigning(server, lang, {}, { send_emails: true });
        const mails = await json<{ data: Array<{ kind: string | null; html: string; text: string }> }>(
          await server.call('GET', `/_sandbox/emails?to=${encodeURIComponent(created.email)}`),
        );
        const invitation = mails.data.find((m) => m.kind === 'invitation')!;
        assert.match(invitation.html, /max-width:600px/);
        assert.match(invitation.html, /<blockquote[^>]*>[\s\S]*please sign the service agreement/);
        assert.match(invitation.html, /word-break:break-all/);
        // The sender's message greets: paraph's own greeting is left out.
        assert.doesNotMatch(invitation.text, /^(Hello|Bonjour|مرحبًا) /m);
        fs.writeFileSync(`${SHOTS}mail-invitation-${lang}.html`, invitation.html);
        if (lang === 'ar') assert.doesNotMatch(invitation.text, /يطلب منك/, 'no masculine verb for the sender');
      }
      for (const [size, viewport] of Object.entries(SIZES)) {
        const context = await browser.newContext({ viewport });
        const page = await context.newPage();
        for (const lang of LANGS) {
          await page.setContent(fs.readFileSync(`${SHOTS}mail-invitation-${lang}.html`, 'utf8'));
          await noOverflow(page, `mail ${lang} ${size}`);
          await page.screenshot({ path: `${SHOTS}mail-invitation-${lang}-${size}.png`, fullPage: true });
        }
        await context.close();
      }
    }),
  );
  await Promise.all(subtests);
  t.diagnostic(`axe-core: ${axeStates} page states, no serious or critical finding`);
});
