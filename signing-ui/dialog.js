// @ts-check
// A modal dialog: appended, shown, removed on close, focus back to what opened it.

/**
 * @param {HTMLDialogElement} dialog
 * @param {HTMLElement | (() => HTMLElement | null) | null} [opener] what gets the focus back: the element
 *   that opened the dialog, or a function that finds it once the dialog is closed (where what the dialog
 *   changed redraws the opener, as the guide redraws its button once a mark is applied)
 */
export function openDialog(dialog, opener) {
  document.body.append(dialog);
  dialog.addEventListener('close', () => {
    dialog.remove();
    const target = typeof opener === 'function' ? opener() : opener;
    if (target?.isConnected) target.focus();
  });
  dialog.showModal();
}
