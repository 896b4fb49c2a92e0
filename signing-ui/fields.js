// @ts-check
// The signer's fields on the page: each one's element, the marks shown in them, progress through the
// required ones and the "next field" move. They follow the store: every change redraws what it touches.
import { isPhone, joinList, state, VALUE_MAX } from './context.js';
import { fitText, h, icon } from './dom.js';
import { fieldLabel, isDone, isMark, isRequired } from './field-model.js';
import { openPad } from './pad.js';
import { onChange, setValue, showField } from './store.js';

/** @typedef {import('./context.js').Field} Field */
/** @typedef {import('./context.js').MarkKind} MarkKind */

/** Words on the page are never drawn smaller than this (px). */
const READABLE_PX = 9;

onChange((what) => {
  if (what === 'mark' || what === 'layout') refreshMarks();
  if (what === 'value' || what === 'layout')
    for (const input of /** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll('.field-input'))) fitValue(input);
  updateProgress();
});

/** @type {Record<string, string>} */
const AUTOCOMPLETE = { signer_name: 'name', signer_email: 'email', company: 'organization', job_title: 'organization-title' };

/**
 * Places a box over its field's rectangle, in percent of the page, so it follows the page at any zoom;
 * its text follows the field's height (cqw: percent of the page's width).
 * @param {HTMLElement} box
 * @param {{ x: number, y: number, width: number, height: number }} field
 * @param {number} pageWidth
 * @param {number} pageHeight
 */
export function placeOnPage(box, field, pageWidth, pageHeight) {
  box.style.left = `${(field.x / pageWidth) * 100}%`;
  box.style.top = `${(field.y / pageHeight) * 100}%`;
  box.style.width = `${(field.width / pageWidth) * 100}%`;
  box.style.height = `${(field.height / pageHeight) * 100}%`;
  box.style.setProperty('--fs', `${((field.height * 0.58) / pageWidth) * 100}cqw`);
}

/** A field's box on its page: a button for a mark, an input for a value, a locked value otherwise. */
/**
 * @param {Field} field
 * @param {number} pageWidth
 * @param {number} pageHeight
 */
export function fieldElement(field, pageWidth, pageHeight) {
  const { t } = state;
  const label = t('fieldOnPage', { label: fieldLabel(field), n: field.page });
  const box = h('div', {
    class: `field-box field-${field.type}${isRequired(field) ? ' is-required' : ' is-locked'}`,
    dataset: { fieldId: field.id, fieldName: field.name || '' },
  });
  placeOnPage(box, field, pageWidth, pageHeight);

  if (isMark(field)) {
    const button = h('button', { type: 'button', class: 'field field-mark', 'aria-haspopup': 'dialog', dataset: { kind: field.type, label } });
    button.addEventListener('click', () => openPad(/** @type {MarkKind} */ (field.type), button));
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
      dataset: isDate ? { date: 'true' } : undefined,
    });
    input.value = field.value;
    input.addEventListener('input', () => setValue(field.id, input.value));
    input.addEventListener('blur', () => fitValue(input));
    input.addEventListener('click', () => {
      if (isPhone()) showField(field, { focus: true });
    });
    box.append(input, caption(field));
  } else {
    const input = h('input', {
      type: 'text',
      class: 'field field-locked',
      readonly: true,
      'aria-readonly': 'true',
      'aria-label': t(field.read_only ? 'fieldReadOnly' : 'fieldAutomatic', { label }),
      dir: 'auto',
    });
    // Dates shown as the signed PDF writes them (ISO 8601: one format for every signer of a document).
    input.value = field.value;
    input.title = label;
    box.append(input, icon('lock', 'icon field-lock'), caption(field));
    fitValue(input);
  }
  return box;
}

/**
 * A value shown whole in a small box (a locked one, or one entered and left): a locked box's lock makes
 * room first (it only repeats what the input's name says), then the text shrinks, not below a readable
 * size; if it still does not fit, the value reaches past the box's end rather than being cut. The
 * input being typed in is left alone.
 * @param {HTMLInputElement} input
 */
function fitValue(input) {
  const fit = () => {
    if (!input.isConnected || document.activeElement === input) return;
    input.classList.remove('is-tight');
    input.style.fontSize = '';
    input.style.width = '';
    if (input.scrollWidth <= input.clientWidth) return;
    input.classList.add('is-tight');
    let size = parseFloat(getComputedStyle(input).fontSize);
    while (size > READABLE_PX && input.scrollWidth > input.clientWidth) {
      size = Math.max(READABLE_PX, size * 0.92);
      input.style.fontSize = `${size}px`;
    }
    if (input.scrollWidth > input.clientWidth) input.style.width = `${input.offsetWidth + input.scrollWidth - input.clientWidth + 1}px`;
  };
  requestAnimationFrame(fit);
  document.fonts?.ready.then(fit);
}

/**
 * The label of a text or date box, shown above it whether the box is empty or filled (a placeholder
 * would go away once typed in); the input's own accessible name says the same.
 * @param {Field} field
 */
function caption(field) {
  return h('span', { class: 'field-caption', 'aria-hidden': 'true', dir: 'auto', text: fieldLabel(field) });
}

/** Shows the adopted signature/initials in every field of that kind. */
function refreshMarks() {
  const { t } = state;
  for (const button of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll('.field-mark'))) {
    const kind = /** @type {MarkKind} */ (button.dataset.kind);
    const mark = state.marks[kind];
    const label = button.dataset.label;
    button.replaceChildren();
    if (!mark) {
      const cta = t(kind === 'signature' ? 'signHere' : 'initialHere');
      const words = h('span', { class: 'field-cta', text: cta });
      // A small box shows its words whole: the pen goes, the words shrink to fit; a box too small for
      // readable words (initials of 50×30 pt on a phone) shows the pen alone, the words in its name.
      const small = button.clientWidth > 0 && button.clientWidth < 110;
      button.append(...(small ? [] : [icon('pen', 'icon field-icon')]), words);
      fitText(words, { min: READABLE_PX, tooSmall: () => words.replaceWith(icon('pen', 'icon field-icon')) });
      // The accessible name starts with the words shown (WCAG 2.5.3).
      button.setAttribute('aria-label', `${cta}: ${t('fieldRequired', { label })}`);
    } else if (mark.type === 'drawn') {
      button.append(h('img', { class: 'mark-image', src: mark.image, alt: '' }));
      button.setAttribute('aria-label', t('changeMark', { label }));
    } else {
      const typed = h('span', { class: 'mark-typed script', dir: 'auto', text: mark.text });
      button.append(typed);
      fitText(typed);
      // The accessible name starts with the text shown (WCAG 2.5.3, label in name).
      button.setAttribute('aria-label', `${mark.text}: ${t('changeMark', { label })}`);
    }
  }
}

