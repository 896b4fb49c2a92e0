// @ts-check
// The receiver check (`paraph webhooks check`): sends a webhook receiver a battery of test deliveries
// (valid, retried, forged, stale, malformed, out of order), signed with a key's secret, and shows case
// by case what it answered, whether that is right, what a wrong answer costs in production, and a fix.
import { api, reportFailure } from './api.js';
import { definitions, empty, h, section, show, statusLine, table, time } from './dom.js';

/** @param {boolean} ok */
function verdict(ok) {
  return h('span', { class: `badge ${ok ? 'badge-delivered' : 'badge-failed'}` }, ok ? 'right' : 'wrong');
}

/**
 * What each case sent: the headers and the body of its deliveries.
 * @param {any} check
 */
function deliveryDetails(check) {
  return check.cases
    .filter((/** @type {any} */ c) => c.deliveries.length > 0)
    .map((/** @type {any} */ c) =>
      h(
        'details',
        { class: 'attempt', 'data-key': `case-${check.id}-${c.id}` },
        h('summary', {}, `${c.title}: what was sent`),
        ...c.deliveries.map((/** @type {any} */ d, /** @type {number} */ i) =>
          h(
            'div',
            {},
            h('h4', {}, `Delivery ${i + 1}: answered ${d.status_code ?? d.error ?? 'nothing'} in ${d.duration_ms} ms`),
            h(
              'pre',
              { class: 'code', tabindex: 0 },
              Object.entries(d.headers)
                .map(([name, value]) => `${name}: ${value}`)
                .join('\n'),
            ),
            h('pre', { class: 'code', tabindex: 0 }, d.body),
          ),
        ),
      ),
    );
}

/** @param {any} check */
function report(check) {
  const wrong = check.cases.filter((/** @type {any} */ c) => !c.ok).length;
  return h(
    'div',
    { id: 'check-report', 'data-check': check.id },
    h(
      'p',
      { class: check.passed ? 'ok' : 'error', id: 'check-verdict' },
      check.passed ? `Every case right (${check.case_count} of ${check.case_count}).` : `${wrong} of ${check.case_count} cases wrong.`,
    ),
    definitions([
      ['Receiver', h('code', {}, check.url)],
      ['Started', time(check.started_at)],
      ['Signed with the secret of key', h('code', {}, check.key_id)],
      ['Timestamp tolerance assumed', `${check.tolerance_seconds} s`],
      ['Test deliveries marked', h('code', {}, check.test_header)],
      ['Took', `${check.duration_ms} ms`],
    ]),
    table(
      'Cases',
      ['Result', 'Case', 'Expected', 'Answered', 'In production', 'Fix'],
      check.cases.map((/** @type {any} */ c) => [
        verdict(c.ok),
        c.note ? h('span', {}, c.title, h('br'), h('small', { class: 'help' }, c.note)) : c.title,
        c.expected,
        c.answered,
        c.risk,
        c.fix,
      ]),
    ),
    ...deliveryDetails(check),
  );
}

export async function receiverCheckPage() {
  document.title = 'Receiver check · paraph dashboard';
  const { data: overview } = await api('/receiver-checks');
  const result = h('div', { id: 'check-result' });
  const status = statusLine();

  const url = h('input', {
    id: 'check-url',
    name: 'url',
    type: 'url',
    required: true,
    spellcheck: 'false',
    autocomplete: 'url',
    placeholder: 'http://127.0.0.1:8080/webhooks',
  });
  const key = h(
    'select',
    { id: 'check-key', name: 'key_id' },
    ...overview.keys.map((/** @type {any} */ k) =>
      h('option', { value: k.key_id }, `${k.webhook_secret_hint} (key ${k.api_key_hint}, account ${k.account_id.slice(0, 8)}…)`),
    ),
  );
  const tolerance = h('input', { id: 'check-tolerance', name: 'tolerance_seconds', type: 'number', min: 1, max: 86400, step: 1, value: 300, required: true });
  const submit = h('button', { type: 'submit' }, 'Run the check');
  const form = h(
    'form',
    {
      class: 'filters',
      'aria-label': 'Check a webhook receiver',
      onsubmit: async (/** @type {SubmitEvent} */ event) => {
        event.preventDefault();
        /** @type {HTMLButtonElement} */ (submit).disabled = true;
        status.classList.remove('error');
        status.textContent = 'Sending the test deliveries…';
        try {
          const keyId = /** @type {HTMLSelectElement} */ (key).value;
          const body = {
            url: /** @type {HTMLInputElement} */ (url).value.trim(),
            tolerance_seconds: Number(/** @type {HTMLInputElement} */ (tolerance).value),
            ...(keyId ? { key_id: keyId } : {}),
          };
          const { data: check } = await api('/receiver-checks', { method: 'POST', body });
          status.textContent = check.passed ? 'Check done: every case right.' : 'Check done: some cases wrong (see below).';
          result.replaceChildren(report(check));
        } catch (error) {
          reportFailure(error, status, 'The check');
        } finally {
          /** @type {HTMLButtonElement} */ (submit).disabled = false;
        }
      },
    },
    h('div', { class: 'field' }, h('label', { for: 'check-url' }, 'Receiver URL'), url),
    h('div', { class: 'field' }, h('label', { for: 'check-key' }, 'Sign with the secret'), key),
    h('div', { class: 'field' }, h('label', { for: 'check-tolerance' }, 'Timestamp tolerance (s)'), tolerance),
    h('div', { class: 'field actions' }, submit),
  );

  const previous = overview.checks.length
    ? table(
        'Earlier checks',
        ['Started', 'Receiver', 'Result', ''],
        overview.checks.map((/** @type {any} */ c) => [
          time(c.started_at),
          h('code', {}, c.url),
          `${c.passed_count} of ${c.case_count} right`,
          h('button', { type: 'button', class: 'secondary', onclick: () => result.replaceChildren(report(c)) }, 'Show'),
        ]),
      )
    : empty('No receiver was checked yet.');

  show(
    h('h1', {}, 'Check a webhook receiver'),
    h(
      'p',
      { class: 'lead' },
      'Sends your receiver valid, retried, forged, stale, malformed and out-of-order deliveries, signed with a key’s secret, and says case by case whether it answered right. ' +
        'The events belong to no request, carry paraph-test-delivery: true, and are never listed among the webhook deliveries. Loopback and private addresses are fine. ' +
        'paraph webhooks check --url URL runs the same check from a terminal or CI.',
    ),
    overview.keys.length ? form : empty('No live API key to sign with: paraph keys create makes one.'),
    status,
    result,
    section('Earlier checks', previous),
  );
}
