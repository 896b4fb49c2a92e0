// @ts-check
// The embed test page: a host page served by paraph that frames a signer's embed URL, when the
// request's embed_origin lets this page's origin frame it, and logs every message the signing page
// posts. The dashboard opens it with `#embed=<embed_url>&origin=<embed_origin>&signer=…&request=…`;
// the fragment (which holds a signing link) leaves the address bar at once and is kept for this tab.
import { h } from './dom.js';

const KEY = 'paraph.dashboard.embed-test';
const explain = /** @type {HTMLElement} */ (document.getElementById('explain'));
const frameBox = /** @type {HTMLElement} */ (document.getElementById('frame-box'));
const log = /** @type {HTMLElement} */ (document.getElementById('log'));
const logEmpty = /** @type {HTMLElement} */ (document.getElementById('log-empty'));

function settings() {
  if (location.hash.length > 1) {
    const params = new URLSearchParams(location.hash.slice(1));
    sessionStorage.setItem(KEY, JSON.stringify(Object.fromEntries(params)));
    history.replaceState(null, '', location.pathname);
  }
  try {
    return JSON.parse(sessionStorage.getItem(KEY) ?? '{}');
  } catch {
    return {};
  }
}

/** @param {...(Node | string)} children */
function say(...children) {
  explain.append(h('p', {}, ...children));
}

function start() {
  const { embed = '', origin = '', signer = '', request = '' } = settings();
  const here = location.origin;
  if (!embed) {
    say(
      'Open this page from a request in the dashboard: the ',
      h('strong', {}, 'Embed test page'),
      ' button beside a signer of a request created with an ',
      h('code', {}, 'embed_origin'),
      '.',
    );
    return;
  }
  let frameOrigin = '';
  try {
    frameOrigin = new URL(embed).origin;
  } catch {
    say(h('span', { class: 'error' }, 'The embed URL is not a URL.'));
    return;
  }
  say(
    `Request ${request}, signer ${signer}. This page's origin is `,
    h('code', {}, here),
    '; the request\u2019s embed_origin is ',
    h('code', {}, origin || '(none)'),
    '.',
  );
  if (origin !== here) {
    explain.append(
      h(
        'div',
        { class: 'notice', role: 'note' },
        h(
          'p',
          {},
          'The signing page can only be framed by its request\u2019s embed_origin (',
          h('code', {}, `frame-ancestors ${origin || "'none'"}`),
          '), and this page is not at that origin, so it does not frame it here.',
        ),
        h(
          'p',
          {},
          'To see the iframe flow on this page, create a request with ',
          h('code', {}, `"embed_origin": "${here}"`),
          '. To try your own host page, serve it at ',
          h('code', {}, origin || 'your origin'),
          ' and frame the signer\u2019s embed_url there.',
        ),
      ),
    );
    return;
  }
  if (frameOrigin !== here) {
    explain.append(
      h(
        'div',
        { class: 'notice', role: 'note' },
        h(
          'p',
          {},
          'The embed URL is at ',
          h('code', {}, frameOrigin),
          ' (paraph\u2019s public URL), while this page was opened at ',
          h('code', {}, here),
          '. Open the dashboard through ',
          h('code', {}, frameOrigin),
          ' to frame it here.',
        ),
      ),
    );
    return;
  }
  const iframe = h('iframe', { class: 'embed-frame', title: `Signing page of ${signer}`, src: embed });
  frameBox.append(iframe);
  window.addEventListener('message', (event) => {
    if (event.source !== /** @type {HTMLIFrameElement} */ (iframe).contentWindow) return;
    logEmpty.hidden = true;
    const data = event.data;
    const type = data && typeof data === 'object' && typeof data.type === 'string' ? data.type : typeof data;
    log.append(
      h(
        'li',
        { 'data-type': type },
        h(
          'time',
          {},
          new Date()
            .toISOString()
            .replace('T', ' ')
            .replace(/\.\d+Z$/, ' UTC'),
        ),
        ' ',
        h('strong', { class: 'event-type' }, type),
        ' from ',
        h('code', {}, event.origin),
        h('pre', { class: 'code' }, JSON.stringify(data, null, 2)),
      ),
    );
  });
}

start();
