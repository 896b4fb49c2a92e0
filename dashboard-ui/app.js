// paraph's operator dashboard: every account's requests, read from the dashboard's own JSON API
// (`/_dashboard/api`, docs/dashboard.md). Plain DOM building: every value from the API goes in
// through textContent or an attribute, never through HTML.
//
// Access: the dashboard URL carries the token in its fragment (`#token=…`). The page takes it from
// there, removes it from the address bar and keeps it in sessionStorage (this tab only). Without a
// token, or when the API answers 401, the page shows nothing but a sign-in field.
//
// Routes live in the fragment too: `#/requests?status=…` (the list) and `#/requests/<id>` (one request).

const API = '/_dashboard/api';
const TOKEN_KEY = 'paraph.dashboard.token';
const STATUSES = ['prepared', 'active', 'completed', 'declined', 'cancelled', 'expired', 'purged'];
const PAGE_SIZE = 25;

const main = /** @type {HTMLElement} */ (document.getElementById('main'));
const scopeNote = /** @type {HTMLElement} */ (document.getElementById('scope'));
const signOut = /** @type {HTMLButtonElement} */ (document.getElementById('sign-out'));

class Unauthorized extends Error {}

// ---- the token ----------------------------------------------------------------------------------

function takeTokenFromUrl() {
  const match = /^#token=([^&]+)/.exec(location.hash);
  if (!match) return;
  let value = match[1];
  try {
    value = decodeURIComponent(value);
  } catch {
    // not percent-encoded: taken as it is
  }
  sessionStorage.setItem(TOKEN_KEY, value);
  history.replaceState(null, '', `${location.pathname}${location.search}#/requests`);
}

function token() {
  return sessionStorage.getItem(TOKEN_KEY) ?? '';
}

// ---- DOM helpers ----------------------------------------------------------------------------------

