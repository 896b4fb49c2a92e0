// The signing page on a phone leaves the screen to the document: measured in real headless Chromium at
// 390×844 and 320×640, in en, fr and ar, with a sender message at both sizes and without one at 320×640
// (a message only adds to the fixed parts: the page without one at the larger size is bounded by the
// other cases). The page's fixed parts (the header and the bottom panel with the guide, consent and the
// buttons) take at most 25 % of the height at 390×844 and 35 % at 320×640, in every state of the guide;
// the first screen shows part of the document; values and words in small boxes are shown whole at a
// readable size; axe-core finds nothing serious or critical in any of these states.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { activeRequest } from '../helpers/flows.js';
import { makePdf } from '../helpers/pdfs.js';
import { useServer, type TestServer } from '../helpers/server.js';
import { CHROMIUM, IN_CI, missingTool } from '../helpers/system-tools.js';
import { ARTIFACTS, assertAxeClean, assertNoPageOverflow, launchChromium, openPage } from '../helpers/browser.js';

const LANGS = ['en', 'fr', 'ar'] as const;
type Lang = (typeof LANGS)[number];
/** The phone sizes and the share of the height the header and the bottom panel may take together. */
const SIZES = [
  { name: '390x844', viewport: { width: 390, height: 844 }, chrome: 0.25 },
  { name: '320x640', viewport: { width: 320, height: 640 }, chrome: 0.35 },
] as const;
/** The first screen shows at least this share of its height of the document. */
const DOCUMENT_SHOWN = 0.3;
/** Words and values in the boxes on the page: never smaller than this (px). */
const READABLE_PX = 9;

const SHOTS = `${ARTIFACTS}phone/`;

const MESSAGE = 'Hello,\nplease sign the service agreement before Friday: the second page lists the prices we agreed on last week.\nThanks, Nadia';

/** One signer speaking `lang`: a text, an automatic date, a date to enter, initials in a 50×30 pt box and a signature. */
async function createSigning(server: TestServer, lang: Lang, message: boolean) {
  const body = {
    email: { sender_name: 'Northwind Trading', ...(message ? { message: MESSAGE } : {}) },
    signers: [
      {
        reference: 'client',
        name: lang === 'ar' ? 'ليلى حداد' : 'Jeanne Dupont-Lefèvre de la Tour',
        email: `phone-${lang}-${message}@example.com`,
        order: 1,
        locale: lang,
      },
    ],
    fields: [
      { signer_reference: 'client', type: 'text', name: 'company', field_key: 'company', page: 1, x: 72, y: 160, width: 220, height: 24 },
      { signer_reference: 'client', type: 'date', field_key: 'sign_date', page: 1, x: 330, y: 160, width: 110, height: 24 },
      { signer_reference: 'client', type: 'date', name: 'start_date', page: 1, x: 72, y: 230, width: 110, height: 24 },
      { signer_reference: 'client', type: 'initials', page: 1, x: 480, y: 760, width: 50, height: 30 },
      { signer_reference: 'client', type: 'signature', page: 1, x: 72, y: 700, width: 200, height: 50 },
    ],
  };
  const pdf = await makePdf([{ width: 595.28, height: 841.89 }], { text: 'Service agreement' });
  const started = await activeRequest(server, body, { document: { bytes: pdf, filename: 'northwind-service-agreement-2026.pdf' } });
  return started.signers[0]!.signing_url;
}

interface Chrome {
  viewport: number;
  header: number;
  panel: number;
  documentShown: number;
}

/** The header's and the bottom panel's heights, and how much of the document shows between them, at the top of the page. */
async function measure(page: Page): Promise<Chrome> {
  await page.evaluate('window.scrollTo(0, 0)');
  await page.evaluate('new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))');
  return (await page.evaluate(`(() => {
    const rect = (selector) => document.querySelector(selector).getBoundingClientRect();
    const header = rect('.topbar');
    const panel = rect('.actionbar');
    const first = rect('.page');
    const top = Math.max(first.top, header.bottom, 0);
    return { viewport: window.innerHeight, header: header.height, panel: panel.height, documentShown: Math.max(0, Math.min(panel.top, first.bottom) - top) };
  })()`)) as Chrome;
}

