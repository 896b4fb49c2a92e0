// @ts-check
// What each of the signer's fields is and needs: a mark or a value, required or not, done or not, its
// label, and the order the signer goes through them.
import { state } from './context.js';

/** @typedef {import('./context.js').Field} Field */
/** @typedef {import('./context.js').MarkKind} MarkKind */

/** @type {(field: Field) => boolean} */
export const isMark = (field) => field.type === 'signature' || field.type === 'initials';
/** @type {(field: Field) => boolean} */
export const isRequired = (field) => isMark(field) || field.editable;
/** @type {(field: Field) => boolean} */
export const isDone = (field) =>
  isMark(field) ? state.marks[/** @type {MarkKind} */ (field.type)] !== null : String(state.values.get(field.id) ?? '').trim() !== '';

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

/** The signer's required fields, in page order (top to bottom, then left to right). */
export function requiredInOrder() {
  return state.view.fields.filter(isRequired).sort((a, b) => a.page - b.page || a.y - b.y || a.x - b.x);
}
