import assert from 'node:assert/strict';

/**
 * An error answer: status, code, a message that matches, and the envelope with exactly code/message/request_id
 * where request_id is the X-Request-Id header. Answers the message.
 */
export async function expectError(res: Response, status: number, code: string, message?: RegExp | string): Promise<string> {
  const text = await res.text();
  assert.equal(res.status, status, `expected ${status} ${code}, got ${res.status}: ${text}`);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  const body = JSON.parse(text) as { error: { code: string; message: string; request_id: string } };
  assert.deepEqual(Object.keys(body), ['error']);
  assert.deepEqual(Object.keys(body.error).sort(), ['code', 'message', 'request_id']);
  assert.equal(body.error.code, code, text);
  assert.equal(typeof body.error.message, 'string');
  assert.ok(body.error.request_id.length > 0);
  assert.equal(body.error.request_id, res.headers.get('x-request-id'));
  if (typeof message === 'string') assert.ok(body.error.message.includes(message), `message ${JSON.stringify(body.error.message)} should name ${message}`);
  else if (message) assert.match(body.error.message, message);
  return body.error.message;
}
