// @ts-check
// Caught mail (paraph's own and any other SMTP client's), newest first, searchable by recipient; new
// mail appears by itself. A mail shows its headers, its HTML in a sandboxed iframe (no script; remote
// images blocked until asked), its text part and its raw source, and links to its request and signer.
import { api, reportFailure } from './api.js';
import { definitions, empty, h, replaceKeeping, section, show, statusLine, table, text, time } from './dom.js';
import { everyChange, POLL_MS } from './live.js';

/**
 * A header value with its RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`) decoded, as a
 * mail client shows it; the raw source keeps them as received.
 * @param {string} value
 */
export function decodeHeader(value) {
  return value.replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=(\s+(?==\?))?/g, (whole, charset, encoding, data) => {
    try {
      const bytes =
        encoding.toUpperCase() === 'B'
          ? Uint8Array.from(atob(data), (c) => c.charCodeAt(0))
          : Uint8Array.from(
              data
                .replace(/_/g, ' ')
                .replace(/=([0-9A-Fa-f]{2})|([^=])/g, (/** @type {string} */ _m, /** @type {string | undefined} */ hex, /** @type {string} */ ch) =>
                  hex ? String.fromCharCode(parseInt(hex, 16)) : ch,
                ),
              (c) => c.charCodeAt(0),
            );
      return new TextDecoder(charset).decode(bytes);
    } catch {
      return whole;
    }
  });
}

/** @param {URLSearchParams} params */
export async function mailList(params) {
  document.title = 'Mail · paraph dashboard';
  const to = params.get('to') ?? '';
  const query = new URLSearchParams({ limit: '100' });
  if (to) query.set('to', to);
  const load = () => api(`/emails?${query}`);
  let page = await load();

  const input = h('input', { id: 'm-to', name: 'to', type: 'search', value: to, spellcheck: 'false', autocomplete: 'off', placeholder: 'someone@example.com' });
  const search = h(
    'form',
    {
      class: 'filters',
      role: 'search',
      'aria-label': 'Search mail',
      onsubmit: (/** @type {SubmitEvent} */ event) => {
        event.preventDefault();
        const value = /** @type {HTMLInputElement} */ (input).value.trim();
        location.hash = value ? `#/mail?${new URLSearchParams({ to: value })}` : '#/mail';
      },
    },
    h('div', { class: 'field' }, h('label', { for: 'm-to' }, 'Recipient'), input),
    h('div', { class: 'field actions' }, h('button', { type: 'submit' }, 'Search'), h('a', { href: '#/mail', class: 'button secondary' }, 'Clear')),
  );

  const results = h('div', { id: 'mail-results' });
  const render = () =>
    replaceKeeping(
      results,
      page.data.length
        ? table(
            'Caught mail',
            ['Received', 'Subject', 'To', 'From', 'Kind', 'Request'],
            page.data.map((/** @type {any} */ m) => [
              time(m.received_at),
              h('a', { href: `#/mail/${encodeURIComponent(m.id)}`, class: 'mail-link', 'data-key': `m-${m.id}` }, m.subject || '(no subject)'),
              m.to.join(', '),
              m.from,
              text(m.kind),
              m.signature_request_id
                ? h('a', { href: `#/requests/${encodeURIComponent(m.signature_request_id)}` }, h('code', {}, m.signature_request_id.slice(0, 8)))
                : '—',
            ]),
          )
        : empty(to ? `No mail caught for ${to}.` : 'No mail caught yet.'),
    );
  render();
  show(h('h1', {}, 'Mail'), h('p', { class: 'lead' }, 'Every message the SMTP catcher received, newest first. New mail appears by itself.'), search, results);

  everyChange(POLL_MS, page, load, (/** @type {any} */ next) => {
    page = next;
    render();
  });
}

