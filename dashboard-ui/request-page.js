// @ts-check
// One request: status, signers (with buttons to open each one's signing page or the embed test
// page), the document with its field boxes, fields, the audit trail as a timeline with its hash-chain
// check, the request's mail, webhook deliveries and artifact attempts, artifact downloads and the
// sandbox moves (expire, purge). Updates by itself while it is open.
import { api, download, reportFailure } from './api.js';
import { badge, definitions, empty, h, replaceKeeping, section, show, statusLine, table, text, time } from './dom.js';
import { everyChange, POLL_MS } from './live.js';
import { mailTable } from './mail.js';
import { pdfPreview } from './pdf-preview.js';
import { deliveryCard } from './webhooks.js';

const ARTIFACTS = [
  ['signed_pdf', 'signed-pdf', 'Signed PDF', '-signed.pdf'],
  ['evidence_pdf', 'evidence.pdf', 'Evidence PDF', '-evidence.pdf'],
  ['evidence_json', 'evidence.json', 'Evidence JSON', '-evidence.json'],
];

/** @type {Record<string, string>} */
const ACTORS = { api_client: 'API client', signer: 'signer', system: 'paraph (scheduler or sandbox move)' };

/**
 * Each attempt to make the artifacts, as the webhook attempts are shown: a failed one in red, with its
 * error and when the next one was due.
 * @param {any[]} attempts
 */
function artifactAttempts(attempts) {
  if (!attempts.length) return empty('No attempt recorded: artifacts are made once every signer has signed.');
  /** @param {any} a @param {string} value */
  const cell = (a, value) => (a.outcome === 'failed' ? h('span', { class: 'attempt-failed' }, value) : value);
  return table(
    'Artifact attempts',
    ['#', 'Outcome', 'Started', 'Duration', 'Error', 'Next attempt'],
    attempts.map((a) => [
      String(a.number),
      cell(a, a.outcome),
      time(a.started_at),
      `${a.duration_ms} ms`,
      a.error ? cell(a, a.error) : '—',
      time(a.next_attempt_at),
    ]),
  );
}

/** @param {any} check the audit chain's verification */
function chainCheck(check) {
  return check.intact
    ? h('p', { class: 'ok chain' }, `✓ Hash chain intact: ${check.events} events verify, head `, h('code', {}, check.head))
    : h(
        'p',
        { class: 'error chain', role: 'alert' },
        `✗ Hash chain broken at event ${check.broken?.id ?? '?'} (${check.broken?.reason ?? 'unknown'}): ${check.broken?.message ?? ''}. ${check.events} events verify, up to `,
        h('code', {}, check.head),
      );
}

/** @param {any} r the request */
function timeline(r) {
  const signerNames = new Map(r.signers.map((/** @type {any} */ s) => [s.id, `${s.name || s.email} (${s.reference})`]));
  return h(
    'ol',
    { class: 'timeline' },
    ...r.audit.map((/** @type {any} */ event) =>
      h(
        'li',
        { class: `actor-${event.actor_type}` },
        time(event.created_at),
        h('span', { class: 'event-type' }, event.type),
        h(
          'span',
          { class: 'actor' },
          `by ${ACTORS[event.actor_type] ?? event.actor_type}`,
          event.actor_email ? ` ${event.actor_email}` : '',
          event.signer_id && signerNames.has(event.signer_id) ? ` · signer ${signerNames.get(event.signer_id)}` : '',
        ),
      ),
    ),
  );
}

/** @param {string} filename */
function baseName(filename) {
  return filename.replace(/\.pdf$/i, '').trim() || 'document';
}

