// A three-signer sequential request with send_emails, walked in real headless Chromium: each signer's
// invitation arrives at their turn with a link that works (the activation's), the waiting signer's
// page names whom they wait for, the third signer sees what the first two put on the document, and a
// cancellation with a reason mails every mailed signer and shows the reason on the closed link; then, on a
// request that is not sequential, the last signer able to sign signs after the other's link expired and
// the result says the request expired.
// axe-core on every state: no serious or critical finding (experimental rules included).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { activate, advance, createRequest, DAY, postJson } from '../helpers/flows.js';
import { buttonHrefs, emails, type CaughtEmail } from '../helpers/mail.js';
import { makePdf } from '../helpers/pdfs.js';
import { json, useServer, type TestServer } from '../helpers/server.js';
import { CHROMIUM, IN_CI, missingTool } from '../helpers/system-tools.js';
import { assertAxeClean, launchChromium, openPage, snapshot } from '../helpers/browser.js';

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

const SIGNERS = [
  { reference: 'client', name: 'Ada Lovelace', email: 'ada.walk@example.com', order: 1, locale: 'en' },
  { reference: 'supplier', name: 'Benoît Durand', email: 'benoit.walk@example.com', order: 2, locale: 'fr' },
  { reference: 'witness', name: 'فاطمة الزهراء', email: 'fatima.walk@example.com', order: 3, locale: 'ar' },
];
const FIELDS = SIGNERS.flatMap((s, i) => [
  {
    signer_reference: s.reference,
    type: 'text',
    name: `${s.reference}_company`,
    field_key: 'company',
    page: 1,
    x: 72,
    y: 120 + i * 150,
    width: 220,
    height: 24,
  },
  {
    signer_reference: s.reference,
    type: 'date',
    name: `${s.reference}_date`,
    field_key: 'sign_date',
    page: 1,
    x: 330,
    y: 120 + i * 150,
    width: 150,
    height: 24,
  },
  { signer_reference: s.reference, type: 'signature', page: 1, x: 72, y: 160 + i * 150, width: 200, height: 50 },
]);

/** axe-core in the page, experimental rules too: no serious or critical finding. */
let axeStates = 0;
async function axe(page: Page, name: string): Promise<void> {
  axeStates += 1;
  await assertAxeClean(page, `axe on ${name}`);
}

async function mailsOf(server: TestServer, to: string, count: number): Promise<CaughtEmail[]> {
  for (let i = 0; i < 150; i++) {
    const mails = await emails(server, { to });
    if (mails.length >= count) return mails;
    await new Promise((r) => setTimeout(r, 100));
  }
  return emails(server, { to });
}

/** The page's text without the invisible marks that isolate names and file names (bidi). */
async function textOf(page: Page, selector = 'main'): Promise<string> {
  return (await page.locator(selector).innerText()).replace(/[\u2066-\u2069]/g, '');
}

async function documentReady(page: Page): Promise<void> {
  await page.locator('html[data-screen="document"] .page[data-rendered="true"]').first().waitFor();
}

/** Signs on a desktop page: the company, a typed signature, consent. */
async function signHere(page: Page, reference: string, company: string): Promise<void> {
  await page.locator(`[data-field-name="${reference}_company"] input`).fill(company);
  await page.locator('.field-mark[data-kind="signature"]').first().click();
  await page.locator('#pad-tab-type').click();
  await page.locator('dialog button[type="submit"]').click();
  await page.locator('.field-box.field-signature.is-done').first().waitFor();
  await page.locator('#consent').check();
  await page.locator('#sign-button').click();
  await page.locator('html[data-screen="result"]').waitFor();
}

