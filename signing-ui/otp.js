// @ts-check
// Email verification: the code mailed to the signer, checked before the document is shown.
import { api, ApiError, errorText, viewPath } from './api.js';
import { formatTime, state } from './context.js';
import { h, icon } from './dom.js';
import { showDocument } from './document.js';
import { focusTitle, header, reloadIfClosed, render, setScreen, showClosed } from './screens.js';

export function showOtp() {
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

  // One message at a time: an error hides the status, a new status clears the error.
  /** @param {string} message */
  const showError = (message) => {
    error.textContent = message;
    status.hidden = Boolean(message);
    code.setAttribute('aria-invalid', message ? 'true' : 'false');
  };
  /** @param {string} message */
  const showStatus = (message) => {
    status.textContent = message;
    status.hidden = false;
    error.textContent = '';
    code.setAttribute('aria-invalid', 'false');
  };
  // Locked (15 wrong codes in 24 hours): no code can be sent or entered until then, so neither is offered.
  /** @param {string | null | undefined} until */
  const lockOut = (until) => {
    form.hidden = true;
    sendButton.hidden = true;
    return until ? t('otpLocked', { time: formatTime(until) }) : t('otpLockedNoTime');
  };
  /** @param {unknown} e */
  const explain = (e) => {
    if (e instanceof ApiError && e.reason === 'otp_locked') return lockOut(e.lockedUntil);
    if (e instanceof ApiError && e.reason === 'otp_code_expired') return t('codeExpired');
    if (e instanceof ApiError && e.status === 400) return t('codeFormat');
    return errorText(e);
  };

  const sendCode = async () => {
    if (state.busy) return;
    state.busy = true;
    sendButton.disabled = true;
    sendButton.textContent = t('sendingCode');
    showError('');
    try {
      const sent = await api('POST', '/otp');
      if (sent.sent) {
        showStatus(t('codeSent', { email }));
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
  };
  sendButton.addEventListener('click', sendCode);

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
        showStatus(t('verified'));
        state.busy = false;
        const view = await api('POST', viewPath());
        state.view = view;
        if (view.state === 'closed') showClosed();
        else await showDocument();
        return;
      }
      if (checked.locked_until) {
        showError(lockOut(checked.locked_until));
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
          // Status, the code box, then "send a new code" (the first button until a code is sent).
          status,
          form,
          error,
          h('div', { class: 'card-actions' }, sendButton),
        ),
      ),
    ),
  );
  focusTitle();
  // The page mails the code itself when the screen opens, unless a code it mailed is still valid (a
  // reload, another tab): then it asks for that one. "Send a new code" mails another either way.
  if (view.code_live) {
    form.hidden = false;
    sendButton.textContent = t('resendCode');
    sendButton.className = 'btn btn-link';
    showStatus(t('codeSentEarlier', { email }));
  } else {
    void sendCode();
  }
}