/** @param {string} id */
export async function mailPage(id) {
  const { data: m } = await api(`/emails/${encodeURIComponent(id)}`);
  document.title = `${m.subject || '(no subject)'} · paraph dashboard`;
  const status = statusLine();
  let remote = false;
  const frame = h('iframe', {
    class: 'mail-frame',
    title: `HTML part of “${m.subject || '(no subject)'}”`,
    // Links open in a new tab (the mail's view sets target="_blank"); nothing else is allowed.
    sandbox: 'allow-popups allow-popups-to-escape-sandbox',
    referrerpolicy: 'no-referrer',
  });
  const toggle = h('button', { type: 'button', class: 'secondary', id: 'remote-images', 'aria-pressed': 'false' }, 'Load remote images');
  const load = async () => {
    const { data } = await api(`/emails/${encodeURIComponent(m.id)}/view`, { method: 'POST', body: { remote_images: remote } });
    frame.setAttribute('src', data.url);
  };
  toggle.addEventListener('click', async () => {
    remote = !remote;
    toggle.textContent = remote ? 'Block remote images' : 'Load remote images';
    toggle.setAttribute('aria-pressed', String(remote));
    try {
      await load();
      status.textContent = remote ? 'Remote images are loaded in this view.' : 'Remote images are blocked again.';
    } catch (error) {
      reportFailure(error, status, 'Loading the mail');
    }
  });

  const requestLink = m.signature_request_id
    ? h('a', { href: `#/requests/${encodeURIComponent(m.signature_request_id)}` }, h('code', {}, m.signature_request_id))
    : '— (not paraph mail)';
  const signerLink =
    m.signer_reference && m.signature_request_id
      ? h('a', { href: `#/requests/${encodeURIComponent(m.signature_request_id)}` }, m.signer_reference)
      : text(m.signer_reference);
  show(
    h('p', { class: 'crumbs' }, h('a', { href: '#/mail' }, '← All mail')),
    h('h1', {}, m.subject || '(no subject)'),
    definitions([
      ['From', m.from],
      ['To', m.to.join(', ')],
      ['Received', time(m.received_at)],
      ['Kind', text(m.kind)],
      ['Request', requestLink],
      ['Signer', signerLink],
    ]),
    section(
      'HTML',
      m.html
        ? h(
            'div',
            {},
            h('div', { class: 'moves' }, toggle, h('span', { class: 'help' }, 'Scripts never run here; remote images stay blocked until you load them.')),
            status,
            frame,
            linkList(m.html),
          )
        : empty('This mail has no HTML part.'),
    ),
    section('Text', m.text ? h('pre', { class: 'code mail-text', tabindex: 0 }, m.text) : empty('This mail has no text part.')),
    section(
      'Headers',
      table(
        'Headers',
        ['Name', 'Value'],
        m.headers.map((/** @type {[string, string]} */ [name, value]) => [h('code', {}, name), decodeHeader(value)]),
      ),
    ),
    section(
      'Raw source',
      h(
        'details',
        { class: 'raw' },
        h('summary', {}, `Show the message as received (${m.raw.length} characters)`),
        h('pre', { class: 'code', tabindex: 0 }, m.raw),
      ),
    ),
  );
  if (m.html) await load();
}

/**
 * The web links of a mail's HTML, each to open in a new tab (the signing page cannot be framed).
 * @param {string} html
 */
function linkList(html) {
  // Read from the source text: parsing it into a document would apply its inline styles under the dashboard's policy.
  const unescape = (/** @type {string} */ value) =>
    value.replace(/&(amp|lt|gt|quot|#39);/g, (_, e) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[/** @type {'amp'} */ (e)] ?? '');
  const hrefs = [
    ...new Set([...html.matchAll(/<a\s[^>]*?href\s*=\s*"([^"]*)"/gi)].map((m) => unescape(m[1] ?? '')).filter((href) => /^https?:\/\//i.test(href))),
  ];
  if (hrefs.length === 0) return h('p', { class: 'help' }, 'This mail has no web link.');
  return h(
    'div',
    { class: 'mail-links' },
    h('h3', {}, 'Links in this mail'),
    h('p', { class: 'help' }, 'Each opens in a new tab; links in the preview above do too.'),
    h(
      'ul',
      {},
      ...hrefs.map((href) =>
        h('li', {}, h('a', { href, target: '_blank', rel: 'noopener noreferrer' }, href, h('span', { class: 'visually-hidden' }, ' (opens in a new tab)'))),
      ),
    ),
  );
}

/**
 * The mails of one request, as the request page lists them.
 * @param {any[]} emails
 */
export function mailTable(emails) {
  return emails.length
    ? table(
        'Mail',
        ['Received', 'Kind', 'To', 'Subject'],
        emails.map((m) => [
          time(m.received_at),
          text(m.kind),
          m.to.join(', '),
          h('a', { href: `#/mail/${encodeURIComponent(m.id)}` }, m.subject || '(no subject)'),
        ]),
      )
    : empty('No mail caught for this request.');
}
