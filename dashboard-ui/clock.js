// @ts-check
// The sandbox clock: its time and how far it runs ahead of real time, advancing it by a duration (as
// `paraph clock advance` takes it), and what fell due on the last advance.
import { api, reportFailure } from './api.js';
import { definitions, duration, empty, h, replaceKeeping, section, show, statusLine, table, time } from './dom.js';
import { everyChange, POLL_MS } from './live.js';

/** @param {any} last the last advance, or null */
function fellDue(last) {
  if (!last) return empty('The sandbox clock has not been advanced yet.');
  return h(
    'div',
    {},
    h('p', {}, `Advanced by ${last.duration}: from `, time(last.from), ' to ', time(last.to), '.'),
    last.fell_due.length
      ? table(
          'What fell due',
          ['Time', 'What', 'Request'],
          last.fell_due.map((/** @type {any} */ item) => [
            time(item.at),
            item.kind === 'webhook_attempt'
              ? h('a', { href: `#/webhooks?${new URLSearchParams({ signature_request_id: item.signature_request_id })}` }, item.what)
              : item.what,
            h('a', { href: `#/requests/${encodeURIComponent(item.signature_request_id)}` }, item.client_reference || item.signature_request_id),
          ]),
        )
      : empty('Nothing fell due on that advance.'),
  );
}

export async function clockPage() {
  document.title = 'Clock · paraph dashboard';
  let { data: clock } = await api('/clock');
  const state = h('div', { id: 'clock-state' });
  const due = h('div', { id: 'fell-due' });
  const render = () => {
    replaceKeeping(
      state,
      definitions([
        ['Sandbox time', time(clock.now)],
        ['Ahead of real time by', h('span', { id: 'clock-offset' }, duration(clock.offset_seconds))],
      ]),
    );
    replaceKeeping(due, fellDue(clock.last_advance));
  };
  render();

  const status = statusLine();
  const input = h('input', {
    id: 'advance-by',
    name: 'duration',
    required: true,
    spellcheck: 'false',
    autocomplete: 'off',
    placeholder: '7d',
    'aria-describedby': 'advance-help',
  });
  const submit = h('button', { type: 'submit' }, 'Advance');
  const form = h(
    'form',
    {
      class: 'advance',
      onsubmit: async (/** @type {SubmitEvent} */ event) => {
        event.preventDefault();
        const value = /** @type {HTMLInputElement} */ (input).value.trim();
        if (!value) return;
        /** @type {HTMLButtonElement} */ (submit).disabled = true;
        status.classList.remove('error');
        status.textContent = `Advancing by ${value}…`;
        try {
          ({ data: clock } = await api('/clock/advance', { method: 'POST', body: { duration: value } }));
          render();
          const n = clock.last_advance?.fell_due.length ?? 0;
          status.textContent = `Advanced by ${value}: ${n} thing${n === 1 ? '' : 's'} fell due.`;
        } catch (error) {
          reportFailure(error, status, 'Advancing the clock');
        } finally {
          /** @type {HTMLButtonElement} */ (submit).disabled = false;
        }
      },
    },
    h('label', { for: 'advance-by' }, 'Advance by'),
    h(
      'p',
      { id: 'advance-help', class: 'help' },
      'A duration as paraph clock advance takes it: 90s, 45m, 2h, 11d, 1w, or combined (1d12h); at most 3650d at a time. The clock only moves forward; everything that falls due on the way runs in order.',
    ),
    h('div', { class: 'row' }, input, submit),
  );

  show(
    h('h1', {}, 'Sandbox clock'),
    h('p', { class: 'lead' }, 'Link expiry, retention purges and webhook retries follow this clock.'),
    state,
    form,
    status,
    section('Fell due on the last advance', due),
  );

  everyChange(
    POLL_MS * 2,
    clock,
    async () => (await api('/clock')).data,
    (/** @type {any} */ data) => {
      clock = data;
      render();
    },
  );
}
