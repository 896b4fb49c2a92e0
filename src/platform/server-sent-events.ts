/**
 * The `text/event-stream` wire format (HTML Living Standard, "Server-sent events"): the server's
 * writer and the client's reader, so both ends of paraph's event stream speak one format.
 */

/** One message. `fields` are extra `name: value` lines, which standard clients ignore. */
export interface SseMessage {
  id?: string;
  event?: string;
  data?: string;
  retry?: number;
  fields?: Readonly<Record<string, string>>;
}

/** A message as text. Values must not contain line breaks, except `data`, which is split into lines. */
export function formatSseMessage(message: SseMessage): string {
  let text = '';
  if (message.id !== undefined) text += `id: ${oneLine(message.id)}\n`;
  if (message.event !== undefined) text += `event: ${oneLine(message.event)}\n`;
  for (const [name, value] of Object.entries(message.fields ?? {})) text += `${oneLine(name)}: ${oneLine(value)}\n`;
  if (message.retry !== undefined) text += `retry: ${Math.max(0, Math.floor(message.retry))}\n`;
  if (message.data !== undefined) for (const line of message.data.split(/\r\n|\r|\n/)) text += `data: ${line}\n`;
  return `${text}\n`;
}

/** A comment line: ignored by clients, it keeps an idle connection (and every proxy on the way) open. */
export function formatSseComment(text: string): string {
  return `: ${oneLine(text)}\n\n`;
}

function oneLine(value: string): string {
  if (/[\r\n]/.test(value)) throw new Error('a server-sent event field cannot contain a line break');
  return value;
}

/**
 * Reads a stream as chunks arrive: `push` answers the messages the chunk completed. Lines end with
 * CRLF, LF or CR; one space after the colon is dropped; `data` lines join with LF; a message is
 * dispatched at an empty line (one without `data` too, so extra fields are never lost).
 */
export class SseReader {
  private buffer = '';
  private pending: { id?: string; event?: string; data?: string[]; retry?: number; fields: Record<string, string> } = { fields: {} };
  private started = false;
  private lastWasCr = false;

  push(chunk: string): SseMessage[] {
    let text = chunk;
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    // A CR that ended the previous chunk already ended its line: an LF right after it is the same break.
    if (this.lastWasCr && text.startsWith('\n')) text = text.slice(1);
    this.lastWasCr = text.endsWith('\r');
    this.buffer += text;
    const messages: SseMessage[] = [];
    const lines = this.buffer.split(/\r\n|\r|\n/);
    this.buffer = lines.pop() ?? '';
    for (const line of lines) {
      const message = this.line(line);
      if (message) messages.push(message);
    }
    return messages;
  }

  private line(line: string): SseMessage | null {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const name = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    const pending = this.pending;
    if (name === 'data') (pending.data ??= []).push(value);
    else if (name === 'event') pending.event = value;
    else if (name === 'id') {
      if (!value.includes('\0')) pending.id = value;
    } else if (name === 'retry') {
      if (/^\d+$/.test(value)) pending.retry = Number(value);
    } else pending.fields[name] = value;
    return null;
  }

  private dispatch(): SseMessage | null {
    const { id, event, data, retry, fields } = this.pending;
    this.pending = { fields: {} };
    if (id === undefined && event === undefined && data === undefined && retry === undefined && Object.keys(fields).length === 0) return null;
    return {
      ...(id !== undefined ? { id } : {}),
      ...(event !== undefined ? { event } : {}),
      ...(data !== undefined ? { data: data.join('\n') } : {}),
      ...(retry !== undefined ? { retry } : {}),
      ...(Object.keys(fields).length > 0 ? { fields } : {}),
    };
  }
}
