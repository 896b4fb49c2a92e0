// @ts-check
// paraph's operator dashboard: every account's requests, caught mail, webhook deliveries and the
// sandbox clock, read from the dashboard's own JSON API (`/_dashboard/api`, docs/dashboard.md).
//
// This module is the router and the sign-in. Routes live in the fragment: `#/requests[?filters]`,
// `#/requests/<id>`, `#/mail[?to=…]`, `#/mail/<id>`, `#/webhooks[?status=…]`, `#/clock`. Without a
// token, or when the API answers 401, the page shows nothing but a sign-in field.
import { forgetToken, setToken, takeTokenFromUrl, token, Unauthorized } from './api.js';
import { clockPage } from './clock.js';
import { h, show } from './dom.js';
import { stopAll } from './live.js';
import { mailList, mailPage } from './mail.js';
import { receiverCheckPage } from './receiver-check.js';
import { requestPage } from './request-page.js';
import { requestList } from './requests.js';
import { webhooksPage } from './webhooks.js';

const scopeNote = /** @type {HTMLElement} */ (document.getElementById('scope'));
const signOut = /** @type {HTMLButtonElement} */ (document.getElementById('sign-out'));
const nav = /** @type {HTMLElement} */ (document.getElementById('nav'));

/** @param {string} [message] */
function signIn(message) {
  stopAll();
  forgetToken();
  scopeNote.hidden = true;
  signOut.hidden = true;
  nav.hidden = true;
  document.title = 'Sign in · paraph dashboard';
  const input = h('input', {
    id: 'token',
    name: 'token',
    type: 'password',
    autocomplete: 'off',
    spellcheck: 'false',
    required: true,
    'aria-describedby': 'token-help',
  });
  const form = h(
    'form',
    {
      class: 'sign-in',
      onsubmit: (/** @type {SubmitEvent} */ event) => {
        event.preventDefault();
        const value = /** @type {HTMLInputElement} */ (input).value.trim().replace(/^.*#token=/, '');
        if (!value) return;
        setToken(value);
        if (location.hash.startsWith('#/')) route();
        else location.hash = '#/requests';
      },
    },
    h('h1', {}, 'Sign in'),
    message ? h('p', { class: 'error', role: 'alert' }, message) : null,
    h('label', { for: 'token' }, 'Dashboard token'),
    h(
      'p',
      { id: 'token-help', class: 'help' },
      'Follow the dashboard link that paraph serve prints, or paste its token (pdash_…). paraph dashboard url prints the link again.',
    ),
    h('div', { class: 'row' }, input, h('button', { type: 'submit' }, 'Sign in')),
  );
  show(form);
}

/**
 * The header once signed in: the scope, the sections (the current one marked), sign out.
 * @param {string} section
 */
function signedIn(section) {
  scopeNote.hidden = false;
  signOut.hidden = false;
  nav.hidden = false;
  for (const link of nav.querySelectorAll('a')) {
    if (link.getAttribute('data-section') === section) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
}

function parseRoute() {
  const hash = location.hash.replace(/^#/, '') || '/requests';
  const [path, query = ''] = hash.split('?');
  return { path, params: new URLSearchParams(query) };
}

/** @type {Array<[RegExp, string, (match: RegExpExecArray, params: URLSearchParams) => Promise<void>]>} */
const ROUTES = [
  [/^\/requests\/([^/?]+)$/, 'requests', (m) => requestPage(decodeURIComponent(m[1]))],
  [/^\/mail\/([^/?]+)$/, 'mail', (m) => mailPage(decodeURIComponent(m[1]))],
  [/^\/mail$/, 'mail', (_m, params) => mailList(params)],
  [/^\/webhooks$/, 'webhooks', (_m, params) => webhooksPage(params)],
  [/^\/clock$/, 'clock', () => clockPage()],
  [/^\/receiver-check$/, 'receiver-check', () => receiverCheckPage()],
  [/^/, 'requests', (_m, params) => requestList(params)],
];

async function route() {
  stopAll();
  takeTokenFromUrl();
  if (!token()) return signIn();
  const { path, params } = parseRoute();
  const main = /** @type {HTMLElement} */ (document.getElementById('main'));
  main.setAttribute('aria-busy', 'true');
  const [pattern, section, view] = ROUTES.find(([pattern]) => pattern.test(path)) ?? ROUTES[ROUTES.length - 1];
  try {
    signedIn(section);
    await view(/** @type {RegExpExecArray} */ (pattern.exec(path)), params);
  } catch (error) {
    if (error instanceof Unauthorized) return signIn('That token does not open this dashboard (wrong, or rotated). Sign in again.');
    show(
      h('h1', {}, 'Something went wrong'),
      h('p', { class: 'error', role: 'alert' }, error instanceof Error ? error.message : String(error)),
      h('p', {}, h('a', { href: '#/requests' }, 'Back to the requests')),
    );
  }
}

signOut.addEventListener('click', () => {
  forgetToken();
  history.replaceState(null, '', location.pathname);
  signIn();
});
window.addEventListener('dashboard:unauthorized', () => signIn('That token does not open this dashboard (wrong, or rotated). Sign in again.'));
window.addEventListener('hashchange', route);
route();
