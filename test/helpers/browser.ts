import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { listenOnLoopback } from './receiver.js';
import { CHROMIUM } from './system-tools.js';

/** Chromium's flags for a headless run in a container: no sandbox, GPU, shared memory or background traffic. */
const LAUNCH_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * Browser features the tests have no use for: the address bar's suggestion popups, two web pages of
 * the browser's own that Chromium loads in a renderer of their own for every new window, which is every
 * new browser context (about 0.9 CPU-seconds of a context's 1.8 on the 2-core CI machine, the signing
 * page's first load included). The pages under test are rendered the same.
 */
const DISABLED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

/** Starts Chromium with its arguments as given but one `--disable-features` list (./chromium.sh). */
const LAUNCHER = fileURLToPath(new URL('./chromium.sh', import.meta.url));

/** Debian's headless Chromium (the tests skip, or fail in CI, where it is missing: test/helpers/system-tools.ts). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: LAUNCHER,
    args: [...LAUNCH_ARGS, `--disable-features=${DISABLED_FEATURES.join(',')}`],
    env: { ...process.env, PARAPH_CHROMIUM_BINARY: CHROMIUM },
  });
}

/**
 * A page in its own browser context (closed when the test ends) that records uncaught errors, console
 * errors and failed responses; a signing link's token is masked in what it records.
 */
export async function openPage(browser: Browser, t: TestContext, options: BrowserContextOptions = {}): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, locale: 'en-US', ...options });
  t.after(() => context.close());
  const page = await context.newPage();
  // Screenshots are for a person to look at: taken only when asked (PARAPH_TEST_SCREENSHOTS=1).
  if (!SCREENSHOTS) page.screenshot = async () => Buffer.alloc(0);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    // Failed loads are reported below with their URL.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) errors.push(`console: ${message.text()}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400)
      errors.push(
        `HTTP ${response.status()}: ${response.request().method()} ${new URL(response.url()).pathname.replace(/\/(sign|embed)\/[^/]+/, '/$1/TOKEN')}`,
      );
  });
  return { page, errors };
}

/** Whether browser tests take their screenshots (PARAPH_TEST_SCREENSHOTS=1): nothing checks them. */
export const SCREENSHOTS = process.env.PARAPH_TEST_SCREENSHOTS === '1';

/** Where browser tests leave their screenshots (and rendered PDFs), to be looked at. */
export const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));

/** A screenshot of the whole page as laid out for a viewport that tall (sticky bars where they belong). */
export async function snapshot(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS) return;
  const viewport = page.viewportSize()!;
  const height = Number(await page.evaluate('document.documentElement.scrollHeight'));
  await page.setViewportSize({ width: viewport.width, height: Math.min(Math.max(height, viewport.height), 4000) });
  await page.evaluate('window.scrollTo(0, 0)');
  await page.screenshot({ path: `${ARTIFACTS}${name}.png`, animations: 'disabled' });
  await page.setViewportSize(viewport);
}

/** No horizontal scrolling of the page itself (wide content scrolls inside its own region). */
export async function assertNoPageOverflow(page: Page, what: string): Promise<void> {
  const overflow = Number(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'));
  assert.ok(overflow <= 0, `${what}: the page scrolls sideways by ${overflow}px`);
}

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core on the page as it is, its experimental label-in-name rule included: no serious or critical
 * violation (evaluated in the page, so the page's CSP does not stop it). Framed content is left out.
 */
export async function assertAxeClean(page: Page, what: string): Promise<void> {
  if (!(await page.evaluate('typeof window.axe !== "undefined"'))) await page.evaluate(AXE_SOURCE);
  const result = (await page.evaluate(
    `axe.run(document, { resultTypes: ['violations'], iframes: false, rules: { 'label-content-name-mismatch': { enabled: true } } }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) })))`,
  )) as Array<{ id: string; impact: string; help: string; nodes: string[] }>;
  const bad = result.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(bad, [], `${what}: axe-core violations ${JSON.stringify(bad, null, 2)}`);
}

/**
 * A small web server on another origin, as a client's site: `/host?src=` iframes `src` and records
 * the messages the frame posts (`window.__messages`), `/done` is a return page. It listens on 127.0.0.1:
 * open it as `http://localhost:<port>` to be another site than the server's 127.0.0.1.
 */
export async function startEmbedHost(t: TestContext): Promise<{ port: number }> {
  const escape = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://host.invalid');
    if (url.pathname === '/host') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(
        `<!doctype html><meta charset="utf-8"><title>Client site</title><h1>Client site</h1>` +
          `<link rel="icon" href="data:,"><script>window.__messages = []; window.addEventListener('message', (e) => window.__messages.push({ origin: e.origin, data: e.data }));</script>` +
          `<iframe id="signing" title="Signing" src="${escape(url.searchParams.get('src') ?? '')}" style="width:960px;height:760px;border:1px solid #999"></iframe>`,
      );
      return;
    }
    if (url.pathname === '/done') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end('<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>Back</title><h1>Back at the client</h1>');
      return;
    }
    response.writeHead(404).end();
  });
  return { port: await listenOnLoopback(t, server) };
}
