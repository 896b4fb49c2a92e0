// @ts-check
// The document screen: the sender's message, progress, the pages with the signer's fields, consent,
// and signing or declining.
import { api, errorText } from './api.js';
import { joinList, state } from './context.js';
import { openDecline } from './decline.js';
import { h, icon } from './dom.js';
import { focusNextField } from './fields.js';
import { guideElement } from './guide.js';
import { layoutPages, loadPdfjs } from './pages.js';
import { finish, header, reloadIfClosed, render, senderName, setScreen } from './screens.js';
import { changed, setBusy, setConsent } from './store.js';
import { zoomControls } from './zoom.js';

/** @typedef {import('./context.js').DocumentUi} DocumentUi */
/** @typedef {import('./context.js').Mark} Mark */
/** @typedef {import('./context.js').MarkKind} MarkKind */

export async function showDocument() {
  const { t, view } = state;
  // Coming from the email code step (its box and button are gone): focus moves to the document's title.
  const hadFocus = document.documentElement.dataset.screen === 'otp' || (document.activeElement !== null && document.activeElement !== document.body);
  setScreen('document');
  document.title = t('pageTitle', { document: view.request?.document_name ?? '' });
  state.values = new Map(view.fields.filter((f) => f.editable).map((f) => [f.id, f.value]));
  state.consent = false;

  const notices = h('div', { class: 'notices' });
  if (view.request?.message) notices.append(messageNotice(view.request.message));
  if (view.waiting_for.length > 0) {
    notices.append(
      h(
        'section',
        { class: 'notice notice-wait', role: 'status', id: 'waiting-notice' },
        icon('clock'),
        h(
          'div',
          {},
          h('h2', { class: 'notice-title', text: t('waitingTitle') }),
          h('p', { text: t('waitingText', { names: view.waiting_for_names ? joinList(view.waiting_for_names, false) : joinList(view.waiting_for) }) }),
        ),
      ),
    );
  }
  const errors = h('div', { class: 'errors', id: 'errors' });

  const progressText = h('p', { class: 'progress-text', id: 'progress-text', 'aria-live': 'polite' });
  const progressBar = h('div', { class: 'progress-bar', 'aria-hidden': 'true' }, h('span', { class: 'progress-fill' }));
  const nextButton = h(
    'button',
    { type: 'button', class: 'btn btn-small btn-secondary', id: 'next-field' },
    h('span', { text: t('nextField') }),
    icon('next', 'icon icon-sm icon-flip'),
  );
  nextButton.addEventListener('click', focusNextField);
  const progress = h(
    'div',
    { class: 'progress', role: 'group', 'aria-labelledby': 'progress-text' },
    h('div', { class: 'progress-info' }, progressText, progressBar),
    nextButton,
  );
  const guide = guideElement();

  const pages = h('div', { class: 'pages', id: 'document', dir: 'ltr', tabindex: '-1', role: 'region', 'aria-label': t('documentRegion') });
  pages.append(
    h('p', { class: 'pages-loading', role: 'status' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), h('span', { text: t('loadingDocument') })),
  );

  const consent = h('input', { type: 'checkbox', id: 'consent', class: 'checkbox' });
  consent.addEventListener('change', () => setConsent(consent.checked));
  const signButton = h(
    'button',
    { type: 'button', class: 'btn btn-primary', id: 'sign-button', 'aria-describedby': 'sign-hint' },
    icon('pen', 'icon icon-sm'),
    h('span', { text: t('sign') }),
  );
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
      guide,
      h('div', { class: 'consent' }, consent, h('label', { for: 'consent', text: t('consent') })),
      h('div', { class: 'buttons' }, declineButton, signButton),
      hint,
    ),
  );

  state.ui = { progressText, progressBar, nextButton, signButton, declineButton, hint, errors, pages, consent, guide, entries: [] };
  render(
    h(
      'div',
      { class: 'layout layout-document' },
      h('a', { class: 'skip-link', href: '#document', text: t('skipToDocument') }),
      header({ heading: true }),
      h('main', { class: 'main', id: 'main' }, notices, errors, progress, zoomControls(), pages, h('p', { class: 'sandbox-note', text: t('testNote') })),
      actions,
    ),
  );
  changed('layout');
  if (hadFocus && (document.activeElement === null || document.activeElement === document.body)) {
    const title = /** @type {HTMLElement | null} */ (document.querySelector('h1.doc-name'));
    if (title) {
      title.tabIndex = -1;
      title.focus({ preventScroll: true });
    }
  }

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
        h(
          'div',
          {},
          h('p', { text: errorText(e) }),
          h('button', { type: 'button', class: 'btn btn-small btn-secondary', onclick: () => showDocument(), text: t('retry') }),
        ),
      ),
    );
  }
}

/** @param {string} message */
function showBanner(message) {
  const { errors } = /** @type {DocumentUi} */ (state.ui);
  const close = h('button', { type: 'button', class: 'btn btn-icon', 'aria-label': state.t('dismiss') }, icon('close', 'icon icon-sm'));
  const banner = h('div', { class: 'notice notice-error', role: 'alert' }, icon('alert'), h('p', { text: message }), close);
  close.addEventListener('click', () => banner.remove());
  errors.replaceChildren(banner);
  banner.scrollIntoView({ block: 'nearest' });
}

async function doSign() {
  const { view, t } = state;
  const ui = /** @type {DocumentUi} */ (state.ui);
  if (state.busy || ui.signButton.disabled) return;
  /** @type {Record<string, string>} */
  const fields = {};
  for (const field of view.fields) if (field.editable) fields[field.name || field.id] = state.values.get(field.id) ?? '';
  /** @type {{ fields: Record<string, string>, signature?: Mark | null, initials?: Mark | null }} */
  const body = { fields };
  for (const kind of /** @type {MarkKind[]} */ (['signature', 'initials'])) if (view.fields.some((f) => f.type === kind)) body[kind] = state.marks[kind];
  setBusy(true);
  /** @type {ChildNode} */ (ui.signButton.lastChild).textContent = t('signing');
  try {
    const outcome = await api('POST', '/sign', body);
    finish(outcome);
  } catch (e) {
    /** @type {ChildNode} */ (ui.signButton.lastChild).textContent = t('sign');
    setBusy(false);
    if (!(await reloadIfClosed(e))) showBanner(errorText(e));
  }
}

/**
 * The sender's message. On a phone it folds to its title line, with a button that shows it, so the
 * first screen shows the document; wider screens always show it whole (the button is not there).
 * @param {string} message
 */
function messageNotice(message) {
  const { t, view } = state;
  const title = view.request?.sender_name ? t('senderMessage', { sender: senderName() }) : t('senderMessageNoName');
  const quote = h('blockquote', { class: 'message-text', dir: 'auto', id: 'message-text', text: message });
  const toggle = h('button', {
    type: 'button',
    class: 'btn btn-link message-toggle',
    'aria-expanded': 'false',
    'aria-controls': 'message-text',
    text: t('messageShow'),
  });
  const notice = h(
    'section',
    { class: 'notice notice-message is-folded', id: 'sender-message', 'aria-labelledby': 'sender-message-title' },
    icon('mail'),
    h('div', {}, h('div', { class: 'message-head' }, h('h2', { class: 'notice-title', id: 'sender-message-title', text: title }), toggle), quote),
  );
  toggle.addEventListener('click', () => {
    const open = notice.classList.toggle('is-folded') === false;
    toggle.setAttribute('aria-expanded', String(open));
    toggle.textContent = t(open ? 'messageHide' : 'messageShow');
  });
  return notice;
}
