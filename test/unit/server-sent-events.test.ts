import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatSseComment, formatSseMessage, SseReader } from '../../src/platform/server-sent-events.js';

const message = {
  id: '42',
  event: 'signer.completed',
  fields: { 'webhook-id': 'evt_1', 'webhook-signature': 'v1,abc=' },
  data: '{"id":"evt_1","type":"signer.completed","data":{"reason":"a: b"}}',
};

test('a written message reads back the same, however the bytes are cut', () => {
  const text = formatSseMessage({ retry: 2000 }) + formatSseComment('ping') + formatSseMessage(message) + formatSseMessage({ id: '43', data: 'two\nlines' });
  for (let cut = 0; cut <= text.length; cut++) {
    const reader = new SseReader();
    const read = [...reader.push(text.slice(0, cut)), ...reader.push(text.slice(cut))];
    assert.deepEqual(read, [{ retry: 2000 }, message, { id: '43', data: 'two\nlines' }], `cut at ${cut}`);
  }
});

test('the reader follows the standard: CRLF and CR line ends, one space dropped, a BOM, a field without a colon', () => {
  const reader = new SseReader();
  assert.deepEqual(reader.push('\uFEFFid:7\r\nevent:  spaced\r'), []);
  assert.deepEqual(reader.push('\ndata\rdata: x\r\n\r\n'), [{ id: '7', event: ' spaced', data: '\nx' }]);
  assert.deepEqual(reader.push(': only a comment\n\n'), []);
});

test('a field value with a line break is refused when writing', () => {
  assert.throws(() => formatSseMessage({ id: '1\n2' }), /line break/);
  assert.throws(() => formatSseMessage({ fields: { 'webhook-id': 'a\rb' } }), /line break/);
});
