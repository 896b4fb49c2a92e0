/** AcroForm widgets as suggestions, and which labels describe a widget rather than a blank of their own. */
import { fieldFromName, roleFromName } from './detect-lexicon.js';
import { type Rect, type Widget, type PageModel, type Suggestion, type Label, overlap1, contains, clip, xywh } from './detect-model.js';

// ------------------------------------------------------------------------------------------ widgets

export function fromWidget(page: PageModel, w: Widget): Suggestion {
  const role = roleFromName(w.name) ?? (w.label ? roleFromName(w.label) : undefined);
  const base = { page: page.page, ...xywh(clip(w.box, page)), reason: 'acroform' as const, ...(role ? { roleHint: role } : {}) };
  if (w.kind === 'signature') return { ...base, type: 'signature', confidence: 0.98 };
  const meaning = fieldFromName(w.name) ?? (w.label ? fieldFromName(w.label) : null);
  if (!meaning) return { ...base, type: 'text', confidence: 0.88 };
  // Only text fields take a field_key other than sign_date (which is for date fields).
  const type = meaning.type === 'signature' || meaning.type === 'date' ? meaning.type : 'text';
  return { ...base, type, confidence: meaning.fieldKey ? 0.95 : 0.9, ...(meaning.fieldKey ? { fieldKey: meaning.fieldKey } : {}) };
}

export function widgetNear(label: Label, box: Rect): boolean {
  const { reach, line } = label;
  if (contains(box, label.box, 2)) return true;
  const sameRow = overlap1(box.y0, box.y1, reach.y0, reach.y1) > 0.5 * (reach.y1 - reach.y0);
  const gap = line.rtl ? reach.x0 - box.x1 : box.x0 - reach.x1;
  if (sameRow && gap >= -2 && gap <= 150) return true;
  const below = box.y0 - label.box.y1;
  return below >= -2 && below <= 3 * line.size + 16 && overlap1(box.x0, box.x1, label.box.x0 - 10, label.box.x1 + 10) > 0;
}