test('three sequential signers by mail in Chromium', { skip: !IN_CI && missingTool(CHROMIUM), timeout: 180_000 }, async (t) => {
  const server = await useServer(t);
  const browser = await launchChromium();
  t.after(() => browser.close());
  const pdf = await makePdf([{ width: 595.28, height: 841.89 }], { text: 'Northwind service agreement' });
  const id = await createRequest(
    server,
    { sequential_signing: true, email: { sender_name: 'Northwind Trading' }, signers: SIGNERS, fields: FIELDS },
    { signers: 'payload', document: { bytes: pdf, filename: 'Northwind-service-agreement-2026.pdf' } },
  );
  const activated = await activate(server, id, { send_emails: true });
  const links = Object.fromEntries(activated.signers.map((s) => [s.reference, s.signing_url]));

  // At activation only the first signer is invited.
  const [invitation] = await mailsOf(server, SIGNERS[0]!.email, 1);
  assert.equal(invitation?.kind, 'invitation');
  assert.deepEqual(await emails(server, { to: SIGNERS[1]!.email }), [], 'signer 2 is not invited before signer 1 signed');

  // Signer 2 opening the activation link early: the page names whom they wait for.
  {
    const { page, errors } = await openPage(browser, t, PHONE);
    await page.goto(links.supplier!);
    await documentReady(page);
    assert.match(await textOf(page, '#waiting-notice'), /Ada Lovelace/);
    await snapshot(page, 'sequential/waiting-fr-phone');
    await axe(page, 'waiting (fr, phone)');
    assert.deepEqual(errors, []);
  }

  // Signer 1 signs through the invitation's link.
  {
    const { page, errors } = await openPage(browser, t);
    await page.goto(buttonHrefs(invitation!.html)[0]!);
    await documentReady(page);
    await axe(page, 'document (en, desktop)');
    await signHere(page, 'client', 'Lovelace Analytical Engines');
    assert.match(await textOf(page), /We have emailed Benoît Durand/);
    await axe(page, 'result (en, desktop)');
    assert.deepEqual(errors, []);
  }

  // Signer 2's invitation arrives now, with the link the client got at activation.
  const [turn] = await mailsOf(server, SIGNERS[1]!.email, 1);
  assert.equal(turn?.kind, 'turn');
  assert.match(turn!.text, /Ada Lovelace/);
  assert.deepEqual(buttonHrefs(turn!.html), [links.supplier]);
  assert.deepEqual(await emails(server, { to: SIGNERS[2]!.email }), []);
  {
    const { page, errors } = await openPage(browser, t, { locale: 'fr-FR' });
    await page.goto(buttonHrefs(turn!.html)[0]!);
    await documentReady(page);
    assert.equal(await page.locator('#waiting-notice').count(), 0, 'nobody to wait for any more');
    await signHere(page, 'supplier', 'Durand SARL');
    assert.match(await textOf(page), /Nous avons écrit à/);
    assert.deepEqual(errors, []);
  }

  // Signer 3 sees both earlier signatures and values, their own fields on top.
  const [third] = await mailsOf(server, SIGNERS[2]!.email, 1);
  assert.equal(third?.kind, 'turn');
  for (const [size, options] of [
    ['desktop', {}],
    ['phone', PHONE],
  ] as const) {
    const { page, errors } = await openPage(browser, t, options);
    await page.goto(buttonHrefs(third!.html)[0]!);
    await documentReady(page);
    const earlier = page.locator('.earlier-field');
    assert.equal(await page.locator('.earlier-signature').count(), 2, 'both earlier signatures');
    const shown = await earlier.allInnerTexts();
    for (const value of ['Lovelace Analytical Engines', 'Durand SARL', 'Ada Lovelace', 'Benoît Durand']) {
      assert.ok(
        shown.some((text) => text.includes(value)),
        `"${value}" is shown (${shown.join(' | ')})`,
      );
    }
    assert.equal(await page.locator('.field-box.field-signature .field-mark').count(), 1, "the signer's own field stays usable");
    await snapshot(page, `sequential/earlier-ar-${size}`);
    await axe(page, `earlier signatures (ar, ${size})`);
    assert.deepEqual(errors, []);
  }

  // Cancelling with a reason mails every mailed signer and shows the reason on the link.
  const cancelled = await postJson(server, `/v1/signature-requests/${id}/cancel`, { reason: 'The price changed; a new agreement follows.' });
  assert.equal(cancelled.status, 200);
  for (const [signer, count] of [
    [SIGNERS[0]!, 2],
    [SIGNERS[1]!, 2],
    [SIGNERS[2]!, 2],
  ] as const) {
    const [notice] = await mailsOf(server, signer.email, count);
    assert.equal(notice?.kind, 'cancelled', signer.email);
    assert.ok(notice!.text.includes('The price changed; a new agreement follows.'));
  }
  {
    const { page } = await openPage(browser, t, PHONE);
    await page.goto(links.witness!);
    await page.locator('html[data-screen="closed"][data-closed-reason="cancelled"]').waitFor();
    assert.match(await textOf(page), /The price changed; a new agreement follows\./);
    await snapshot(page, 'sequential/cancelled-ar-phone');
    await axe(page, 'cancelled (ar, phone)');
  }

  // The last signer able to sign signs after the other's link expired: the request expires, and the result says so.
  const lapsed = await createRequest(
    server,
    { signers: SIGNERS.slice(0, 2), fields: FIELDS.filter((f) => f.signer_reference !== 'witness') },
    { signers: 'payload', document: { bytes: pdf, filename: 'Northwind-service-agreement-2026.pdf' } },
  );
  await activate(server, lapsed, { link_expiry_days: 2 });
  await advance(server, DAY);
  const renewed = await json<{ reminders: Array<{ signing_url: string }> }>(
    await postJson(server, `/v1/signature-requests/${lapsed}/reminders`, { signer_reference: 'supplier' }),
  );
  await advance(server, DAY + 60_000);
  {
    const { page, errors } = await openPage(browser, t);
    await page.goto(renewed.reminders[0]!.signing_url);
    await documentReady(page);
    await signHere(page, 'supplier', 'Durand SARL');
    assert.match(await textOf(page), /La demande a expiré/);
    await axe(page, 'result, the request expired (fr, desktop)');
    assert.deepEqual(errors, []);
  }
  t.diagnostic(`axe-core: ${axeStates} page states, no serious or critical finding`);
});
