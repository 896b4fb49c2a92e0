import type { TestContext } from 'node:test';
import { SseReader, type SseMessage } from '../../src/platform/server-sent-events.js';

export interface OpenStream {
  response: Response;
  /** Every message read so far (the first is the opening one: the position the stream starts after, and the `retry:` hint). */
  messages: SseMessage[];
  /** Waits until `count` event messages (with `data`) have arrived; answers them. */
  events(count: number, timeoutMs?: number): Promise<SseMessage[]>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

/**
 * Opens `GET /v1/events/stream` and reads it in the background. Resolves once the server's first
 * message (its opening one) has arrived: from then on every event recorded reaches this stream.
 */
export async function openStream(t: TestContext, baseUrl: string, init: { key: string | null; lastEventId?: string; after?: string }): Promise<OpenStream> {
  const controller = new AbortController();
  const query = init.after === undefined ? '' : `?after=${encodeURIComponent(init.after)}`;
  const headers: Record<string, string> = { accept: 'text/event-stream' };
  if (init.key !== null) headers.authorization = `Bearer ${init.key}`;
  if (init.lastEventId !== undefined) headers['last-event-id'] = init.lastEventId;
  const response = await fetch(`${baseUrl}/v1/events/stream${query}`, { headers, signal: controller.signal });
  t.after(() => controller.abort());
  const messages: SseMessage[] = [];
  let first: () => void = () => {};
  const opened = new Promise<void>((resolve) => (first = resolve));
  const reader = new SseReader();
  const decoder = new TextDecoder();
  const ended = (async () => {
    if (!response.body || response.status !== 200) return;
    try {
      for await (const chunk of response.body) {
        messages.push(...reader.push(decoder.decode(chunk as Uint8Array, { stream: true })));
        if (messages.length > 0) first();
      }
    } catch {
      // aborted by close()
    }
  })();
  if (response.status === 200) await Promise.race([opened, ended]);
  return {
    response,
    messages,
    async events(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      const withData = () => messages.filter((m) => m.data !== undefined);
      while (withData().length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      const found = withData();
      if (found.length < count) throw new Error(`expected ${count} event(s) on the stream, got ${found.length}`);
      return found;
    },
    ended,
    close: () => controller.abort(),
  };
}