/** Values and words in the signer's boxes on the page: whole (not cut) and at a readable size. */
async function cutInBoxes(page: Page): Promise<string[]> {
  await page.evaluate('document.fonts.ready');
  await page.evaluate('new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))');
  return (await page.evaluate(`(() => {
    const found = [];
    const context = document.createElement('canvas').getContext('2d');
    for (const box of document.querySelectorAll('.field-box')) {
      const name = box.className.match(/field-(signature|initials|text|date)/)?.[1] + ' ' + (box.dataset.fieldName || '');
      for (const button of box.querySelectorAll('button.field-mark')) {
        if (!button.querySelector('.field-cta, svg, img, .mark-typed')) found.push(name + ': an empty mark box');
        if (!button.getAttribute('aria-label')) found.push(name + ': a mark box without a name');
      }
      for (const words of box.querySelectorAll('.field-cta')) {
        const size = parseFloat(getComputedStyle(words).fontSize);
        const button = words.parentElement;
        if (size < ${READABLE_PX}) found.push(name + ': "' + words.textContent + '" at ' + size.toFixed(1) + ' px');
        if (words.scrollWidth > words.clientWidth + 1 || words.getBoundingClientRect().width > button.clientWidth + 1) found.push(name + ': "' + words.textContent + '" cut');
      }
      for (const caption of box.querySelectorAll('.field-caption')) {
        if (caption.scrollWidth > caption.clientWidth + 1) found.push(name + ': its label "' + caption.textContent + '" cut');
      }
      for (const input of box.querySelectorAll('input.field-locked, input.field-input[type="text"]')) {
        if (!input.value) continue;
        const style = getComputedStyle(input);
        context.font = style.fontWeight + ' ' + style.fontSize + ' ' + style.fontFamily;
        const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        const needed = context.measureText(input.value).width;
        if (needed > room + 1) found.push(name + ': "' + input.value + '" needs ' + needed.toFixed(0) + ' px, has ' + room.toFixed(0));
        if (parseFloat(style.fontSize) < ${READABLE_PX}) found.push(name + ': "' + input.value + '" at ' + style.fontSize);
      }
    }
    return found;
  })()`)) as string[];
}

