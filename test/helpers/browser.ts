import type { TestContext } from 'node:test';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';

/**
 * A page in its own browser context (closed when the test ends) that records uncaught errors, console
 * errors and failed responses; a signing link's token is masked in what it records.
 */
export async function openPage(browser: Browser, t: TestContext, options: BrowserContextOptions = {}): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, locale: 'en-US', ...options });
  t.after(() => context.close());
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    // Failed loads are reported below with their URL.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) errors.push(`console: ${message.text()}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) errors.push(`HTTP ${response.status()}: ${response.request().method()} ${new URL(response.url()).pathname.replace(/\/(sign|embed)\/[^/]+/, '/$1/TOKEN')}`);
  });
  return { page, errors };
}
