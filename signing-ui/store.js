// @ts-check
// What the signer entered, changed in one place: a text or date value, an adopted mark, consent, a
// call in flight. Each change is announced; the views that show it (the fields and progress, the phone
// guide) listen and redraw, so no module refreshes another by hand.
import { state } from './context.js';

/** @typedef {import('./context.js').Field} Field */
/** @typedef {import('./context.js').Mark} Mark */
/** @typedef {import('./context.js').MarkKind} MarkKind */
/**
 * What changed: a field's value, a mark, consent, a call started or ended, or the document screen
 * (drawn again, its pages laid out).
 * @typedef {'value' | 'mark' | 'consent' | 'busy' | 'layout'} Change
 */

const bus = new EventTarget();

/** @param {Change} what */
export function changed(what) {
  bus.dispatchEvent(new CustomEvent('change', { detail: what }));
}

/** @param {(what: Change) => void} listener */
export function onChange(listener) {
  bus.addEventListener('change', (event) => listener(/** @type {CustomEvent<Change>} */ (event).detail));
}

/**
 * @param {string} fieldId
 * @param {string} value
 */
export function setValue(fieldId, value) {
  state.values.set(fieldId, value);
  changed('value');
}

/**
 * @param {MarkKind} kind
 * @param {Mark} mark
 */
export function setMark(kind, mark) {
  state.marks[kind] = mark;
  changed('mark');
}

/** @param {boolean} consent */
export function setConsent(consent) {
  state.consent = consent;
  changed('consent');
}

/** @param {boolean} busy */
export function setBusy(busy) {
  state.busy = busy;
  changed('busy');
}

/**
 * Asks for a field to be shown and filled (on a phone, the guide at the bottom takes it).
 * @param {Field} field
 * @param {{ focus?: boolean }} [options]
 */
export function showField(field, options = {}) {
  bus.dispatchEvent(new CustomEvent('show-field', { detail: { field, options } }));
}

/** @param {(field: Field, options: { focus?: boolean }) => void} listener */
export function onShowField(listener) {
  bus.addEventListener('show-field', (event) => {
    const { field, options } = /** @type {CustomEvent<{ field: Field, options: { focus?: boolean } }>} */ (event).detail;
    listener(field, options);
  });
}
