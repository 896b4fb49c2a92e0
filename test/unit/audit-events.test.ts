// The audit event types (src/domain/audit-events.ts) and their labels in the evidence report: the
// types are checked by the compiler (audit() takes no other; ReportText.events is a Record over
// them); here, what the compiler does not see: every label is real text, distinct in its language.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AUDIT_EVENT_TYPES, isAuditEventType } from '../../src/domain/audit-events.js';
import { REPORT_TEXT } from '../../src/pdf/evidence-pdf-languages.js';
import { eventName } from '../../src/pdf/evidence-pdf-text.js';

test('audit event types: one list, each type once', () => {
  assert.equal(new Set(AUDIT_EVENT_TYPES).size, AUDIT_EVENT_TYPES.length);
  assert.equal(AUDIT_EVENT_TYPES.length, 20);
  for (const type of AUDIT_EVENT_TYPES) assert.ok(isAuditEventType(type), type);
  assert.equal(isAuditEventType('request_renamed'), false);
  assert.equal(isAuditEventType('toString'), false);
});

test('evidence labels: every type has its own words in every language', () => {
  for (const [language, text] of Object.entries(REPORT_TEXT)) {
    assert.deepEqual(Object.keys(text.events).sort(), [...AUDIT_EVENT_TYPES].sort(), language);
    const labels = AUDIT_EVENT_TYPES.map((type) => eventName(type, text));
    for (const [i, label] of labels.entries()) {
      assert.ok(label.trim() !== '' && label !== AUDIT_EVENT_TYPES[i], `${language} ${AUDIT_EVENT_TYPES[i]}: "${label}"`);
    }
    assert.equal(new Set(labels).size, labels.length, `${language}: two types share a label`);
    assert.equal(eventName('request_renamed', text), 'request_renamed', 'a type paraph never wrote shows as its code');
  }
});