/** The progress line, the "next field" button, each box's done state and what the sign button allows. */
function updateProgress() {
  const ui = state.ui;
  if (!ui) return;
  const { t, view } = state;
  const required = view.fields.filter(isRequired);
  const done = required.filter(isDone).length;
  const progressText = required.length ? t('progress', { done, total: required.length }) : t('progressNone');
  if (ui.progressText.textContent !== progressText) ui.progressText.textContent = progressText;
  /** @type {HTMLElement} */ (ui.progressBar.firstChild).style.width = `${required.length ? (done / required.length) * 100 : 100}%`;
  ui.nextButton.hidden = done === required.length;
  for (const box of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('.field-box.is-required'))) {
    const field = view.fields.find((f) => f.id === box.dataset.fieldId);
    box.classList.toggle('is-done', field ? isDone(field) : false);
  }
  const complete = done === required.length;
  ui.signButton.disabled = state.busy || !view.can_sign || !complete || !state.consent;
  ui.declineButton.disabled = state.busy;
  ui.hint.textContent =
    !view.can_sign && view.waiting_for.length
      ? t('waitingShort', { names: view.waiting_for_names ? joinList(view.waiting_for_names, false) : joinList(view.waiting_for) })
      : !complete || !state.consent
        ? t('signHint')
        : '';
  ui.hint.hidden = ui.hint.textContent === '';
}

/**
 * Shows which field a "next" or a tap went to.
 * @param {Element | null | undefined} box
 */
export function highlight(box) {
  for (const other of document.querySelectorAll('.field-box.is-current')) if (other !== box) other.classList.remove('is-current');
  box?.classList.add('is-current');
}

export function focusNextField() {
  const { view } = state;
  const boxes = Array.from(/** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('.field-box.is-required')));
  const next = boxes.find((box) => {
    const field = view.fields.find((f) => f.id === box.dataset.fieldId);
    return field && !isDone(field);
  });
  const field = next && view.fields.find((f) => f.id === next.dataset.fieldId);
  if (field && isPhone()) {
    showField(field, { focus: true });
    return;
  }
  const control = /** @type {HTMLInputElement | HTMLButtonElement | null | undefined} */ (next?.querySelector('input, button'));
  if (!control) return;
  highlight(next);
  control.scrollIntoView({ block: 'center', behavior: 'smooth' });
  control.focus({ preventScroll: true });
}
