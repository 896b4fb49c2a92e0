// @ts-check
// The requests list: every account's requests, newest first, filtered by status, account and client
// reference, paged; new requests and status changes appear without reloading.
import { api } from './api.js';
import { badge, empty, h, replaceKeeping, show, table, time } from './dom.js';
import { everyChange, POLL_MS } from './live.js';

const STATUSES = ['prepared', 'active', 'completed', 'declined', 'cancelled', 'expired', 'purged'];
const PAGE_SIZE = 25;

/** @param {URLSearchParams} params */
export async function requestList(params) {
  document.title = 'Requests · paraph dashboard';
  const query = new URLSearchParams();
  for (const name of ['status', 'account_id', 'client_reference', 'cursor']) {
    const value = params.get(name);
    if (value) query.set(name, value);
  }
  query.set('limit', String(PAGE_SIZE));
  const load = () => api(`/requests?${query}`);
  let page = await load();

  const statusSelect = h(
    'select',
    { id: 'f-status', name: 'status' },
    h('option', { value: '' }, 'any'),
    ...STATUSES.map((s) => h('option', { value: s, selected: params.get('status') === s }, s)),
  );
  const account = h('input', { id: 'f-account', name: 'account_id', value: params.get('account_id') ?? '', spellcheck: 'false', placeholder: 'account id' });
  const reference = h('input', { id: 'f-reference', name: 'client_reference', value: params.get('client_reference') ?? '', spellcheck: 'false' });
  const filters = h(
    'form',
    {
      class: 'filters',
      role: 'search',
      'aria-label': 'Filter requests',
      onsubmit: (/** @type {SubmitEvent} */ event) => {
        event.preventDefault();
        const next = new URLSearchParams();
        for (const [name, el] of /** @type {Array<[string, HTMLElement]>} */ ([
          ['status', statusSelect],
          ['account_id', account],
          ['client_reference', reference],
        ])) {
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

  const results = h('div', { id: 'request-results' });
  const render = () => {
    const rows = page.data.map((/** @type {any} */ item) => [
      h('a', { href: `#/requests/${encodeURIComponent(item.id)}`, class: 'request-link', 'data-key': `r-${item.id}` }, item.client_reference || item.id),
      badge(item.status),
      h('code', { class: 'id', title: item.account_id }, item.account_id.slice(0, 8)),
      time(item.created_at),
      time(item.updated_at),
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
    replaceKeeping(
      results,
      rows.length ? table('Signature requests', ['Client reference', 'Status', 'Account', 'Created', 'Updated'], rows) : empty('No request matches.'),
      nav,
    );
  };
  render();

  show(
    h('h1', {}, 'Signature requests'),
    h('p', { class: 'lead' }, 'Every account of this data directory, newest first. The list updates by itself.'),
    filters,
    results,
  );

  everyChange(POLL_MS, page, load, (/** @type {any} */ next) => {
    page = next;
    render();
  });
}
