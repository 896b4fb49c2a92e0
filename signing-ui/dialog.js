// @ts-check
// A modal dialog: appended, shown, removed on close, focus back to what opened it.

/**
 * @param {HTMLDialogElement} dialog
 * @param {HTMLElement | null} [opener]
 */
export function openDialog(dialog, opener) {
  document.body.append(dialog);
  dialog.addEventListener('close', () => {
    dialog.remove();
    if (opener?.isConnected) opener.focus();
  });
  dialog.showModal();
}
