// What a newcomer finds with nothing but the server's address: `GET /` (JSON, or a page for a browser),
// `GET /v1` (the API base the ready banner prints), `GET /docs` (the README), all without a key and all
// in the OpenAPI document, as /healthz and the /_sandbox controls are.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { json, useServer, useSharedServer } from '../helpers/server.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
/** The read-only tests share one server; the --public-url one starts its own. */
const sharedServer = useSharedServer();

type Index = { name: string; version: string; environment: string; authentication: string; links: Record<string, string> };

test('GET / answers the index in JSON without a key: every link it gives answers 200', async (t) => {
  const server = await sharedServer();
  const response = await server.call('GET', '/', { key: null });
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
  assert.match(response.headers.get('vary') ?? '', /accept/i);
  const index = await json<Index>(response);
  assert.equal(index.name, 'paraph');
  assert.equal(index.version, VERSION);
  assert.equal(index.environment, 'sandbox');
  assert.equal(index.authentication, 'Authorization: Bearer <API key>');
  assert.deepEqual(index.links, {
    api: '/v1',
    openapi: '/v1/openapi.json',
    docs: '/docs',
    health: '/healthz',
    dashboard: '/_dashboard/',
    signing_page: `${server.url}/sign/{token}`,
  });
  for (const link of [index.links.api, index.links.openapi, index.links.docs, index.links.health, index.links.dashboard]) {
    const answer = await server.call('GET', link as string, { key: null });
    assert.equal(answer.status, 200, `${link}: ${await answer.text()}`);
  }
  // curl's Accept and an explicit JSON preference get JSON too.
  for (const accept of ['*/*', 'application/json', 'text/html;q=0.5, application/json']) {
    const answer = await server.call('GET', '/', { key: null, headers: { accept } });
    assert.match(answer.headers.get('content-type') ?? '', /^application\/json/, accept);
    assert.equal((await json<Index>(answer)).name, 'paraph');
  }
});

test('GET / answers a page with the same links to a browser', async (t) => {
  const server = await sharedServer();
  const response = await server.call('GET', '/', { key: null, headers: { accept: BROWSER_ACCEPT } });
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
  assert.equal(response.headers.get('content-security-policy'), "default-src 'none'");
  const page = await response.text();
  for (const href of ['/v1', '/v1/openapi.json', '/docs', '/healthz']) assert.ok(page.includes(`href="${href}"`), `a link to ${href}`);
  assert.ok(page.includes(`paraph ${VERSION}`));
  assert.ok(page.includes('Authorization: Bearer &lt;API key&gt;'), 'the auth header, escaped');
  assert.ok(page.includes(`${server.url}/sign/{token}`));
});

test('the signing page link follows --public-url', async (t) => {
  const server = await useServer(t, { publicUrl: 'https://sign.example.test' });
  const index = await json<Index>(await server.call('GET', '/', { key: null }));
  assert.equal(index.links.signing_page, 'https://sign.example.test/sign/{token}');
});

test("GET /v1 answers the API's name, paraph's version and links, without a key", async (t) => {
  const server = await sharedServer();
  const response = await server.call('GET', '/v1', { key: null });
  assert.equal(response.status, 200);
  const index = await json<Index & { api_version: string }>(response);
  assert.equal(index.name, 'paraph: signature request sandbox API');
  assert.equal(index.api_version, 'v1');
  assert.equal(index.version, VERSION);
  assert.equal(index.authentication, 'Authorization: Bearer <API key>');
  assert.equal(index.links.openapi, '/v1/openapi.json');
  assert.equal(index.links.docs, '/docs');
  assert.equal(index.links.signature_requests, '/v1/signature-requests');
  // The collections it names are real endpoints (401 without a key, 200 with one).
  for (const key of ['signature_requests', 'templates', 'webhook_deliveries']) {
    const link = index.links[key] as string;
    assert.equal((await server.call('GET', link, { key: null })).status, 401, link);
    assert.equal((await server.call('GET', link)).status, 200, link);
  }
  // A key, even a wrong one, changes nothing: the index is public.
  assert.equal((await server.call('GET', '/v1', { key: 'paraph_test_not-a-key' })).status, 200);
});

test('GET /docs answers the README shipped with paraph, as Markdown', async (t) => {
  const server = await sharedServer();
  const response = await server.call('GET', '/docs', { key: null });
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^text\/markdown/);
  assert.equal(await response.text(), fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8'));
});

test("GET /docs/PAGE.md answers the README's linked pages; nothing outside docs/", async (t) => {
  const server = await sharedServer();
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const linked = [...new Set([...readme.matchAll(/\]\(docs\/([a-z0-9-]+\.md)\)/g)].map((m) => m[1] as string))];
  assert.ok(linked.length >= 10, `the README links its pages (${linked.length})`);
  for (const page of linked) {
    const response = await server.call('GET', `/docs/${page}`, { key: null });
    assert.equal(response.status, 200, page);
    assert.match(response.headers.get('content-type') ?? '', /^text\/markdown/);
    assert.equal(await response.text(), fs.readFileSync(path.join(ROOT, 'docs', page), 'utf8'));
  }
  for (const route of ['/docs/nothing.md', '/docs/..%2Fpackage.json', '/docs/%2E%2E%2FREADME.md', '/docs/cli.txt']) {
    assert.equal((await server.call('GET', route, { key: null })).status, 404, route);
  }
});

test('/, /v1 and /docs are in the OpenAPI document, without security, as /healthz is', async (t) => {
  const server = await sharedServer();
  const doc = await json<Record<string, any>>(await server.call('GET', '/v1/openapi.json', { key: null }));
  assert.equal(doc.info.title, 'paraph: signature request sandbox API');
  for (const route of ['/', '/v1', '/docs', '/healthz']) {
    assert.ok(doc.paths[route]?.get, `${route} is documented`);
    assert.deepEqual(doc.paths[route].get.security, [], `${route} needs no key`);
  }
  assert.equal(doc.paths['/'].get.responses['200'].content['application/json'].schema.$ref, '#/components/schemas/ServerIndex');
  assert.equal(doc.paths['/v1'].get.responses['200'].content['application/json'].schema.$ref, '#/components/schemas/ApiIndex');
  assert.deepEqual(doc.components.schemas.ApiIndex.required.sort(), ['api_version', 'authentication', 'environment', 'links', 'name', 'version']);
  // Every operation keeps its own operationId, the two indexes included.
  const ids = Object.values(doc.paths as Record<string, Record<string, { operationId: string }>>).flatMap((item) =>
    Object.values(item).map((o) => o.operationId),
  );
  assert.equal(new Set(ids).size, ids.length, `duplicate operationIds: ${ids.filter((id, i) => ids.indexOf(id) !== i).join(', ')}`);
  assert.equal(doc.paths['/'].get.operationId, 'get_server_index');
  assert.equal(doc.paths['/v1'].get.operationId, 'get_api_index');
});
