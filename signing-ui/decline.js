// @ts-check
// Declining: the reason, then the request is declined for every signer.
import { api, errorText } from './api.js';
import { REASON_MAX, state } from './context.js';
import { openDialog } from './dialog.js';
import { h } from './dom.js';
import { finish, reloadIfClosed } from './screens.js';
import { setBusy } from './store.js';

/** @param {HTMLElement} opener */
export function openDecline(opener) {
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
    setBusy(true);
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
      setBusy(false);
    }
  });
  openDialog(dialog, opener);
  reason.focus();
}
