// @ts-check
// Webhook deliveries: each with its status and attempts (time, status code, error, duration, the
// signed headers and the body sent), a replay button, live updates. The request page shows the same
// cards for its own deliveries.
import { api, reportFailure } from './api.js';
import { badge, definitions, empty, h, replaceKeeping, show, statusLine, table, time } from './dom.js';
import { everyChange, POLL_MS } from './live.js';

const STATUSES = ['pending', 'delivered', 'failed'];

/**
 * What an attempt sent: its headers (signed for that send) and the event's bytes.
 * @param {any} delivery
 * @param {any} attempt
 */
function attemptDetails(delivery, attempt) {
  const headers = attempt.request_headers
    ? Object.entries(attempt.request_headers)
        .map(([name, value]) => `${name}: ${value}`)
        .join('\n')
    : attempt.error
      ? 'Nothing was sent (see the error).'
      : 'Not recorded for this attempt.';
  return h(
    'details',
    { class: 'attempt', 'data-key': `attempt-${delivery.id}-${attempt.number}` },
    h('summary', { 'data-key': `attempt-summary-${delivery.id}-${attempt.number}` }, `Attempt ${attempt.number}: headers and body`),
    h('h4', {}, 'Headers'),
    h('pre', { class: 'code', tabindex: 0 }, headers),
    h('h4', {}, 'Body (the event, pretty-printed; every attempt sends the same bytes)'),
    h('pre', { class: 'code', tabindex: 0 }, JSON.stringify(delivery.payload, null, 2)),
  );
}

/**
 * One delivery as a card.
 * @param {any} d the delivery with its attempts
 * @param {{ onReplayed: (message: string) => Promise<void>, showRequest?: boolean }} options where a replay's outcome is said (the card may be gone: a filter can drop it)
 */
export function deliveryCard(d, options) {
  const status = statusLine();
  const replay = h(
    'button',
    {
      type: 'button',
      class: 'secondary replay',
      'data-key': `replay-${d.id}`,
      onclick: async (/** @type {MouseEvent} */ event) => {
        const button = /** @type {HTMLButtonElement} */ (event.currentTarget);
        button.disabled = true;
        status.textContent = 'Sending again…';
        try {
          const { data } = await api(`/webhook-deliveries/${encodeURIComponent(d.id)}/replay`, { method: 'POST' });
          const last = data.attempts[data.attempts.length - 1];
          await options.onReplayed(
            `Replayed ${d.event_type}: attempt ${last?.number ?? '?'} answered ${last?.status_code ?? last?.error ?? 'nothing'}; the delivery is ${data.status}.`,
          );
        } catch (error) {
          button.disabled = false;
          reportFailure(error, status, 'Replay');
        }
      },
    },
    'Replay now',
  );
  /** @param {any} a */
  const failed = (a) => a.status_code === null || a.status_code < 200 || a.status_code >= 300;
  /** @param {any} a @param {string} value */
  const cell = (a, value) => (failed(a) ? h('span', { class: 'attempt-failed' }, value) : value);
  const attempts = d.attempts.length
    ? table(
        `Attempts of ${d.event_type}`,
        ['#', 'Trigger', 'Time', 'Status code', 'Duration', 'Error'],
        d.attempts.map((/** @type {any} */ a) => [
          String(a.number),
          a.trigger,
          time(a.attempted_at),
          cell(a, a.status_code === null ? 'no answer' : String(a.status_code)),
          a.duration_ms === null ? '—' : `${a.duration_ms} ms`,
          a.error ? cell(a, a.error) : '—',
        ]),
      )
    : empty('No attempt yet.');
  // A delivery still pending whose last attempt failed is failing now: red, with its next retry.
  const last = d.attempts[d.attempts.length - 1];
  const retrying = d.status === 'pending' && last !== undefined && failed(last);
  const state = retrying
    ? h('span', { class: 'badge badge-retrying' }, ...(d.next_attempt_at ? ['failing · retry ', time(d.next_attempt_at)] : ['failing']))
    : badge(d.status);
  return h(
    'article',
    { class: `delivery delivery-${retrying ? 'retrying' : d.status}`, 'data-delivery': d.id },
    h('div', { class: 'card-head' }, h('h3', {}, h('span', { class: 'event-type' }, d.event_type), ' ', state), replay),
    definitions([
      ...(options.showRequest
        ? [
            /** @type {[string, Node]} */ ([
              'Request',
              h('a', { href: `#/requests/${encodeURIComponent(d.signature_request_id)}` }, h('code', {}, d.signature_request_id)),
            ]),
          ]
        : []),
      ['Event id', h('code', {}, d.event_id)],
      ['Created', time(d.created_at)],
      ['Delivered', time(d.delivered_at)],
      ['Next attempt', time(d.next_attempt_at)],
      ['Last answer', d.last_status_code === null ? (d.last_error ?? '—') : `${d.last_status_code}${d.last_error ? ` (${d.last_error})` : ''}`],
    ]),
    attempts,
    ...d.attempts.map((/** @type {any} */ a) => attemptDetails(d, a)),
    status,
  );
}

/** @param {URLSearchParams} params */
export async function webhooksPage(params) {
  document.title = 'Webhooks · paraph dashboard';
  const query = new URLSearchParams({ limit: '50' });
  for (const name of ['status', 'signature_request_id']) {
    const value = params.get(name);
    if (value) query.set(name, value);
  }
  const load = () => api(`/webhook-deliveries?${query}`);
  let page = await load();
  const list = h('div', { id: 'deliveries' });
  const pageStatus = h('p', { class: 'status-line', role: 'status', id: 'webhooks-status' });
  /** @param {string} message */
  const refresh = async (message) => {
    pageStatus.textContent = message;
    page = await load();
    saw(page);
    render();
  };
  const render = () =>
    replaceKeeping(
      list,
      ...(page.data.length
        ? page.data.map((/** @type {any} */ d) => deliveryCard(d, { onReplayed: refresh, showRequest: true }))
        : [empty('No webhook delivery matches.')]),
    );
  render();

  const statusSelect = h(
    'select',
    { id: 'w-status', name: 'status' },
    h('option', { value: '' }, 'any'),
    ...STATUSES.map((s) => h('option', { value: s, selected: params.get('status') === s }, s)),
  );
  const filters = h(
    'form',
    {
      class: 'filters',
      role: 'search',
      'aria-label': 'Filter deliveries',
      onsubmit: (/** @type {SubmitEvent} */ event) => {
        event.preventDefault();
        const next = new URLSearchParams();
        const value = /** @type {HTMLSelectElement} */ (statusSelect).value;
        if (value) next.set('status', value);
        const request = params.get('signature_request_id');
        if (request) next.set('signature_request_id', request);
        location.hash = `#/webhooks?${next}`;
      },
    },
    h('div', { class: 'field' }, h('label', { for: 'w-status' }, 'Status'), statusSelect),
    h('div', { class: 'field actions' }, h('button', { type: 'submit' }, 'Filter'), h('a', { href: '#/webhooks', class: 'button secondary' }, 'Clear')),
  );
  show(
    h('h1', {}, 'Webhook deliveries'),
    h(
      'p',
      { class: 'lead' },
      'Newest first, every account. Open an attempt to see the signed headers and the body it sent; a replay sends the event again now, with a fresh signature.',
    ),
    filters,
    pageStatus,
    list,
  );
  const saw = everyChange(POLL_MS, page, load, (next) => {
    page = next;
    render();
  });
}