test('the signing page on a phone: small fixed parts, the document on the first screen', {
  skip: !IN_CI && missingTool(CHROMIUM),
  timeout: 600_000,
  concurrency: 3,
}, async (t) => {
  fs.mkdirSync(SHOTS, { recursive: true });
  const server = await useServer(t);
  const browser = await launchChromium();
  t.after(() => browser.close());
  const figures: string[] = [];

  await Promise.all(
    LANGS.map((lang) =>
      t.test(lang, async (st) => {
        for (const message of [true, false]) {
          const url = await createSigning(server, lang, message);
          for (const size of SIZES) {
            if (!message && size.name === '390x844') continue;
            const { page, errors } = await openPage(browser, st, {
              viewport: size.viewport,
              isMobile: true,
              hasTouch: true,
              deviceScaleFactor: 2,
              locale: lang,
            });
            const label = `${lang}, ${size.name}, ${message ? 'with' : 'without'} a message`;
            await page.goto(url);
            await page.locator('html[data-screen="document"] .page[data-rendered="true"]').waitFor();
            await page.locator('#guide-input').waitFor();
            assert.equal(await page.locator('html').getAttribute('lang'), lang);

            /** The fixed parts in this state: within the bound, the document shown; axe-core clean. */
            const check = async (state: string) => {
              const m = await measure(page);
              const share = (m.header + m.panel) / m.viewport;
              figures.push(
                `${label}, ${state}: header ${m.header.toFixed(0)} + panel ${m.panel.toFixed(0)} = ${(share * 100).toFixed(1)} % of ${m.viewport}; document ${m.documentShown.toFixed(0)} px`,
              );
              assert.ok(
                share <= size.chrome,
                `${label}, ${state}: header ${m.header} + bottom panel ${m.panel} px take ${(share * 100).toFixed(1)} % of ${m.viewport} px (at most ${size.chrome * 100} %)`,
              );
              assert.ok(
                m.documentShown >= DOCUMENT_SHOWN * m.viewport,
                `${label}, ${state}: the first screen shows ${m.documentShown} px of the document (at least ${DOCUMENT_SHOWN * 100} % of ${m.viewport})`,
              );
              await assertNoPageOverflow(page, `${label}, ${state}`);
              // The first screen as the signer sees it (taken only when asked: PARAPH_TEST_SCREENSHOTS=1).
              await page.screenshot({
                path: `${SHOTS}${lang}-${size.name}-${message ? 'message' : 'plain'}-${state.replace(/ /g, '-')}.png`,
                animations: 'disabled',
              });
              await assertAxeClean(page, `${label}, ${state}`);
            };

            // The first screen: the guide on its first field (the company); consent comes once every field is filled.
            await check('first field');
            assert.equal(await page.locator('#consent').isVisible(), false, `${label}: no consent box while fields are left`);
            assert.equal(await page.locator('#decline-button').isVisible(), true, `${label}: Decline is always there`);
            if (message) {
              // The sender's message is there, folded: opening it shows it whole, and it folds again.
              const toggle = page.locator('#sender-message button[aria-expanded]');
              assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
              assert.match(await page.locator('#sender-message').innerText(), /Northwind Trading/);
              await toggle.click();
              assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
              assert.match(await page.locator('#sender-message').innerText(), /the second page lists the prices/);
              await assertAxeClean(page, `${label}, message opened`);
              await toggle.click();
              assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
            }
            assert.deepEqual(await cutInBoxes(page), [], `${label}: words and values in the boxes`);

            // A date's step, then a mark's (the guide's button opens the pad).
            await page.locator('#guide-input').fill('Northwind Trading Ltd');
            await page.locator('.guide-next').click();
            await page.locator('input#guide-input[type="date"]').waitFor();
            await check('date field');
            await page.locator('#guide-input').fill('2026-12-01');
            await page.locator('.guide-next').click();
            await page.locator('button#guide-input').waitFor();
            await check('mark field');

            // Every field filled through the guide (a date typed, marks typed in the pad): it folds, consent and Sign are what is left.
            for (let step = 0; step < 6 && !(await page.locator('.guide.is-folded').count()); step++) {
              if (await page.locator('input#guide-input[type="date"]').count()) await page.locator('#guide-input').fill('2026-12-01');
              else if (await page.locator('button#guide-input').count()) {
                await page.locator('button#guide-input').click();
                await page.locator('#pad-tab-type').click();
                await page.locator('dialog button[type="submit"]').click();
                await page.locator('dialog[open]').waitFor({ state: 'detached' });
                // The mark applied redraws the guide: the focus is back on its control, or on the consent box.
                await page.waitForFunction("['guide-input', 'consent'].includes(document.activeElement?.id ?? '')", undefined, { timeout: 5_000 });
              }
              if (await page.locator('.guide-next').count()) await page.locator('.guide-next').click();
            }
            await page.locator('.guide.is-folded').waitFor();
            await check('all filled');
            assert.deepEqual(await cutInBoxes(page), [], `${label}, all filled: words and values in the boxes`);
            assert.equal(await page.locator('#consent').isVisible(), true, `${label}: the consent box once every field is filled`);
            await page.locator('#consent').check();
            assert.equal(await page.locator('#sign-button').isDisabled(), false, `${label}: Sign is enabled`);
            assert.deepEqual(errors, [], label);
          }
        }
      }),
    ),
  );
  t.diagnostic(figures.join('\n'));
});
