// @ts-check
// The phone guide: below 600 px, the signer fills one field at a time in a sheet at the bottom of
// the screen (16 px inputs, 44 px targets); the page scrolls to the field and highlights it. It
// follows the store: a change redraws it, a field asked for (a tap, "next field") moves it there.
import { isPhone, state, VALUE_MAX } from './context.js';
import { h, icon } from './dom.js';
import { fieldLabel, isDone, isMark, requiredInOrder as steps } from './field-model.js';
import { highlight } from './fields.js';
import { openPad } from './pad.js';
import { onChange, onShowField, setValue } from './store.js';

let current = 0;
/** Once every field is filled the guide folds to one line, unless the signer went back to a field. */
let reviewing = false;

onChange(() => updateGuide());
onShowField((field, { focus }) => guideTo(field, { focus }));

export function guideElement() {
  return h('section', { class: 'guide', id: 'guide', 'aria-labelledby': 'guide-step' });
}

/**
 * Moves the guide to a field: the sheet shows it, the page scrolls to it and highlights it.
 * @param {import('./context.js').Field} field
 * @param {{ focus?: boolean }} [options]
 */
function guideTo(field, { focus = false } = {}) {
  const index = steps().findIndex((f) => f.id === field.id);
  if (index < 0) return;
  current = index;
  reviewing = true;
  updateGuide({ focus, scroll: true });
}

function updateGuide({ focus = false, scroll = false } = {}) {
  const guide = state.ui?.guide;
  if (!guide || !state.view) return;
  const { t } = state;
  const list = steps();
  if (list.length === 0) {
    guide.hidden = true;
    return;
  }
  guide.hidden = false;
  // Redraw only on a move or when the step's state changed (typing must keep the input).
  const active = document.activeElement;
  const allDone = list.every(isDone);
  // Consent (below the guide) is shown on a phone once every field is filled.
  guide.classList.toggle('is-complete', allDone);
  if (!focus && !scroll && guide.contains(active) && active?.id === 'guide-input') {
    guide.querySelector('.guide-next')?.toggleAttribute('data-ready', isDone(list[current]));
    return;
  }
  if (current >= list.length) current = list.length - 1;
  const field = list[current];
  const label = fieldLabel(field);
  const box = document.querySelector(`.field-box[data-field-id="${CSS.escape(field.id)}"]`);

  // One row under one line of text: previous (an arrow, named), the field's input or mark button, next.
  const prev = h(
    'button',
    { type: 'button', class: 'btn btn-secondary guide-prev', disabled: current === 0, 'aria-label': t('guidePrev'), title: t('guidePrev') },
    icon('next', 'icon icon-sm icon-back'),
  );
  const last = current === list.length - 1;
  const next = h(
    'button',
    { type: 'button', class: 'btn btn-secondary guide-next' },
    h('span', { text: t(last ? 'guideDone' : 'guideNext') }),
    last ? null : icon('next', 'icon icon-sm icon-flip'),
  );
  prev.addEventListener('click', () => {
    current = Math.max(0, current - 1);
    reviewing = true;
    updateGuide({ focus: true, scroll: true });
  });
  next.addEventListener('click', () => {
    if (last) {
      current = list.findIndex((f) => !isDone(f));
      if (current < 0) {
        current = list.length - 1;
        reviewing = false;
        updateGuide();
        document.getElementById('consent')?.focus();
        return;
      }
    } else current += 1;
    updateGuide({ focus: true, scroll: true });
  });

  if (allDone && !reviewing) {
    const review = h('button', { type: 'button', class: 'btn btn-link guide-review', text: t('guideReview') });
    review.addEventListener('click', () => {
      reviewing = true;
      current = 0;
      updateGuide({ focus: true, scroll: true });
    });
    guide.classList.add('is-folded');
    guide.replaceChildren(
      h('div', { class: 'guide-head' }, h('p', { class: 'guide-done', id: 'guide-step', role: 'status', text: t('guideAllDone') }), review),
    );
    highlight(null);
    return;
  }
  guide.classList.remove('is-folded');
  /** @type {HTMLButtonElement | HTMLInputElement} */
  let control;
  if (isMark(field)) {
    const kind = /** @type {import('./context.js').MarkKind} */ (field.type);
    const mark = state.marks[kind];
    const cta = t(field.type === 'signature' ? 'signHere' : 'initialHere');
    control = h(
      'button',
      { type: 'button', class: 'btn btn-secondary guide-mark', id: 'guide-input', 'aria-describedby': 'guide-label' },
      mark?.type === 'drawn'
        ? h('img', { class: 'mark-image', src: mark.image, alt: '' })
        : mark?.type === 'typed'
          ? h('span', { class: 'mark-typed script', dir: 'auto', text: mark.text })
          : icon('pen', 'icon icon-sm'),
      mark ? null : h('span', { text: cta }),
    );
    if (mark) control.setAttribute('aria-label', t('changeMark', { label }));
    // The mark applied redraws the guide: the focus goes back to its control as redrawn (the next
    // field's, or the consent box once every field is filled).
    control.addEventListener('click', () => openPad(kind, () => document.getElementById('guide-input') ?? document.getElementById('consent')));
  } else {
    const pageInput = box?.querySelector('input');
    const input = h('input', {
      id: 'guide-input',
      class: 'input guide-input',
      type: pageInput?.dataset.date ? 'date' : 'text',
      maxlength: String(VALUE_MAX),
      autocomplete: pageInput?.getAttribute('autocomplete') ?? 'off',
      dir: 'auto',
      placeholder: t('enterValue', { label }),
      enterkeyhint: last ? 'done' : 'next',
    });
    input.value = state.values.get(field.id) ?? '';
    input.addEventListener('input', () => {
      if (pageInput) pageInput.value = input.value;
      setValue(field.id, input.value);
    });
    input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') {
        event.preventDefault();
        next.click();
      }
    });
    control = input;
  }
  guide.replaceChildren(
    h(
      'div',
      { class: 'guide-head' },
      h('p', { class: 'guide-step', id: 'guide-step', text: t('guideStep', { n: current + 1, total: list.length }) }),
      h('label', { class: 'label guide-label', id: 'guide-label', for: 'guide-input', text: t('fieldOnPage', { label, n: field.page }) }),
      allDone ? h('p', { class: 'guide-done', role: 'status', text: t('guideAllDone') }) : null,
    ),
    h('div', { class: 'guide-row' }, prev, control, next),
  );
  if ((state.ui?.guideField !== field.id && box) || scroll) {
    if (state.ui) state.ui.guideField = field.id;
    if (isPhone()) {
      highlight(box);
      if (scroll) box?.scrollIntoView({ block: 'center', behavior: 'smooth' });
    }
  }
  if (focus) control.focus({ preventScroll: true });
}
