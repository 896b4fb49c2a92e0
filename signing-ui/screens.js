// @ts-check
// The page's frame (header) and its message screens: loading, closed, result, error, redirect.
import { api, ApiError, errorText, viewPath } from './api.js';
import { apiBase, app, embedded, formatTime, isWebUrl, joinList, root, state } from './context.js';
import { h, icon } from './dom.js';
import { post } from './embed.js';

/** @typedef {import('./context.js').Outcome} Outcome */

/** Back to the client's site; replace() so that Back does not land on a page that sends the signer away again. */
/** @param {string} url */
export function leaveTo(url) {
  render(card({ icon: 'clock', title: state.t('redirecting'), screen: 'redirecting' }));
  location.replace(url);
}

// ---------------------------------------------------------------------------------------------
// Screens

/** @param {...Node} nodes */
export function render(...nodes) {
  app.replaceChildren(...nodes);
  app.setAttribute('aria-busy', 'false');
}

/** @param {string} name */
export function setScreen(name) {
  root.dataset.screen = name;
}

/** Who asks: the sender's name (or "the sender"), for sentences. */
export function senderName() {
  return state.view?.request?.sender_name || state.t('theSender');
}

/**
 * The top bar: who asks (logo or name), the document, who signs and until when the link is valid,
 * and the test badge (labelled at every width).
 */
export function header({ heading = false } = {}) {
  const { t, view } = state;
  const request = view?.request ?? null;
  const documentName = request?.document_name ?? '';
  const who = view?.signer ? view.signer.name || view.signer.email : '';
  const sender = request?.sender_name ?? '';
  const logo = request?.logo_url
    ? h('img', { class: 'sender-logo', src: request.logo_url, alt: sender || t('theSender'), referrerpolicy: 'no-referrer', decoding: 'async' })
    : null;
  if (logo) logo.addEventListener('error', () => logo.remove());
  const expires = view?.state === 'open' && view.signer?.expires_at ? t('linkExpires', { date: formatTime(view.signer.expires_at) }) : '';
  return h(
    'header',
    { class: 'topbar' },
    h(
      'div',
      { class: 'topbar-inner' },
      h(
        'div',
        { class: 'sender' },
        logo,
        h('p', {
          class: sender ? 'sender-name' : 'sender-name brand',
          text: request ? (sender ? t('requestFrom', { sender }) : t('requestFromUnknown')) : view?.brand || 'paraph',
        }),
      ),
      h(
        'div',
        { class: 'doc-meta' },
        documentName ? h(heading ? 'h1' : 'p', { class: 'doc-name', text: documentName }) : null,
        who || expires
          ? h(
              'p',
              { class: 'signer-name' },
              who ? h('span', { text: t('signingAs', { name: who }) }) : null,
              expires ? h('span', { class: 'link-expiry', text: expires }) : null,
            )
          : null,
      ),
      h(
        'p',
        { class: 'badge', title: t('testNote') },
        icon('alert', 'icon icon-sm'),
        h('span', { class: 'badge-long', text: t('testBadge') }),
        h('span', { class: 'badge-short', 'aria-hidden': 'true', text: t('testBadgeShort') }),
      ),
    ),
  );
}

/**
 * A centred message screen (loading, closed, result, error, redirect).
 * @param {{ icon?: keyof typeof import('./dom.js').ICONS, tone?: string, title: string, lines?: string[], actions?: HTMLElement[], screen: string, busy?: boolean }} options
 */
