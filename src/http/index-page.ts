import type { ServerIndex } from '../contract/discovery.js';

/**
 * True when the client ranks text/html above application/json in its `Accept` header (a browser
 * does; curl's catch-all range and API clients do not). Each type takes the q of the most specific range
 * that matches it; a tie goes to JSON.
 */
export function prefersHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  const ranges = accept.split(',').map((item) => {
    const [range = '', ...params] = item.split(';').map((s) => s.trim().toLowerCase());
    const q = params.map((p) => /^q=([0-9.]+)$/.exec(p)?.[1]).find((v) => v !== undefined);
    return { range, q: q === undefined ? 1 : Number(q) };
  });
  const weight = (type: string): number => {
    const [major] = type.split('/');
    for (const candidate of [type, `${major}/*`, '*/*']) {
      const match = ranges.find((r) => r.range === candidate);
      if (match) return Number.isFinite(match.q) ? match.q : 0;
    }
    return 0;
  };
  const html = weight('text/html');
  return html > 0 && html > weight('application/json');
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

/** The index as a small page for a browser: the same facts as the JSON, as links. */
export function renderIndexPage(index: ServerIndex): string {
  const e = escapeHtml;
  const link = (href: string, label: string, what: string) => `<li><a href="${e(href)}">${e(label)}</a>: ${e(what)}</li>`;
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${e(index.name)} ${e(index.version)}</title></head>
<body>
<h1>${e(index.name)} ${e(index.version)}</h1>
<p>${e(index.description)}</p>
<ul>
${link(index.links.api, index.links.api, 'the API (its own index, in JSON)')}
${link(index.links.openapi, index.links.openapi, 'the OpenAPI document: every endpoint, its input and its answers')}
${link(index.links.docs, index.links.docs, 'the README: getting started, the CLI, the sandbox controls')}
${link(index.links.health, index.links.health, 'health check')}
${link(index.links.dashboard, index.links.dashboard, 'the dashboard (sign in with the URL the ready banner or paraph dashboard url prints)')}
</ul>
<p>Every call under <code>/v1</code> sends the header <code>${e(index.authentication)}</code>.
Signing links, one per signer, come from activation and look like <code>${e(index.links.signing_page)}</code>.</p>
</body>
</html>
`;
}
