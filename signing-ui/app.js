// The signing page: loads the signer's view through the JSON API under the link, verifies the email
// code when asked, renders the PDF with pdf.js with the signer's fields on top, and signs or
// declines. Plain ES modules, no build step; the page's CSP allows only same-origin scripts.
import { LANGS, matchLang, translator } from './i18n.js';

const PDFJS_URL = '/signing-ui/vendor/pdf.min.mjs';
const PDFJS_WORKER_URL = '/signing-ui/vendor/pdf.worker.min.mjs';
const VALUE_MAX = 500;
const REASON_MAX = 500;
const TYPED_MAX = 100;
/** Canvas pixels per CSS pixel when rendering pages (more is sharper but heavier). */
const MAX_DPR = 2;
const MAX_CANVAS_WIDTH = 2400;

const root = document.documentElement;
const app = /** @type {HTMLElement} */ (document.getElementById('app'));
const mode = root.dataset.mode === 'embed' ? 'embed' : 'page';
const framed = (() => {
  try {
    return window.self !== window.top;
  } catch {
    return true;
  }
})();
/** Inside an iframe (or served as the iframe page): never redirect to the return URL. */
const embedded = mode === 'embed' || framed;

const tokenMatch = /^\/(?:sign|embed)\/([^/?#]+)/.exec(location.pathname);
const token = tokenMatch ? decodeURIComponent(tokenMatch[1]) : '';
const apiBase = `/sign/${encodeURIComponent(token)}/api`;
const linkLang = new URLSearchParams(location.search).get('lang');

const state = {
  lang: 'en',
  t: translator('en'),
  /** The SignerView of the API. */
  view: /** @type {any} */ (null),
  /** Values of the editable text and date fields, by field id. */
  values: new Map(),
  /** The adopted marks: `{type: 'drawn', image}` or `{type: 'typed', text}`. */
  marks: /** @type {{signature: any, initials: any}} */ ({ signature: null, initials: null }),
  consent: false,
  busy: false,
  /** Live elements of the document screen. */
  ui: /** @type {any} */ (null),
};

// ---------------------------------------------------------------------------------------------
// Small helpers

/** Creates an element; `text` sets textContent, `on*` adds listeners, `style` is an object. */
function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') el.className = value;
    else if (key === 'text') el.textContent = value;
    else if (key === 'style') Object.assign(el.style, value);
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
    else if (value === true) el.setAttribute(key, '');
    else el.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

// Material Design icons (Apache License 2.0), 24 x 24.
const ICONS = {
  pen: 'M3 17.25V21h3.75L17.81 9.94l-3.75-3.75L3 17.25zM20.71 7.04a1 1 0 0 0 0-1.41l-2.34-2.34a1 1 0 0 0-1.41 0l-1.83 1.83 3.75 3.75 1.83-1.83z',
  check: 'M9 16.17 4.83 12l-1.42 1.41L9 19 21 7l-1.41-1.41z',
  checkCircle: 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm-2 15-5-5 1.41-1.41L10 14.17l7.59-7.59L19 8l-9 9z',
  lock: 'M18 8h-1V6A5 5 0 0 0 7 6v2H6a2 2 0 0 0-2 2v10a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V10a2 2 0 0 0-2-2zm-6 9a2 2 0 1 1 0-4 2 2 0 0 1 0 4zm3.1-9H8.9V6a3.1 3.1 0 0 1 6.2 0v2z',
  clock: 'M11.99 2C6.47 2 2 6.48 2 12s4.47 10 9.99 10C17.52 22 22 17.52 22 12S17.52 2 11.99 2zM12 20a8 8 0 1 1 0-16 8 8 0 0 1 0 16zm.5-13H11v6l5.25 3.15.75-1.23-4.5-2.67z',
  mail: 'M20 4H4a2 2 0 0 0-2 2v12a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2V6a2 2 0 0 0-2-2zm0 4-8 5-8-5V6l8 5 8-5v2z',
  alert: 'M1 21h22L12 2 1 21zm12-3h-2v-2h2v2zm0-4h-2v-4h2v4z',
  block: 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zM4 12a8 8 0 0 1 12.9-6.31L5.69 16.9A7.9 7.9 0 0 1 4 12zm8 8a7.9 7.9 0 0 1-4.9-1.69L18.31 7.1A8 8 0 0 1 12 20z',
  next: 'M12 4l-1.41 1.41L16.17 11H4v2h12.17l-5.58 5.59L12 20l8-8z',
  close: 'M19 6.41 17.59 5 12 10.59 6.41 5 5 6.41 10.59 12 5 17.59 6.41 19 12 13.41 17.59 19 19 17.59 13.41 12z',
};

function icon(name, className = 'icon') {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('class', className);
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  const path = document.createElementNS(ns, 'path');
  path.setAttribute('d', ICONS[name]);
  svg.append(path);
  return svg;
}

function setLang(lang) {
  state.lang = LANGS.includes(lang) ? lang : 'en';
  state.t = translator(state.lang);
  root.lang = state.lang;
  root.dir = state.lang === 'ar' ? 'rtl' : 'ltr';
}

function guessLang() {
  return matchLang(linkLang) ?? (navigator.languages ?? [navigator.language]).map(matchLang).find(Boolean) ?? 'en';
}

function joinList(items) {
  const { t } = state;
  const quoted = items.map((item) => `“${item}”`);
  if (quoted.length <= 1) return quoted.join('');
  return `${quoted.slice(0, -1).join(t('listSeparator'))}${t('listLastSeparator')}${quoted[quoted.length - 1]}`;
}

function formatTime(iso) {
  try {
    return new Intl.DateTimeFormat(state.lang, { dateStyle: 'long', timeStyle: 'short' }).format(new Date(iso));
  } catch {
    return iso;
  }
}

function isWebUrl(value) {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

function initialsOf(name) {
  return String(name ?? '')
    .split(/[\s-]+/u)
    .filter(Boolean)
    .map((part) => Array.from(part)[0]?.toUpperCase() ?? '')
    .join('');
}

// ---------------------------------------------------------------------------------------------
// API

class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

async function api(method, path, body) {
  let response;
  try {
    response = await fetch(`${apiBase}${path}`, {
      method,
      cache: 'no-store',
      credentials: 'same-origin',
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
  } catch {
    throw new ApiError(0, 'network', state.t('errorNetwork'));
  }
  if (!response.ok) {
    let payload = null;
    try {
      payload = await response.json();
    } catch {
      // not JSON: keep the status text
    }
    throw new ApiError(response.status, payload?.error?.code ?? 'error', payload?.error?.message ?? response.statusText);
  }
  return path === '/document' ? response.arrayBuffer() : response.json();
}

function errorText(error) {
  if (error instanceof ApiError && error.code === 'network') return error.message;
  if (error instanceof ApiError) return state.t('errorServer', { message: error.message });
  return state.t('errorDocument');
}

// ---------------------------------------------------------------------------------------------
// The iframe messages: to the embedding origin only, never '*'.

function post(type, extra = {}) {
  const view = state.view;
  if (mode !== 'embed' || !framed || !view?.embed_origin) return;
  const message = {
    source: view.brand,
    type,
    signatureRequestId: view.request?.id ?? '',
    clientReference: view.request?.client_reference ?? '',
    signerReference: view.signer?.reference ?? '',
    ...extra,
  };
  try {
    window.parent.postMessage(message, view.embed_origin);
  } catch {
    // an invalid origin: nothing to tell
  }
}

/** Back to the client's site; replace() so that Back does not land on a page that sends the signer away again. */
function leaveTo(url) {
  render(card({ icon: 'clock', title: state.t('redirecting'), screen: 'redirecting' }));
  location.replace(url);
}

// ---------------------------------------------------------------------------------------------
// Screens

function render(...nodes) {
  app.replaceChildren(...nodes);
  app.setAttribute('aria-busy', 'false');
}

function setScreen(name) {
  root.dataset.screen = name;
}

function header({ heading = false } = {}) {
  const { t, view } = state;
  const documentName = view?.request?.document_name ?? '';
  const who = view?.signer ? view.signer.name || view.signer.email : '';
  return h(
    'header',
    { class: 'topbar' },
    h(
      'div',
      { class: 'topbar-inner' },
      h('span', { class: 'brand', text: view?.brand || 'paraph' }),
      h(
        'div',
        { class: 'doc-meta' },
        documentName ? h(heading ? 'h1' : 'p', { class: 'doc-name', text: documentName }) : null,
        who ? h('p', { class: 'signer-name', text: t('signingAs', { name: who }) }) : null,
      ),
      h('p', { class: 'badge', title: t('testNote') }, icon('alert', 'icon icon-sm'), h('span', { text: t('testBadge') })),
    ),
  );
}

/** A centred message screen (loading, closed, result, error, redirect). */
function card({ icon: iconName, tone = 'neutral', title, lines = [], actions = [], screen, busy = false }) {
  setScreen(screen);
  return h(
    'div',
    { class: 'layout' },
    header(),
    h(
      'main',
      { class: 'card-wrap', id: 'main' },
      h(
        'section',
        { class: `card card-${tone}`, 'aria-labelledby': 'card-title' },
        busy ? h('span', { class: 'spinner', 'aria-hidden': 'true' }) : iconName ? h('span', { class: 'card-icon' }, icon(iconName)) : null,
        h('h1', { id: 'card-title', class: 'card-title', text: title, tabindex: '-1' }),
        ...lines.map((line) => h('p', { class: 'card-text', text: line })),
        actions.length ? h('div', { class: 'card-actions' }, ...actions) : null,
      ),
    ),
  );
}

function focusTitle() {
  const title = document.getElementById('card-title');
  if (title) title.focus({ preventScroll: true });
}

function showLoading() {
  render(card({ busy: true, title: state.t('loading'), screen: 'loading' }));
  app.setAttribute('aria-busy', 'true');
}

function showFatal(error, retry) {
  render(
    card({
      icon: 'alert',
      tone: 'danger',
      title: state.t('errorTitle'),
      lines: [errorText(error)],
      actions: retry ? [h('button', { type: 'button', class: 'btn btn-primary', onclick: retry, text: state.t('retry') })] : [],
      screen: 'error',
    }),
  );
  focusTitle();
}

function showClosed() {
  const { t, view } = state;
  const reason = view.closed_reason ?? 'unavailable';
  post('signing.closed', { status: reason });
  if (!embedded && view.return_url && isWebUrl(view.return_url)) {
    leaveTo(view.return_url);
    return;
  }
  render(card({ icon: reason === 'signed' ? 'checkCircle' : 'lock', title: t('closedTitle'), lines: [t(`closed_${reason}`)], screen: 'closed' }));
  root.dataset.closedReason = reason;
  focusTitle();
}

function showResult(outcome) {
  const { t, view } = state;
  const documentName = view.request?.document_name ?? '';
  const signed = outcome.status === 'signed';
  const lines = signed
    ? [t('resultSignedText', { document: documentName }), t(outcome.request_status === 'completed' ? 'resultCompleted' : 'resultPending')]
    : [t('resultDeclinedText', { document: documentName })];
  if (!embedded) lines.push(t('resultClose'));
  render(
    card({
      icon: signed ? 'checkCircle' : 'block',
      tone: signed ? 'success' : 'neutral',
      title: t(signed ? 'resultSignedTitle' : 'resultDeclinedTitle'),
      lines,
      screen: 'result',
    }),
  );
  root.dataset.outcome = outcome.status;
  focusTitle();
}

function finish(outcome) {
  post(outcome.status === 'signed' ? 'signing.signed' : 'signing.declined');
  if (!embedded && outcome.return_url && isWebUrl(outcome.return_url)) {
    leaveTo(outcome.return_url);
    return;
  }
  showResult(outcome);
}

/** A 409 after the page loaded usually means the link closed meanwhile: show why. */
async function reloadIfClosed(error) {
  if (!(error instanceof ApiError) || error.status !== 409) return false;
  try {
    const fresh = await api('POST', viewPath());
    if (fresh.state !== 'closed') return false;
    state.view = fresh;
    showClosed();
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// Email verification

function showOtp() {
  const { t, view } = state;
  setScreen('otp');
  const email = view.signer?.email ?? '';
  const status = h('p', { id: 'otp-status', class: 'otp-status', role: 'status' });
  const error = h('p', { id: 'otp-error', class: 'form-error', role: 'alert' });
  const code = h('input', {
    id: 'otp-code',
    name: 'code',
    class: 'input input-code',
    type: 'text',
    inputmode: 'numeric',
    autocomplete: 'one-time-code',
    pattern: '[0-9]{6}',
    maxlength: '6',
    required: true,
    dir: 'ltr',
    'aria-describedby': 'otp-status otp-error',
  });
  const verifyButton = h('button', { type: 'submit', class: 'btn btn-primary', text: t('verify') });
  const form = h(
    'form',
    { class: 'otp-form', hidden: true, novalidate: true },
    h('label', { for: 'otp-code', class: 'label', text: t('codeLabel') }),
    h('div', { class: 'otp-row' }, code, verifyButton),
  );
  const sendButton = h('button', { type: 'button', class: 'btn btn-primary', text: t('sendCode') });

  const showError = (message) => {
    error.textContent = message;
    code.setAttribute('aria-invalid', message ? 'true' : 'false');
  };
  const explain = (e) => {
    if (e instanceof ApiError && e.status === 409) {
      const locked = /locked until (\d{4}-\d\d-\d\dT[\d:.]+Z)/.exec(e.message);
      if (locked) return t('otpLocked', { time: formatTime(locked[1]) });
      if (/locked/.test(e.message)) return t('otpLockedNoTime');
      if (/no valid code/.test(e.message)) return t('codeExpired');
    }
    if (e instanceof ApiError && e.status === 400) return t('codeFormat');
    return errorText(e);
  };

  sendButton.addEventListener('click', async () => {
    if (state.busy) return;
    state.busy = true;
    sendButton.disabled = true;
    sendButton.textContent = t('sendingCode');
    showError('');
    try {
      const sent = await api('POST', '/otp');
      if (sent.sent) {
        status.textContent = t('codeSent', { email });
        form.hidden = false;
        code.value = '';
        code.focus();
      } else {
        showError(t('codeSendFailed'));
      }
    } catch (e) {
      if (!(await reloadIfClosed(e))) showError(explain(e));
    } finally {
      state.busy = false;
      sendButton.disabled = false;
      sendButton.textContent = form.hidden ? t('sendCode') : t('resendCode');
      sendButton.className = form.hidden ? 'btn btn-primary' : 'btn btn-link';
    }
  });

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (state.busy) return;
    const value = code.value.replace(/\s+/g, '');
    if (!/^[0-9]{6}$/.test(value)) {
      showError(t('codeFormat'));
      code.focus();
      return;
    }
    state.busy = true;
    verifyButton.disabled = true;
    verifyButton.textContent = t('verifying');
    showError('');
    try {
      const checked = await api('POST', '/otp/verify', { code: value });
      if (checked.verified) {
        status.textContent = t('verified');
        state.busy = false;
        const view = await api('POST', viewPath());
        state.view = view;
        if (view.state === 'closed') showClosed();
        else await showDocument();
        return;
      }
      showError(checked.attempts_left > 0 ? t('wrongCode', { n: checked.attempts_left }) : t('codeUsedUp'));
      code.value = '';
      code.focus();
    } catch (e) {
      if (!(await reloadIfClosed(e))) {
        showError(explain(e));
        code.focus();
      }
    } finally {
      state.busy = false;
      verifyButton.disabled = false;
      verifyButton.textContent = t('verify');
    }
  });

  render(
    h(
      'div',
      { class: 'layout' },
      header(),
      h(
        'main',
        { class: 'card-wrap', id: 'main' },
        h(
          'section',
          { class: 'card', 'aria-labelledby': 'card-title' },
          h('span', { class: 'card-icon' }, icon('mail')),
          h('h1', { id: 'card-title', class: 'card-title', text: t('otpTitle'), tabindex: '-1' }),
          h('p', { class: 'card-text', text: t('otpIntro', { email }) }),
          h('div', { class: 'card-actions' }, sendButton),
          status,
          form,
          error,
        ),
      ),
    ),
  );
  focusTitle();
}

// ---------------------------------------------------------------------------------------------
// The document

let pdfjsPromise = null;
function loadPdfjs() {
  pdfjsPromise ??= import(PDFJS_URL).then((pdfjs) => {
    pdfjs.GlobalWorkerOptions.workerSrc = PDFJS_WORKER_URL;
    return pdfjs;
  });
  return pdfjsPromise;
}

const isMark = (field) => field.type === 'signature' || field.type === 'initials';
const isRequired = (field) => isMark(field) || field.editable;
const isDone = (field) => (isMark(field) ? state.marks[field.type] !== null : String(state.values.get(field.id) ?? '').trim() !== '');

function humanize(name) {
  const words = name.replace(/_/g, ' ').trim();
  return words ? words[0].toUpperCase() + words.slice(1) : '';
}

function fieldLabel(field) {
  const { t } = state;
  if (field.type === 'signature') return t('fieldSignature');
  if (field.type === 'initials') return t('fieldInitials');
  if (field.field_key) return t(`key_${field.field_key}`);
  if (field.name) return humanize(field.name);
  return t(field.type === 'date' ? 'fieldDate' : 'fieldText');
}

const AUTOCOMPLETE = { signer_name: 'name', signer_email: 'email', company: 'organization', job_title: 'organization-title' };

function viewPath() {
  return linkLang ? `/view?lang=${encodeURIComponent(linkLang.slice(0, 10))}` : '/view';
}

async function showDocument() {
  const { t, view } = state;
  setScreen('document');
  document.title = t('pageTitle', { document: view.request?.document_name ?? '' });
  state.values = new Map(view.fields.filter((f) => f.editable).map((f) => [f.id, f.value]));
  state.consent = false;

  const notices = h('div', { class: 'notices' });
  if (view.waiting_for.length > 0) {
    notices.append(
      h(
        'section',
        { class: 'notice notice-wait', role: 'status', id: 'waiting-notice' },
        icon('clock'),
        h('div', {}, h('h2', { class: 'notice-title', text: t('waitingTitle') }), h('p', { text: t('waitingText', { names: joinList(view.waiting_for) }) })),
      ),
    );
  }
  const errors = h('div', { class: 'errors', id: 'errors' });

  const progressText = h('p', { class: 'progress-text', id: 'progress-text', 'aria-live': 'polite' });
  const progressBar = h('div', { class: 'progress-bar', 'aria-hidden': 'true' }, h('span', { class: 'progress-fill' }));
  const nextButton = h('button', { type: 'button', class: 'btn btn-small btn-secondary', id: 'next-field' }, h('span', { text: t('nextField') }), icon('next', 'icon icon-sm icon-flip'));
  nextButton.addEventListener('click', focusNextField);
  const progress = h('div', { class: 'progress', role: 'group', 'aria-labelledby': 'progress-text' }, h('div', { class: 'progress-info' }, progressText, progressBar), nextButton);

  const pages = h('div', { class: 'pages', id: 'document', dir: 'ltr', tabindex: '-1', role: 'region', 'aria-label': t('documentRegion') });
  pages.append(h('p', { class: 'pages-loading', role: 'status' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), h('span', { text: t('loadingDocument') })));

  const consent = h('input', { type: 'checkbox', id: 'consent', class: 'checkbox' });
  consent.addEventListener('change', () => {
    state.consent = consent.checked;
    updateProgress();
  });
  const signButton = h('button', { type: 'button', class: 'btn btn-primary', id: 'sign-button', 'aria-describedby': 'sign-hint' }, icon('pen', 'icon icon-sm'), h('span', { text: t('sign') }));
  signButton.addEventListener('click', doSign);
  const declineButton = h('button', { type: 'button', class: 'btn btn-secondary', id: 'decline-button', text: t('decline') });
  declineButton.addEventListener('click', () => openDecline(declineButton));
  const hint = h('p', { class: 'hint', id: 'sign-hint' });

  const actions = h(
    'footer',
    { class: 'actionbar' },
    h(
      'div',
      { class: 'actionbar-inner' },
      h('div', { class: 'consent' }, consent, h('label', { for: 'consent', text: t('consent') })),
      h('div', { class: 'buttons' }, declineButton, signButton),
      hint,
    ),
  );

  state.ui = { progressText, progressBar, nextButton, signButton, declineButton, hint, errors, pages, consent };
  render(
    h(
      'div',
      { class: 'layout layout-document' },
      h('a', { class: 'skip-link', href: '#document', text: t('skipToDocument') }),
      header({ heading: true }),
      h(
        'main',
        { class: 'main', id: 'main' },
        notices,
        errors,
        progress,
        pages,
        h('p', { class: 'sandbox-note', text: t('testNote') }),
      ),
      actions,
    ),
  );
  updateProgress();

  try {
    const [pdfjs, bytes] = await Promise.all([loadPdfjs(), api('GET', '/document')]);
    const pdf = await pdfjs.getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, enableXfa: false, disableFontFace: false }).promise;
    await layoutPages(pdf);
  } catch (e) {
    console.error(e);
    if (await reloadIfClosed(e)) return;
    pages.replaceChildren(
      h(
        'div',
        { class: 'notice notice-error', role: 'alert' },
        icon('alert'),
        h('div', {}, h('p', { text: errorText(e) }), h('button', { type: 'button', class: 'btn btn-small btn-secondary', onclick: () => showDocument(), text: t('retry') })),
      ),
    );
  }
}

/** Places every page (at its displayed size, rotation included) with its fields; canvases render lazily. */
async function layoutPages(pdf) {
  const { t, view } = state;
  const { pages } = state.ui;
  const entries = [];
  const frag = document.createDocumentFragment();
  for (let n = 1; n <= pdf.numPages; n++) {
    const page = await pdf.getPage(n);
    const viewport = page.getViewport({ scale: 1 });
    const width = viewport.width;
    const height = viewport.height;
    const canvas = h('canvas', { class: 'page-canvas', 'aria-hidden': 'true' });
    const overlay = h('div', { class: 'overlay' });
    const fields = view.fields.filter((f) => f.page === n).sort((a, b) => a.y - b.y || a.x - b.x);
    for (const field of fields) overlay.append(fieldElement(field, width, height));
    const el = h(
      'section',
      { class: 'page', 'aria-label': t('pageLabel', { n, total: pdf.numPages }), dataset: { page: String(n) }, style: { aspectRatio: `${width} / ${height}` } },
      canvas,
      overlay,
    );
    entries.push({ page, el, canvas, width, renderedPx: 0, task: null });
    frag.append(el);
  }
  pages.replaceChildren(frag);
  refreshMarks();
  updateProgress();

  const byElement = new Map(entries.map((e) => [e.el, e]));
  const observer = new IntersectionObserver(
    (items) => {
      for (const item of items) if (item.isIntersecting) renderPage(byElement.get(item.target));
    },
    { rootMargin: '1200px 0px' },
  );
  for (const entry of entries) observer.observe(entry.el);
  let resizeTimer = 0;
  window.addEventListener('resize', () => {
    clearTimeout(resizeTimer);
    resizeTimer = window.setTimeout(() => entries.filter((e) => e.renderedPx > 0).forEach((e) => renderPage(e)), 250);
  });
}

async function renderPage(entry) {
  if (!entry || entry.task) return;
  const cssWidth = entry.el.clientWidth || 600;
  const dpr = Math.min(window.devicePixelRatio || 1, MAX_DPR);
  const target = Math.min(Math.round(cssWidth * dpr), MAX_CANVAS_WIDTH);
  if (entry.renderedPx >= target * 0.9 && entry.renderedPx <= target * 1.6) return;
  const viewport = entry.page.getViewport({ scale: target / entry.width });
  // Render off-screen, then swap: the page never flashes blank on a resize.
  const canvas = document.createElement('canvas');
  canvas.width = Math.floor(viewport.width);
  canvas.height = Math.floor(viewport.height);
  canvas.className = 'page-canvas';
  canvas.setAttribute('aria-hidden', 'true');
  try {
    entry.task = entry.page.render({ canvas, viewport });
    await entry.task.promise;
    entry.canvas.replaceWith(canvas);
    entry.canvas = canvas;
    entry.renderedPx = target;
    entry.el.dataset.rendered = 'true';
  } catch (e) {
    if (e?.name !== 'RenderingCancelledException') console.error(e);
  } finally {
    entry.task = null;
  }
}

function fieldElement(field, pageWidth, pageHeight) {
  const { t } = state;
  const label = t('fieldOnPage', { label: fieldLabel(field), n: field.page });
  const box = h('div', {
    class: `field-box field-${field.type}${isRequired(field) ? ' is-required' : ' is-locked'}`,
    dataset: { fieldId: field.id, fieldName: field.name || '' },
    style: {
      left: `${(field.x / pageWidth) * 100}%`,
      top: `${(field.y / pageHeight) * 100}%`,
      width: `${(field.width / pageWidth) * 100}%`,
      height: `${(field.height / pageHeight) * 100}%`,
    },
  });
  // Text follows the field's height at any zoom (cqw: percent of the page's width).
  box.style.setProperty('--fs', `${((field.height * 0.58) / pageWidth) * 100}cqw`);

  if (isMark(field)) {
    const button = h('button', { type: 'button', class: 'field field-mark', 'aria-haspopup': 'dialog', dataset: { kind: field.type, label } });
    button.addEventListener('click', () => openPad(field.type, button));
    box.append(button);
  } else if (field.editable) {
    const isDate = field.type === 'date' && (field.value === '' || /^\d{4}-\d{2}-\d{2}$/.test(field.value));
    const input = h('input', {
      type: isDate ? 'date' : 'text',
      class: 'field field-input',
      maxlength: String(VALUE_MAX),
      required: true,
      'aria-required': 'true',
      'aria-label': t('fieldRequired', { label }),
      autocomplete: AUTOCOMPLETE[field.field_key] ?? 'off',
      dir: 'auto',
      name: field.name || field.id,
    });
    input.value = field.value;
    input.addEventListener('input', () => {
      state.values.set(field.id, input.value);
      updateProgress();
    });
    box.append(input);
  } else {
    const input = h('input', {
      type: 'text',
      class: 'field field-locked',
      readonly: true,
      'aria-readonly': 'true',
      'aria-label': t(field.read_only ? 'fieldReadOnly' : 'fieldAutomatic', { label }),
      dir: 'auto',
    });
    input.value = field.value;
    box.append(input, icon('lock', 'icon field-lock'));
  }
  return box;
}

/** Shows the adopted signature/initials in every field of that kind. */
function refreshMarks() {
  const { t } = state;
  for (const button of document.querySelectorAll('.field-mark')) {
    const kind = button.dataset.kind;
    const mark = state.marks[kind];
    const label = button.dataset.label;
    button.replaceChildren();
    if (!mark) {
      button.append(icon('pen', 'icon field-icon'), h('span', { class: 'field-cta', text: t(kind === 'signature' ? 'signHere' : 'initialHere') }));
      button.setAttribute('aria-label', t('fieldRequired', { label }));
    } else if (mark.type === 'drawn') {
      button.append(h('img', { class: 'mark-image', src: mark.image, alt: '' }));
      button.setAttribute('aria-label', t('changeMark', { label }));
    } else {
      button.append(h('span', { class: 'mark-typed script', dir: 'auto', text: mark.text }));
      button.setAttribute('aria-label', t('changeMark', { label }));
    }
  }
}

function updateProgress() {
  const ui = state.ui;
  if (!ui) return;
  const { t, view } = state;
  const required = view.fields.filter(isRequired);
  const done = required.filter(isDone).length;
  const progressText = required.length ? t('progress', { done, total: required.length }) : t('progressNone');
  if (ui.progressText.textContent !== progressText) ui.progressText.textContent = progressText;
  ui.progressBar.firstChild.style.width = `${required.length ? (done / required.length) * 100 : 100}%`;
  ui.nextButton.hidden = done === required.length;
  for (const box of document.querySelectorAll('.field-box.is-required')) {
    const field = view.fields.find((f) => f.id === box.dataset.fieldId);
    box.classList.toggle('is-done', field ? isDone(field) : false);
  }
  const complete = done === required.length;
  ui.signButton.disabled = state.busy || !view.can_sign || !complete || !state.consent;
  ui.declineButton.disabled = state.busy;
  ui.hint.textContent = !view.can_sign && view.waiting_for.length ? t('waitingShort', { names: joinList(view.waiting_for) }) : !complete || !state.consent ? t('signHint') : '';
  ui.hint.hidden = ui.hint.textContent === '';
}

function focusNextField() {
  const { view } = state;
  const boxes = Array.from(document.querySelectorAll('.field-box.is-required'));
  const next = boxes.find((box) => {
    const field = view.fields.find((f) => f.id === box.dataset.fieldId);
    return field && !isDone(field);
  });
  const control = next?.querySelector('input, button');
  if (!control) return;
  control.scrollIntoView({ block: 'center', behavior: 'smooth' });
  control.focus({ preventScroll: true });
}

function showBanner(message) {
  const { errors } = state.ui;
  const close = h('button', { type: 'button', class: 'btn btn-icon', 'aria-label': state.t('dismiss') }, icon('close', 'icon icon-sm'));
  const banner = h('div', { class: 'notice notice-error', role: 'alert' }, icon('alert'), h('p', { text: message }), close);
  close.addEventListener('click', () => banner.remove());
  errors.replaceChildren(banner);
  banner.scrollIntoView({ block: 'nearest' });
}

async function doSign() {
  const { view, ui, t } = state;
  if (state.busy || ui.signButton.disabled) return;
  const fields = {};
  for (const field of view.fields) if (field.editable) fields[field.name || field.id] = state.values.get(field.id) ?? '';
  const body = { fields };
  for (const kind of ['signature', 'initials']) if (view.fields.some((f) => f.type === kind)) body[kind] = state.marks[kind];
  state.busy = true;
  updateProgress();
  ui.signButton.lastChild.textContent = t('signing');
  try {
    const outcome = await api('POST', '/sign', body);
    finish(outcome);
  } catch (e) {
    state.busy = false;
    ui.signButton.lastChild.textContent = t('sign');
    updateProgress();
    if (!(await reloadIfClosed(e))) showBanner(errorText(e));
  }
}

// ---------------------------------------------------------------------------------------------
// Dialogs

function openDialog(dialog, opener) {
  document.body.append(dialog);
  dialog.addEventListener('close', () => {
    dialog.remove();
    if (opener?.isConnected) opener.focus();
  });
  dialog.showModal();
}

function openDecline(opener) {
  const { t } = state;
  const reason = h('textarea', {
    id: 'decline-reason',
    class: 'input textarea',
    maxlength: String(REASON_MAX),
    rows: '4',
    required: true,
    dir: 'auto',
    'aria-describedby': 'decline-count decline-error',
  });
  const count = h('p', { id: 'decline-count', class: 'counter', text: t('reasonCount', { n: 0, max: REASON_MAX }) });
  const error = h('p', { id: 'decline-error', class: 'form-error', role: 'alert' });
  const confirm = h('button', { type: 'submit', class: 'btn btn-danger', text: t('confirmDecline') });
  const cancel = h('button', { type: 'button', class: 'btn btn-secondary', text: t('cancel') });
  const form = h(
    'form',
    { class: 'dialog-body', novalidate: true },
    h('h2', { id: 'decline-title', class: 'dialog-title', text: t('declineTitle') }),
    h('p', { class: 'dialog-text', text: t('declineText') }),
    h('label', { for: 'decline-reason', class: 'label', text: t('reasonLabel') }),
    reason,
    count,
    error,
    h('div', { class: 'dialog-actions' }, cancel, confirm),
  );
  const dialog = h('dialog', { class: 'dialog', 'aria-labelledby': 'decline-title' }, form);
  reason.addEventListener('input', () => {
    count.textContent = t('reasonCount', { n: reason.value.length, max: REASON_MAX });
    if (reason.value.trim()) {
      error.textContent = '';
      reason.removeAttribute('aria-invalid');
    }
  });
  cancel.addEventListener('click', () => dialog.close());
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (state.busy) return;
    const text = reason.value.trim();
    if (!text) {
      error.textContent = t('reasonRequired');
      reason.setAttribute('aria-invalid', 'true');
      reason.focus();
      return;
    }
    state.busy = true;
    confirm.disabled = true;
    confirm.textContent = t('declining');
    try {
      const outcome = await api('POST', '/decline', { reason: text.slice(0, REASON_MAX) });
      dialog.close();
      finish(outcome);
    } catch (e) {
      confirm.disabled = false;
      confirm.textContent = t('confirmDecline');
      if (await reloadIfClosed(e)) dialog.close();
      else error.textContent = errorText(e);
    } finally {
      state.busy = false;
    }
  });
  openDialog(dialog, opener);
  reason.focus();
}

function openPad(kind, opener) {
  const { t, view } = state;
  const isSignature = kind === 'signature';
  const existing = state.marks[kind];
  let tab = existing?.type === 'typed' ? 'type' : 'draw';

  // Drawing
  const canvas = h('canvas', {
    class: `pad-canvas pad-${kind}`,
    width: isSignature ? '720' : '360',
    height: '240',
    role: 'img',
    'aria-label': t(isSignature ? 'drawAreaSignature' : 'drawAreaInitials'),
  });
  const ctx = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d'));
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  ctx.lineWidth = 4;
  ctx.strokeStyle = '#17307a';
  ctx.fillStyle = '#17307a';
  let hasInk = false;
  let last = null;
  const point = (e) => {
    const r = canvas.getBoundingClientRect();
    return { x: ((e.clientX - r.left) * canvas.width) / r.width, y: ((e.clientY - r.top) * canvas.height) / r.height };
  };
  canvas.addEventListener('pointerdown', (e) => {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    e.preventDefault();
    canvas.setPointerCapture(e.pointerId);
    last = point(e);
    ctx.beginPath();
    ctx.arc(last.x, last.y, ctx.lineWidth / 2, 0, Math.PI * 2);
    ctx.fill();
    hasInk = true;
    padError.textContent = '';
  });
  canvas.addEventListener('pointermove', (e) => {
    if (!last) return;
    e.preventDefault();
    const events = typeof e.getCoalescedEvents === 'function' ? e.getCoalescedEvents() : [];
    for (const ev of events.length ? events : [e]) {
      const p = point(ev);
      ctx.beginPath();
      ctx.moveTo(last.x, last.y);
      ctx.lineTo(p.x, p.y);
      ctx.stroke();
      last = p;
    }
  });
  const stop = () => {
    last = null;
  };
  canvas.addEventListener('pointerup', stop);
  canvas.addEventListener('pointercancel', stop);
  const clear = h('button', { type: 'button', class: 'btn btn-small btn-secondary', text: t('clear') });
  clear.addEventListener('click', () => {
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    hasInk = false;
  });

  // Typing
  const typed = h('input', {
    id: 'pad-typed',
    class: 'input',
    type: 'text',
    maxlength: String(TYPED_MAX),
    autocomplete: isSignature ? 'name' : 'off',
    dir: 'auto',
  });
  const name = view.signer?.name ?? '';
  typed.value = existing?.type === 'typed' ? existing.text : isSignature ? name : initialsOf(name);
  const preview = h('p', { class: `pad-preview script pad-${kind}`, dir: 'auto', 'aria-label': t('typePreview') });
  const syncPreview = () => {
    preview.textContent = typed.value;
    if (typed.value.trim()) padError.textContent = '';
  };
  typed.addEventListener('input', syncPreview);

  const drawPanel = h(
    'div',
    { class: 'pad-panel', id: 'pad-panel-draw', role: 'tabpanel', 'aria-labelledby': 'pad-tab-draw' },
    h('p', { class: 'dialog-text', id: 'draw-hint', text: t('drawHint') }),
    h('div', { class: 'pad-frame' }, canvas),
    h('div', { class: 'pad-tools' }, clear),
  );
  const typePanel = h(
    'div',
    { class: 'pad-panel', id: 'pad-panel-type', role: 'tabpanel', 'aria-labelledby': 'pad-tab-type' },
    h('label', { for: 'pad-typed', class: 'label', text: t(isSignature ? 'typeLabelSignature' : 'typeLabelInitials') }),
    typed,
    h('div', { class: 'pad-frame' }, preview),
  );
  const tabs = {
    draw: h('button', { type: 'button', role: 'tab', id: 'pad-tab-draw', class: 'tab', 'aria-controls': 'pad-panel-draw', text: t('tabDraw') }),
    type: h('button', { type: 'button', role: 'tab', id: 'pad-tab-type', class: 'tab', 'aria-controls': 'pad-panel-type', text: t('tabType') }),
  };
  const select = (which, focus = false) => {
    tab = which;
    for (const [key, button] of Object.entries(tabs)) {
      const selected = key === which;
      button.setAttribute('aria-selected', String(selected));
      button.tabIndex = selected ? 0 : -1;
    }
    drawPanel.hidden = which !== 'draw';
    typePanel.hidden = which !== 'type';
    padError.textContent = '';
    if (focus) tabs[which].focus();
    if (which === 'type') syncPreview();
  };
  for (const [key, button] of Object.entries(tabs)) {
    button.addEventListener('click', () => select(key));
    button.addEventListener('keydown', (e) => {
      if (['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(e.key)) {
        e.preventDefault();
        select(key === 'draw' ? 'type' : 'draw', true);
      }
    });
  }
  const tablist = h('div', { class: 'tabs', role: 'tablist', 'aria-label': t('padModes') }, tabs.draw, tabs.type);

  const padError = h('p', { class: 'form-error', role: 'alert' });
  const apply = h('button', { type: 'submit', class: 'btn btn-primary', text: t('apply') });
  const cancel = h('button', { type: 'button', class: 'btn btn-secondary', text: t('cancel') });
  const titleId = 'pad-title';
  const form = h(
    'form',
    { class: 'dialog-body', novalidate: true },
    h('h2', { id: titleId, class: 'dialog-title', text: t(isSignature ? 'padTitleSignature' : 'padTitleInitials') }),
    tablist,
    drawPanel,
    typePanel,
    padError,
    h('div', { class: 'dialog-actions' }, cancel, apply),
  );
  const dialog = h('dialog', { class: 'dialog dialog-pad', 'aria-labelledby': titleId }, form);
  cancel.addEventListener('click', () => dialog.close());
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    let mark = null;
    if (tab === 'draw' && hasInk) mark = { type: 'drawn', image: croppedPng(canvas) };
    if (tab === 'type' && typed.value.trim()) mark = { type: 'typed', text: typed.value.trim().slice(0, TYPED_MAX) };
    if (!mark) {
      padError.textContent = t('padEmpty');
      return;
    }
    state.marks[kind] = mark;
    refreshMarks();
    updateProgress();
    dialog.close();
  });
  select(tab);
  openDialog(dialog, opener);
  tabs[tab].focus();
}