/**
 * An element: `attrs` become attributes (`class`, `href`, …; `on*` functions become listeners), the
 * children are nodes or strings (as text).
 * @param {string} tag
 * @param {Record<string, unknown>} [attrs]
 * @param {...(Node | string | number | null | undefined | false)} children
 */
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') el.addEventListener(name.slice(2), /** @type {EventListener} */ (value));
    else if (value === true) el.setAttribute(name, '');
    else el.setAttribute(name, String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    el.append(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** `2026-11-24 23:59:55 UTC`, or an em dash for none. */
function time(value) {
  if (!value) return '—';
  const el = h('time', { datetime: value }, value.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC'));
  return el;
}

/** The value, or an em dash when it is empty. */
function text(value) {
  return value === null || value === undefined || value === '' ? '—' : String(value);
}

function badge(status) {
  return h('span', { class: `badge badge-${status}` }, status);
}

/** A table in a scrollable region (keyboard-scrollable at phone width). */
function table(caption, headers, rows) {
  return h(
    'div',
    { class: 'table-wrap', role: 'region', 'aria-label': caption, tabindex: 0 },
    h(
      'table',
      {},
      h('caption', { class: 'visually-hidden' }, caption),
      h('thead', {}, h('tr', {}, ...headers.map((text) => h('th', { scope: 'col' }, text)))),
      h('tbody', {}, ...rows.map((cells) => h('tr', {}, ...cells.map((cell) => h('td', {}, cell))))),
    ),
  );
}

function definitions(pairs) {
  const dl = h('dl', { class: 'facts' });
  for (const [term, value] of pairs) dl.append(h('div', {}, h('dt', {}, term), h('dd', {}, value)));
  return dl;
}

function section(title, ...children) {
  const id = `section-${title.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  return h('section', { 'aria-labelledby': id }, h('h2', { id }, title), ...children);
}

function empty(text) {
  return h('p', { class: 'empty' }, text);
}

/** Puts the view in `main` and moves focus to its heading (so keyboard and screen reader users follow). */
function show(...nodes) {
  main.replaceChildren(...nodes);
  main.removeAttribute('aria-busy');
  const heading = main.querySelector('h1');
  if (heading) {
    heading.setAttribute('tabindex', '-1');
    heading.focus({ preventScroll: true });
  }
}

// ---- the API --------------------------------------------------------------------------------------

/**
 * @param {string} path under /_dashboard/api
 * @param {{ method?: string, body?: unknown }} [options]
 */
async function api(path, options = {}) {
  const headers = { authorization: `Dashboard ${token()}` };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${API}${path}`, {
    method: options.method ?? 'GET',
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  if (response.status === 401) throw new Unauthorized('the dashboard token is missing, wrong or rotated');
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body?.error?.message ?? `HTTP ${response.status}`);
  return body;
}

// ---- views ----------------------------------------------------------------------------------------

function signIn(message) {
  sessionStorage.removeItem(TOKEN_KEY);
  scopeNote.hidden = true;
  signOut.hidden = true;
  document.title = 'Sign in · paraph dashboard';
  const input = h('input', { id: 'token', name: 'token', type: 'password', autocomplete: 'off', spellcheck: 'false', required: true, 'aria-describedby': 'token-help' });
  const form = h(
    'form',
    {
      class: 'sign-in',
      onsubmit: (event) => {
        event.preventDefault();
        const value = /** @type {HTMLInputElement} */ (input).value.trim().replace(/^.*#token=/, '');
        if (!value) return;
        sessionStorage.setItem(TOKEN_KEY, value);
        if (location.hash.startsWith('#/')) route();
        else location.hash = '#/requests';
      },
    },
    h('h1', {}, 'Sign in'),
    message ? h('p', { class: 'error', role: 'alert' }, message) : null,
    h('label', { for: 'token' }, 'Dashboard token'),
    h('p', { id: 'token-help', class: 'help' }, 'Follow the dashboard link that paraph serve prints, or paste its token (pdash_…). paraph dashboard url prints the link again.'),
    h('div', { class: 'row' }, input, h('button', { type: 'submit' }, 'Sign in')),
  );
  show(form);
}

function signedIn() {
  scopeNote.hidden = false;
  signOut.hidden = false;
}

function parseRoute() {
  const hash = location.hash.replace(/^#/, '') || '/requests';
  const [path, query = ''] = hash.split('?');
  return { path, params: new URLSearchParams(query) };
}

async function requestList(params) {
  document.title = 'Requests · paraph dashboard';
  const query = new URLSearchParams();
  for (const name of ['status', 'account_id', 'client_reference', 'cursor']) {
    const value = params.get(name);
    if (value) query.set(name, value);
  }
  query.set('limit', String(PAGE_SIZE));
  const page = await api(`/requests?${query}`);
  signedIn();

  const statusSelect = h('select', { id: 'f-status', name: 'status' }, h('option', { value: '' }, 'any'), ...STATUSES.map((s) => h('option', { value: s, selected: params.get('status') === s }, s)));
  const account = h('input', { id: 'f-account', name: 'account_id', value: params.get('account_id') ?? '', spellcheck: 'false', placeholder: 'account id' });
  const reference = h('input', { id: 'f-reference', name: 'client_reference', value: params.get('client_reference') ?? '', spellcheck: 'false' });
  const filters = h(
    'form',
    {
      class: 'filters',
      role: 'search',
      'aria-label': 'Filter requests',
      onsubmit: (event) => {
        event.preventDefault();
        const next = new URLSearchParams();
        for (const [name, el] of [['status', statusSelect], ['account_id', account], ['client_reference', reference]]) {
          const value = /** @type {HTMLInputElement} */ (el).value.trim();
          if (value) next.set(name, value);
        }
        location.hash = `#/requests?${next}`;
      },
    },
    h('div', { class: 'field' }, h('label', { for: 'f-status' }, 'Status'), statusSelect),
    h('div', { class: 'field' }, h('label', { for: 'f-account' }, 'Account'), account),
    h('div', { class: 'field' }, h('label', { for: 'f-reference' }, 'Client reference'), reference),
    h('div', { class: 'field actions' }, h('button', { type: 'submit' }, 'Filter'), h('a', { href: '#/requests', class: 'button secondary' }, 'Clear')),
  );

  const rows = page.data.map((item) => [
    h('a', { href: `#/requests/${encodeURIComponent(item.id)}`, class: 'request-link' }, item.client_reference || item.id),
    badge(item.status),
    h('code', { class: 'id', title: item.account_id }, item.account_id.slice(0, 8)),
    time(item.created_at),
  ]);

  const nav = h('nav', { class: 'pager', 'aria-label': 'Pages' });
  if (params.get('cursor')) {
    const first = new URLSearchParams(params);
    first.delete('cursor');
    nav.append(h('a', { href: `#/requests?${first}`, class: 'button secondary' }, 'First page'));
  }
  if (page.next_cursor) {
    const next = new URLSearchParams(params);
    next.set('cursor', page.next_cursor);
    nav.append(h('a', { href: `#/requests?${next}`, class: 'button' }, 'Next page'));
  }

  show(
    h('h1', {}, 'Signature requests'),
    h('p', { class: 'lead' }, 'Every account of this data directory, newest first.'),
    filters,
    rows.length ? table('Signature requests', ['Client reference', 'Status', 'Account', 'Created'], rows) : empty('No request matches.'),
    nav,
  );
}

async function requestPage(id) {
  const { data: r } = await api(`/requests/${encodeURIComponent(id)}`);
  signedIn();
  document.title = `${r.client_reference || r.id} · paraph dashboard`;
  const signerNames = new Map(r.signers.map((s) => [s.id, `${s.name} (${s.reference})`]));
  const status = h('p', { class: 'status-line', role: 'status' });

  const move = (label, path, question) =>
    h(
      'button',
      {
        type: 'button',
        class: 'secondary',
        onclick: async (event) => {
          if (!confirm(question)) return;
          const button = /** @type {HTMLButtonElement} */ (event.currentTarget);
          button.disabled = true;
          try {
            await api(`/requests/${encodeURIComponent(r.id)}/${path}`, { method: 'POST' });
            await requestPage(r.id);
          } catch (error) {
            if (error instanceof Unauthorized) return signIn(error.message);
            button.disabled = false;
            status.textContent = `${label} failed: ${error.message}`;
          }
        },
      },
      label,
    );

  const check = r.audit_check;
  const chain = check.intact
    ? h('p', { class: 'ok' }, `Hash chain intact: ${check.events} events, head `, h('code', {}, check.head))
    : h(
        'p',
        { class: 'error' },
        `Hash chain broken at event ${check.broken?.id ?? '?'} (${check.broken?.reason ?? 'unknown'}): ${check.broken?.message ?? ''}. ${check.events} events verify, up to `,
        h('code', {}, check.head),
      );

  const timeline = h(
    'ol',
    { class: 'timeline' },
    ...r.audit.map((event) =>
      h(
        'li',
        {},
        time(event.created_at),
        h('span', { class: 'event-type' }, event.type),
        h('span', { class: 'actor' }, `by ${event.actor_type}`, event.actor_email ? ` ${event.actor_email}` : '', event.signer_id && signerNames.has(event.signer_id) ? ` · signer ${signerNames.get(event.signer_id)}` : ''),
      ),
    ),
  );

  const deliveries = r.webhook_deliveries.map((d) =>
    h(
      'article',
      { class: 'delivery' },
      h('h3', {}, d.event_type, ' ', badge(d.status)),
      definitions([
        ['Event id', h('code', {}, d.event_id)],
        ['Created', time(d.created_at)],
        ['Delivered', time(d.delivered_at)],
        ['Next attempt', time(d.next_attempt_at)],
        ['Last error', d.last_error ?? '—'],
      ]),
      d.attempts.length
        ? table(
            `Attempts of ${d.event_type}`,
            ['#', 'Trigger', 'Time', 'Status code', 'Duration', 'Error'],
            d.attempts.map((a) => [String(a.number), a.trigger, time(a.attempted_at), a.status_code === null ? '—' : String(a.status_code), a.duration_ms === null ? '—' : `${a.duration_ms} ms`, a.error ?? '—']),
          )
        : empty('No attempt yet.'),
    ),
  );

  show(
    h('p', { class: 'crumbs' }, h('a', { href: '#/requests' }, '← All requests')),
    h('h1', {}, r.client_reference || r.id, ' ', badge(r.status)),
    definitions([
      ['Request id', h('code', {}, r.id)],
      ['Account', h('code', {}, r.account_id)],
      ['Created', time(r.created_at)],
      ['Updated', time(r.updated_at)],
      ['Retention ends', time(r.retention_expires_at)],
      ['Signing order', r.sequential_signing ? 'sequential' : 'parallel'],
      ['Document', `${r.document.filename}, ${r.document.pages} page(s), ${r.document.size} bytes${r.document.purged ? ', purged' : ''}`],
      ['Artifacts', [r.artifacts.signed_pdf && 'signed PDF', r.artifacts.evidence_pdf && 'evidence PDF', r.artifacts.evidence_json && 'evidence JSON'].filter(Boolean).join(', ') || 'none yet'],
    ]),
    h(
      'div',
      { class: 'moves', role: 'group', 'aria-label': 'Sandbox moves' },
      r.status === 'active' ? move('Expire links now', 'expire', 'Expire every signing link of this request now?') : null,
      r.status !== 'purged' ? move('Purge content now', 'purge', 'Purge this request\'s document and personal data now? This cannot be undone.') : null,
    ),
    status,
    section(
      'Signers',
      table(
        'Signers',
        ['Order', 'Reference', 'Name', 'Email', 'Status', 'Locale', 'Verification', 'Verified', 'Signed', 'Link expires'],
        r.signers.map((s) => [String(s.order), s.reference, text(s.name), s.email, badge(s.status), text(s.locale), text(s.verification), time(s.verified_at), time(s.signed_at), time(s.expires_at)]),
      ),
    ),
    section(
      'Fields',
      r.fields.length
        ? table('Fields', ['Name', 'Type', 'Signer', 'Value', 'Read only', 'Completed'], r.fields.map((f) => [f.name, f.type, f.signer_reference, f.value || '—', f.read_only ? 'yes' : 'no', f.completed ? 'yes' : 'no']))
        : empty('No data field.'),
    ),
    section('Audit trail', chain, r.audit.length ? timeline : empty('No event.')),
    section(
      'Mail',
      r.emails.length
        ? table('Mail', ['Received', 'Kind', 'To', 'Subject'], r.emails.map((m) => [time(m.received_at), m.kind ?? '—', m.to.join(', '), m.subject]))
        : empty('No mail caught for this request.'),
    ),
    section('Webhook deliveries', ...(deliveries.length ? deliveries : [empty('No webhook delivery.')])),
  );
}

async function route() {
  takeTokenFromUrl();
  if (!token()) return signIn();
  const { path, params } = parseRoute();
  main.setAttribute('aria-busy', 'true');
  try {
    const detail = /^\/requests\/([^/?]+)$/.exec(path);
    if (detail) await requestPage(decodeURIComponent(detail[1]));
    else await requestList(params);
  } catch (error) {
    if (error instanceof Unauthorized) return signIn('That token does not open this dashboard (wrong, or rotated). Sign in again.');
    show(h('h1', {}, 'Something went wrong'), h('p', { class: 'error', role: 'alert' }, error instanceof Error ? error.message : String(error)), h('p', {}, h('a', { href: '#/requests' }, 'Back to the requests')));
  }
}

signOut.addEventListener('click', () => {
  sessionStorage.removeItem(TOKEN_KEY);
  history.replaceState(null, '', location.pathname);
  signIn();
});
window.addEventListener('hashchange', route);
route();