export function card({ icon: iconName, tone = 'neutral', title, lines = [], actions = [], screen, busy = false }) {
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

export function focusTitle() {
  const title = document.getElementById('card-title');
  if (title) title.focus({ preventScroll: true });
}

export function showLoading() {
  render(card({ busy: true, title: state.t('loading'), screen: 'loading' }));
  app.setAttribute('aria-busy', 'true');
}

/**
 * @param {unknown} error
 * @param {(() => void) | null} [retry]
 */
export function showFatal(error, retry) {
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

export function showClosed() {
  const { t, view } = state;
  const known = view.request !== null;
  const reason = view.closed_reason ?? 'unavailable';
  post('signing.closed', { status: reason });
  if (!embedded && view.return_url && isWebUrl(view.return_url)) {
    leaveTo(view.return_url);
    return;
  }
  root.dataset.closedReason = known ? reason : 'unknown';
  if (!known) {
    render(card({ icon: 'alert', title: t('closedTitle_unknown'), lines: [t('closed_unknown')], screen: 'closed' }));
    focusTitle();
    return;
  }
  if (reason === 'signed') {
    // Once every signer signed (the completion mail's link), the page is the signer's copy of the document.
    if (view.signed_pdf !== 'none') {
      showCopy({ title: t('closedTitle_signedCopy'), lines: [t('closed_signedCopy', { document: view.request?.document_name ?? '' })], screen: 'closed' });
      return;
    }
    showCopy({ title: t('closedTitle_signed'), lines: [t('closed_signed')], screen: 'closed' });
    return;
  }
  const why =
    reason === 'cancelled' && view.request?.cancellation_reason ? [t('closedReason', { sender: senderName(), reason: view.request.cancellation_reason })] : [];
  render(
    card({
      icon: reason === 'declined' || reason === 'cancelled' ? 'block' : 'lock',
      title: t(`closedTitle_${reason}`),
      lines: [t(`closed_${reason}`), ...why, t(`closedDo_${reason}`, { sender: senderName() })],
      screen: 'closed',
    }),
  );
  focusTitle();
}

/**
 * The signed signer's screen: the signed PDF to download when it is ready, or where it stands.
 * @param {{ title: string, lines: string[], screen: string, outcome?: Outcome | null }} options
 */
function showCopy({ title, lines, screen, outcome = null }) {
  const { t, view } = state;
  const copy = view.signed_pdf;
  const more = [...lines];
  /** @type {HTMLElement[]} */
  const actions = [];
  let poll = false;
  if (copy === 'ready') {
    more.push(t('copyReady'));
    actions.push(
      h(
        'a',
        { class: 'btn btn-primary', id: 'download-signed', href: `${apiBase}/signed-document`, download: '' },
        icon('download', 'icon icon-sm'),
        h('span', { text: t('downloadSigned') }),
      ),
    );
  } else if (copy === 'pending') {
    more.push(t('copyPreparing'));
    poll = true;
  } else if (copy === 'purged') {
    more.push(t('copyPurged', { sender: senderName() }));
  } else if (outcome?.request_status === 'completed') {
    more.push(t('copyPreparing'));
    poll = true;
  } else {
    more.push(t('copyWaiting'));
  }
  if (outcome && !embedded) more.push(t('resultClose'));
  render(card({ icon: 'checkCircle', tone: 'success', title, lines: more, actions, screen, busy: false }));
  root.dataset.copy = copy;
  focusTitle();
  if (poll) pollCopy(() => showCopy({ title, lines, screen, outcome }));
}

/**
 * Asks the view again until the signed PDF is ready (a few seconds after the last signature).
 * @param {() => void} again
 * @param {number} [tries]
 */
function pollCopy(again, tries = 0) {
  if (tries > 60) return;
  window.setTimeout(
    async () => {
      try {
        const fresh = await api('POST', viewPath());
        if (fresh.signed_pdf !== 'pending' && fresh.signed_pdf !== 'none') {
          state.view = fresh;
          again();
          return;
        }
      } catch {
        // try again below
      }
      pollCopy(again, tries + 1);
    },
    1000 + tries * 250,
  );
}

/** @param {Outcome} outcome */
export function showResult(outcome) {
  const { t, view } = state;
  const documentName = view.request?.document_name ?? '';
  const signed = outcome.status === 'signed';
  root.dataset.outcome = outcome.status;
  if (signed) {
    const lines = [t('resultSignedText', { document: documentName })];
    if (outcome.request_status !== 'completed') lines.push(nextStep(outcome));
    state.view = { ...view, signed_pdf: outcome.request_status === 'completed' ? 'pending' : 'none' };
    showCopy({ title: t('resultSignedTitle'), lines, screen: 'result', outcome });
    return;
  }
  const lines = [t('resultDeclinedText', { document: documentName })];
  if (!embedded) lines.push(t('resultClose'));
  render(card({ icon: 'block', tone: 'neutral', title: t('resultDeclinedTitle'), lines, screen: 'result' }));
  focusTitle();
}

/**
 * What happens now that the signer signed, as the server says it.
 * @param {Outcome} outcome
 */
function nextStep(outcome) {
  const { t } = state;
  if (outcome.request_status === 'expired') return t('resultExpired');
  const names = joinList(outcome.next_names ?? [], false);
  if (outcome.next === 'next_mailed' && names) return t('resultNextMailed', { names });
  if (outcome.next === 'next_not_mailed' && names) return t('resultNextNotMailed', { names });
  return t('resultPending');
}

/** @param {Outcome} outcome */
export function finish(outcome) {
  post(outcome.status === 'signed' ? 'signing.signed' : 'signing.declined');
  if (!embedded && outcome.return_url && isWebUrl(outcome.return_url)) {
    leaveTo(outcome.return_url);
    return;
  }
  showResult(outcome);
}

/**
 * A 409 after the page loaded usually means the link closed meanwhile: show why.
 * @param {unknown} error
 */
export async function reloadIfClosed(error) {
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