/** The drawing cropped to its ink (plus a margin), as a PNG data URL. */
function croppedPng(canvas) {
  const { width, height } = canvas;
  const data = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d')).getImageData(0, 0, width, height).data;
  let minX = width;
  let minY = height;
  let maxX = -1;
  let maxY = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (data[(y * width + x) * 4 + 3] === 0) continue;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
  }
  if (maxX < 0) return canvas.toDataURL('image/png');
  const margin = 8;
  const sx = Math.max(0, minX - margin);
  const sy = Math.max(0, minY - margin);
  const sw = Math.min(width, maxX + margin + 1) - sx;
  const sh = Math.min(height, maxY + margin + 1) - sy;
  const out = document.createElement('canvas');
  out.width = sw;
  out.height = sh;
  /** @type {CanvasRenderingContext2D} */ (out.getContext('2d')).drawImage(canvas, sx, sy, sw, sh, 0, 0, sw, sh);
  return out.toDataURL('image/png');
}

// ---------------------------------------------------------------------------------------------
// Start

async function start() {
  setLang(guessLang());
  showLoading();
  let view;
  try {
    view = await api('POST', viewPath());
  } catch (e) {
    showFatal(e, start);
    return;
  }
  state.view = view;
  setLang(view.lang);
  document.title = view.request?.document_name ? state.t('pageTitle', { document: view.request.document_name }) : state.t('pageTitleGeneric');
  if (view.state === 'closed') {
    showClosed();
    return;
  }
  post('signing.loaded');
  if (view.verification_required) {
    post('signing.verification_required');
    showOtp();
    return;
  }
  await showDocument();
}

start();
