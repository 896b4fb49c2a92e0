// @ts-check
// The signer's fields: what each one is and needs, its element on the page, the marks shown in them,
// progress through the required ones and the "next field" move.
import { joinList, state, VALUE_MAX } from './context.js';
import { fitText, h, icon } from './dom.js';
import { guideTo, isPhone, updateGuide } from './guide.js';
import { openPad } from './pad.js';

/** @typedef {import('./context.js').Field} Field */
/** @typedef {import('./context.js').MarkKind} MarkKind */

/** @type {(field: Field) => boolean} */
export const isMark = (field) => field.type === 'signature' || field.type === 'initials';
/** @type {(field: Field) => boolean} */
export const isRequired = (field) => isMark(field) || field.editable;
/** @type {(field: Field) => boolean} */
export const isDone = (field) => (isMark(field) ? state.marks[/** @type {MarkKind} */ (field.type)] !== null : String(state.values.get(field.id) ?? '').trim() !== '');

/** @param {string} name */
function humanize(name) {
  const words = name.replace(/_/g, ' ').trim();
  return words ? words[0].toUpperCase() + words.slice(1) : '';
}

/** @param {Field} field */
export function fieldLabel(field) {
  const { t } = state;
  if (field.type === 'signature') return t('fieldSignature');
  if (field.type === 'initials') return t('fieldInitials');
  if (field.field_key) return t(`key_${field.field_key}`);
  if (field.name) return humanize(field.name);
  return t(field.type === 'date' ? 'fieldDate' : 'fieldText');
}

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
    });
    input.value = field.value;
    input.addEventListener('input', () => {
      state.values.set(field.id, input.value);
      updateProgress();
    });
    input.addEventListener('click', () => {
      if (isPhone()) guideTo(field, { focus: true });
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
  }
  return box;
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
export function refreshMarks() {
  const { t } = state;
  updateGuide();
  for (const button of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll('.field-mark'))) {
    const kind = /** @type {MarkKind} */ (button.dataset.kind);
    const mark = state.marks[kind];
    const label = button.dataset.label;
    button.replaceChildren();
    if (!mark) {
      const cta = t(kind === 'signature' ? 'signHere' : 'initialHere');
      const words = h('span', { class: 'field-cta', text: cta });
      // A small box (initials of 50×30 pt) shows its words whole: the pen goes, the words shrink to fit.
      const small = button.clientWidth > 0 && button.clientWidth < 110;
      button.append(...(small ? [] : [icon('pen', 'icon field-icon')]), words);
      fitText(words);
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

export function updateProgress() {
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
  ui.hint.textContent = !view.can_sign && view.waiting_for.length ? t('waitingShort', { names: (view.waiting_for_names ? joinList(view.waiting_for_names, false) : joinList(view.waiting_for)) }) : !complete || !state.consent ? t('signHint') : '';
  ui.hint.hidden = ui.hint.textContent === '';
  updateGuide();
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
    guideTo(field, { focus: true });
    return;
  }
  const control = /** @type {HTMLInputElement | HTMLButtonElement | null | undefined} */ (next?.querySelector('input, button'));
  if (!control) return;
  highlight(next);
  control.scrollIntoView({ block: 'center', behavior: 'smooth' });
  control.focus({ preventScroll: true });
}
