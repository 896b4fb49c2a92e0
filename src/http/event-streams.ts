import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import type { Context } from '../context.js';
import { formatSseComment, formatSseMessage } from '../platform/server-sent-events.js';
import { isApiKeyLive, latestEventSeq, readEventFeed } from '../features/events/read-event-feed.js';

/** A comment this often keeps an idle stream (and every proxy on the way) open. */
export const HEARTBEAT_MS = 15_000;
/** What the stream tells an EventSource to wait before it reconnects. */
export const RETRY_MS = 2_000;
/** How often open streams look for events recorded since (by this process or a CLI process). */
const POLL_MS = 200;
/** How often open streams check that their key is still live (a CLI process may revoke it). */
const KEY_CHECK_MS = 1_000;
const BATCH = 100;
/** A client that does not take the end of its stream within this time is cut off. */
const CLOSE_GRACE_MS = 2_000;

interface Stream {
  readonly res: ServerResponse;
  readonly accountId: string;
  readonly apiKeyId: string;
  /** Every event of the account up to this position has been written. */
  scanned: number;
  lastWriteAt: number;
  pumping: boolean;
}

/** The open `GET /v1/events/stream` responses of a server. */
export interface EventStreams {
  /** Takes the reply over and streams the account's events after `after` (null: from now on). */
  open(reply: FastifyReply, input: { accountId: string; apiKeyId: string; after: number | null }): void;
  /** Ends every stream (the server is stopping), so that closing never waits for a client. */
  closeAll(): void;
}

/**
 * One timer for all streams, running only while one is open: it compares the last event position
 * with each stream's and writes what the stream has not seen, in position order. Positions grow in
 * commit order (SQLite has one writer at a time), so nothing committed later can appear behind one.
 */
export function createEventStreams(ctx: Context): EventStreams {
  const streams = new Set<Stream>();
  let timer: NodeJS.Timeout | undefined;
  let keysCheckedAt = 0;

  const write = (stream: Stream, text: string): boolean => {
    if (stream.res.destroyed || stream.res.writableEnded) return false;
    stream.lastWriteAt = ctx.clock.realNow();
    return stream.res.write(text);
  };

  const end = (stream: Stream) => {
    streams.delete(stream);
    if (streams.size === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
    const { res } = stream;
    if (res.writableEnded || res.destroyed) return;
    res.end();
    // The connection goes with the stream: a stopping server must not wait for it to turn idle.
    res.socket?.end();
    setTimeout(() => res.destroy(), CLOSE_GRACE_MS).unref();
  };

  const pump = async (stream: Stream, upTo: number): Promise<void> => {
    stream.pumping = true;
    try {
      while (stream.scanned < upTo && streams.has(stream)) {
        const events = readEventFeed(ctx, { accountId: stream.accountId, after: stream.scanned, upTo, limit: BATCH });
        let flowing = true;
        for (const event of events) {
          flowing = write(stream, formatSseMessage({ id: String(event.seq), event: event.type, fields: { ...event.headers }, data: event.body }));
        }
        stream.scanned = events.length === BATCH ? (events[events.length - 1] as { seq: number }).seq : upTo;
        if (!flowing) await drained(stream.res);
      }
    } finally {
      stream.pumping = false;
    }
  };

  const start = (stream: Stream, upTo: number) => {
    pump(stream, upTo).catch((error: unknown) => {
      ctx.log.error({ err: error }, 'the event stream failed');
      end(stream);
    });
  };

  const tick = () => {
    let latest: number;
    try {
      latest = latestEventSeq(ctx);
    } catch (error) {
      ctx.log.error({ err: error }, 'reading the event feed failed');
      return;
    }
    const realNow = ctx.clock.realNow();
    const live = new Map<string, boolean>();
    const keyLive = (id: string) => live.get(id) ?? live.set(id, isApiKeyLive(ctx, id)).get(id) === true;
    // A revoked key's stream ends within a second, whether or not anything is sent; the client's reconnect then answers 401.
    const checkKeys = realNow - keysCheckedAt >= KEY_CHECK_MS;
    if (checkKeys) keysCheckedAt = realNow;
    for (const stream of streams) {
      if (stream.pumping) continue;
      const idle = realNow - stream.lastWriteAt >= HEARTBEAT_MS;
      if (latest <= stream.scanned && !idle && !checkKeys) continue;
      if (!keyLive(stream.apiKeyId)) end(stream);
      else if (latest > stream.scanned) start(stream, latest);
      else if (idle) write(stream, formatSseComment('ping'));
    }
  };

  return {
    open(reply, input) {
      reply.hijack();
      const res = reply.raw;
      // What the hooks set (X-Request-Id, the rate-limit headers) goes out too.
      for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) res.setHeader(name, value);
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' });
      if (reply.request.method === 'HEAD') {
        res.end();
        return;
      }
      const latest = latestEventSeq(ctx);
      const stream: Stream = {
        res,
        accountId: input.accountId,
        apiKeyId: input.apiKeyId,
        scanned: input.after ?? latest,
        lastWriteAt: 0,
        pumping: false,
      };
      streams.add(stream);
      res.on('close', () => end(stream));
      // The opening message names the position the stream starts after, as `id` without data (no event is dispatched):
      // an EventSource that reconnects before any event arrives resumes there, missing nothing recorded meanwhile.
      write(stream, formatSseMessage({ retry: RETRY_MS, id: String(stream.scanned) }));
      if (stream.scanned < latest) start(stream, latest);
      timer ??= setInterval(tick, POLL_MS).unref();
    },
    closeAll() {
      for (const stream of [...streams]) end(stream);
    },
  };
}

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