/** @param {string} id */
export async function requestPage(id) {
  let { data: r } = await api(`/requests/${encodeURIComponent(id)}`);
  document.title = `${r.client_reference || r.id} · paraph dashboard`;
  const status = statusLine();
  const head = h('div', { id: 'request-head' });
  const signersBox = h('div', { id: 'request-signers' });
  const body = h('div', { id: 'request-body' });
  const preview = h('div', { id: 'request-preview' });
  let previewFor = '';

  /** @param {string} message */
  const replayed = async (message) => {
    status.classList.remove('error');
    status.textContent = message;
    await reload();
  };
  const reload = async () => {
    ({ data: r } = await api(`/requests/${encodeURIComponent(id)}`));
    saw(r);
    render();
  };

  /**
   * @param {string} label
   * @param {string} path
   * @param {string} question
   */
  const move = (label, path, question) =>
    h(
      'button',
      {
        type: 'button',
        // Moves that cannot be undone look it (red), beside the ordinary buttons.
        class: path === 'purge' || path === 'expire' ? 'danger' : 'secondary',
        'data-key': `move-${path}`,
        onclick: async (/** @type {MouseEvent} */ event) => {
          if (!confirm(question)) return;
          const button = /** @type {HTMLButtonElement} */ (event.currentTarget);
          button.disabled = true;
          try {
            await api(`/requests/${encodeURIComponent(r.id)}/${path}`, { method: 'POST' });
            await reload();
            status.classList.remove('error');
            status.textContent = `${label}: done, the request is ${r.status}.`;
          } catch (error) {
            button.disabled = false;
            reportFailure(error, status, label);
          }
        },
      },
      label,
    );

  /**
   * A fresh link for a signer, then `open(link)` in a new tab.
   * @param {any} signer
   * @param {string} label
   * @param {string} kind
   */
  const signerButton = (signer, label, kind) =>
    h(
      'button',
      {
        type: 'button',
        class: 'secondary small',
        'data-key': `${kind}-${signer.reference}`,
        onclick: async () => {
          const what = kind === 'embed' ? 'the embed test page' : 'the signing page';
          if (!confirm(`Open ${what} of ${signer.reference}? This issues a new signing link: the one ${signer.email} was sent stops working.`)) return;
          try {
            const { data: link } = await api(`/requests/${encodeURIComponent(r.id)}/signers/${encodeURIComponent(signer.reference)}/link`, { method: 'POST' });
            const target =
              kind === 'embed'
                ? `/_dashboard/embed-test.html#${new URLSearchParams({ embed: link.embed_url, origin: link.embed_origin, signer: signer.reference, request: r.client_reference || r.id })}`
                : link.signing_url;
            window.open(target, '_blank', 'noopener');
            status.classList.remove('error');
            status.textContent = `Opened ${what} of ${signer.reference} in a new tab (link valid until ${link.expires_at}).`;
            await reload();
          } catch (error) {
            reportFailure(error, status, `Opening ${what}`);
          }
        },
      },
      label,
    );

  const render = () => {
    document.title = `${r.client_reference || r.id} · paraph dashboard`;
    const base = baseName(r.document.filename);
    const artifacts = ARTIFACTS.filter(([flag]) => r.artifacts[flag]).map(([, type, label, suffix]) =>
      h(
        'button',
        {
          type: 'button',
          class: 'download',
          'data-key': `artifact-${type}`,
          onclick: async () => {
            try {
              await download(`/requests/${encodeURIComponent(r.id)}/artifacts/${type}`, `${base}${suffix}`);
            } catch (error) {
              reportFailure(error, status, `Downloading the ${label}`);
            }
          },
        },
        `↓ ${label}`,
      ),
    );
    replaceKeeping(
      head,
      h('h1', {}, r.client_reference || r.id, ' ', badge(r.status)),
      definitions([
        ['Request id', h('code', {}, r.id)],
        ['Account', h('code', {}, r.account_id)],
        ['Created', time(r.created_at)],
        ['Updated', time(r.updated_at)],
        ['Retention ends', time(r.retention_expires_at)],
        ['Signing order', r.sequential_signing ? 'sequential' : 'parallel'],
        ['Document', `${r.document.filename}, ${r.document.pages} page(s), ${r.document.size} bytes${r.document.purged ? ', purged' : ''}`],
        ['Embed origin', r.embed_origin || 'none'],
      ]),
      h(
        'div',
        { class: 'moves', role: 'group', 'aria-label': 'Artifacts and sandbox moves' },
        ...(artifacts.length
          ? artifacts
          : [
              h(
                'span',
                { class: 'help artifacts-none' },
                r.status === 'completed' ? 'Artifacts are being generated…' : 'Artifacts appear here once every signer has signed.',
              ),
            ]),
        r.status === 'active' ? move('Expire links now', 'expire', 'Expire every signing link of this request now?') : null,
        r.status !== 'purged' ? move('⚠ Purge content now', 'purge', "Purge this request's document and personal data now? This cannot be undone.") : null,
      ),
    );

    const signerRows = r.signers.map((/** @type {any} */ s) => {
      const open = r.status === 'active' && ['pending', 'viewed', 'verified', 'expired'].includes(s.status);
      const actions = open
        ? h(
            'div',
            { class: 'signer-actions' },
            signerButton(s, 'Open signing page', 'sign'),
            r.embed_origin ? signerButton(s, 'Embed test page', 'embed') : h('span', { class: 'help' }, 'no embed_origin'),
          )
        : '—';
      const who = h('span', {}, h('strong', {}, s.name || s.email), h('br', {}), h('code', {}, s.reference));
      const state = h('span', {}, badge(s.status), s.verification ? h('span', { class: 'help' }, ` ${s.verification}${s.verified_at ? ' ✓' : ''}`) : null);
      return [String(s.order), who, s.email, state, text(s.locale), time(s.signed_at), time(s.expires_at), actions];
    });

    replaceKeeping(
      signersBox,
      section('Signers', table('Signers', ['#', 'Signer', 'Email', 'Status', 'Locale', 'Signed', 'Link expires', 'Open'], signerRows)),
    );
    replaceKeeping(
      body,
      section(
        'Fields',
        r.fields.length
          ? table(
              'Fields',
              ['Name', 'Type', 'Signer', 'Value', 'Read only', 'Completed'],
              r.fields.map((/** @type {any} */ f) => [
                f.name,
                f.type,
                f.signer_reference,
                f.value || '—',
                f.read_only ? 'yes' : 'no',
                f.completed ? 'yes' : 'no',
              ]),
            )
          : empty('No data field (signature and initials boxes are drawn on the document).'),
      ),
      section('Audit trail', chainCheck(r.audit_check), r.audit.length ? timeline(r) : empty('No event.')),
      section('Mail', mailTable(r.emails)),
      section(
        'Webhook deliveries',
        ...(r.webhook_deliveries.length
          ? r.webhook_deliveries.map((/** @type {any} */ d) => deliveryCard(d, { onReplayed: replayed }))
          : [empty('No webhook delivery.')]),
      ),
      section('Artifact attempts', artifactAttempts(r.artifact_attempts)),
    );

    const key = `${r.document.purged}:${JSON.stringify(r.layout)}`;
    if (key !== previewFor) {
      previewFor = key;
      preview.replaceChildren(section('Document', r.document.purged ? empty('The document was purged: nothing left to show.') : pdfPreview(r.id, r.layout)));
    }
  };

  render();
  show(h('p', { class: 'crumbs' }, h('a', { href: '#/requests' }, '← All requests')), head, status, signersBox, preview, body);
  const saw = everyChange(
    POLL_MS,
    r,
    async () => (await api(`/requests/${encodeURIComponent(id)}`)).data,
    (/** @type {any} */ data) => {
      r = data;
      render();
    },
  );
}
