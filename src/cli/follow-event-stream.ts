import { setTimeout as sleep } from 'node:timers/promises';
import { SseReader, type SseMessage } from '../platform/server-sent-events.js';
import { cannotReach, reachFailure } from '../platform/unreachable-server.js';

/** The API refused the stream (401, 400): following it again would be refused too. */
export class StreamRefused extends Error {
  override name = 'StreamRefused';
}

export interface FollowOptions {
  /** `…/v1/events/stream` */
  url: string;
  apiKey: string;
  /** Aborted by Ctrl-C: following stops, without an error. */
  signal: AbortSignal;
  /** Called for each event, one at a time: the next waits until it is done. */
  onEvent(message: SseMessage): Promise<void>;
  /** The stream is open: the first time, or again after `onLost`. */
  onConnected(again: boolean): void;
  /** The stream broke: called once per outage, however many tries it then takes. */
  onLost(reason: string): void;
}

/** Silence this long (the server sends a comment every 15 s) means the connection is dead. */
const SILENCE_MS = 45_000;
const FIRST_BACKOFF_MS = 250;
/**
 * Follows `GET /v1/events/stream` until aborted, from the next event recorded. When the connection breaks
 * (the server stopped, restarted, or went silent), it reconnects with a short backoff and resumes with
 * `Last-Event-ID` after the last event handled, or, when none was, after the position the first stream
 * opened at (its opening message's `id`), so no event is missed or handled twice. The first connection must succeed; a refusal
 * (401, 400) at any connection throws StreamRefused with the API's message.
 */
export async function followEventStream(options: FollowOptions): Promise<void> {
  const { signal } = options;
  let lastId: string | undefined;
  let connected = false;
  let lost = false;
  let backoff = FIRST_BACKOFF_MS;
  let maxBackoff = 2_000;
  const breakOff = (reason: string) => {
    if (!lost) options.onLost(reason);
    lost = true;
  };
  while (!signal.aborted) {
    const silence = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const resetSilence = () => {
      clearTimeout(timer);
      timer = setTimeout(() => silence.abort(), SILENCE_MS);
    };
    try {
      resetSilence();
      const response = await openStream(options, options.url, lastId, silence.signal);
      if (!response.ok) {
        const message = await apiMessage(response);
        // Only an overloaded or stopping server is worth waiting for; anything else is final.
        if (!connected || (response.status !== 429 && response.status < 500)) throw new StreamRefused(message);
        breakOff(message);
      } else {
        options.onConnected(connected);
        connected = true;
        lost = false;
        backoff = FIRST_BACKOFF_MS;
        for await (const message of messagesOf(response, resetSilence)) {
          if (message.retry !== undefined) maxBackoff = Math.min(Math.max(message.retry, FIRST_BACKOFF_MS), 30_000);
          if (message.id === undefined) continue;
          // An id without data is the position the stream opened at: nothing to handle, but where to resume.
          if (message.data !== undefined) await options.onEvent(message);
          lastId = message.id;
        }
        if (!signal.aborted) breakOff('the server ended the stream');
      }
    } catch (error) {
      if (signal.aborted) return;
      if (error instanceof StreamRefused) throw error;
      if (!connected) throw new StreamRefused(cannotReach(new URL(options.url).origin, error));
      breakOff(silence.signal.aborted ? 'no word from the server for 45 s' : reachFailure(error));
    } finally {
      clearTimeout(timer);
    }
    await sleep(backoff, undefined, { signal }).catch(() => undefined);
    backoff = Math.min(backoff * 2, maxBackoff);
  }
}

/** A connection to the event stream, resuming after `lastId` when given; ended by the follower's signal or `stop`. */
function openStream(options: FollowOptions, url: string | URL, lastId: string | undefined, stop: AbortSignal): Promise<Response> {
  return fetch(url, {
    headers: {
      accept: 'text/event-stream',
      authorization: `Bearer ${options.apiKey}`,
      ...(lastId === undefined ? {} : { 'last-event-id': lastId }),
    },
    signal: AbortSignal.any([options.signal, stop]),
  });
}

/** The messages of a stream's body as they arrive; `onChunk` at each piece read (the server is alive). */
async function* messagesOf(response: Response, onChunk: () => void): AsyncGenerator<SseMessage> {
  const reader = new SseReader();
  const decoder = new TextDecoder();
  for await (const chunk of response.body ?? []) {
    onChunk();
    yield* reader.push(decoder.decode(chunk as Uint8Array, { stream: true }));
  }
}

async function apiMessage(response: Response): Promise<string> {
  const body = (await response.json().catch(() => null)) as { error?: { message?: unknown } } | null;
  const message = body?.error?.message;
  return typeof message === 'string' ? message : `the server answered ${response.status}`;
}
