import { test } from 'node:test';
import assert from 'node:assert/strict';
import { prefersHtml, renderIndexPage } from '../../src/http/index-page.js';

test('prefersHtml: browsers get the page, curl and API clients JSON, a tie JSON', () => {
  const html = [
    'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8', // Chrome, Firefox
    'text/html, */*; q=0.01',
    'TEXT/HTML',
    'application/json;q=0.4, text/*',
  ];
  const json = [
    undefined,
    '',
    '*/*',
    'application/json',
    'application/json, text/html',
    'text/html;q=0, */*',
    'text/html;q=0.5, application/json;q=0.5',
    'text/plain',
  ];
  for (const accept of html) assert.equal(prefersHtml(accept), true, String(accept));
  for (const accept of json) assert.equal(prefersHtml(accept), false, String(accept));
});

test('renderIndexPage escapes what it shows', () => {
  const page = renderIndexPage({
    name: 'paraph',
    description: 'a <sandbox> & more',
    version: '1.0.0',
    environment: 'sandbox',
    authentication: 'Authorization: Bearer <API key>',
    links: {
      api: '/v1',
      openapi: '/v1/openapi.json',
      docs: '/docs',
      health: '/healthz',
      dashboard: '/_dashboard/',
      signing_page: 'https://x.test/"><script>/sign/{token}',
    },
  });
  assert.ok(!page.includes('<script>'));
  assert.ok(page.includes('a &lt;sandbox&gt; &amp; more'));
  assert.ok(page.includes('&quot;&gt;&lt;script&gt;'));
});
