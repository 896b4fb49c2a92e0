import { TextDecoder } from 'node:util';
import { addressParser, decodeWords, type Address } from 'postal-mime';

/** A header as postal-mime gives it: the name lowercased, as written, and the unfolded value. */
export interface MailHeader {
  key: string;
  originalKey: string;
  value: string;
}

/** The part of postal-mime's result the catcher keeps. */
export interface ParsedMail {
  headers: MailHeader[];
  from?: Address;
  subject?: string;
  text?: string;
  html?: string;
}

/** Larger messages (attachments, in practice) always go through postal-mime. */
const MAX_BYTES = 512 * 1024;
const LF = 0x0a;
const CR = 0x0d;
const EQUALS = 0x3d;
const DASH = 0x2d;

/** Charset labels read here; postal-mime decodes these with `new TextDecoder(label)` too. */
const CHARSETS = new Set(['utf-8', 'utf8', 'us-ascii', 'ascii', 'iso-8859-1', 'iso8859-1', 'latin1', 'windows-1252', 'cp1252']);
const decoders = new Map<string, TextDecoder>();
const headerDecoder = new TextDecoder('utf-8', { ignoreBOM: true });
const CONTENT_HEADERS = new Set(['content-type', 'content-transfer-encoding', 'content-disposition']);
/** `type/subtype; key=value; key="quoted value"` without comments, escapes or RFC 2231 sections. */
const SIMPLE_STRUCTURED = /^[^\s;"()\\=]+(?:[ \t]*;[ \t]*[A-Za-z0-9_.-]+[ \t]*=[ \t]*(?:"[^"\\]*"|[^\s;"()\\]+))*[ \t]*;?$/;
const PARAMETER = /;[ \t]*([A-Za-z0-9_.-]+)[ \t]*=[ \t]*(?:"([^"\\]*)"|([^\s;"()\\]+))/g;

interface Structured {
  value: string;
  params: Map<string, string>;
}

type TextType = 'plain' | 'html';

/** One MIME part while it is read: its header lines, then its decoded body bytes. */
class Part {
  headerLines: string[] = [];
  inHeader = true;
  headers: MailHeader[] = [];
  type: Structured = { value: 'text/plain', params: new Map() };
  disposition = '';
  encoding: 'plain' | 'qp' | 'base64' = 'plain';
  chunks: Buffer[] = [];
  base64 = '';
  /** False once the part is something only postal-mime reads (a comment, a continuation, ...). */
  simple = true;

  feed(line: Buffer): void {
    if (this.inHeader) {
      if (line.length === 0) this.endHeader();
      else this.headerLines.push(headerDecoder.decode(line));
      return;
    }
    if (this.encoding === 'plain') {
      this.chunks.push(line, NEWLINE);
    } else if (this.encoding === 'qp') {
      this.chunks.push(line);
    } else {
      this.takeBase64(line);
    }
  }

  /** Unfolds and reads the header lines as postal-mime's MimeNode.processHeaders does. */
  endHeader(): void {
    this.inHeader = false;
    const folded: string[][] = [];
    for (const line of this.headerLines) {
      const first = line.charCodeAt(0);
      if (folded.length > 0 && (first === 0x20 || first === 0x09)) folded[folded.length - 1]!.push(line);
      else folded.push([line]);
    }
    const seen = new Set<string>();
    let type: string | null = null;
    let transfer = '';
    for (const parts of folded) {
      const unfolded = parts.join('');
      const sep = unfolded.indexOf(':');
      const originalKey = trimWsp(sep < 0 ? unfolded : unfolded.slice(0, sep));
      // Lines hold no LF; a CR left inside one becomes a space.
      const body = sep < 0 ? '' : unfolded.slice(sep + 1);
      const value = trimWsp(body.includes('\r') ? body.replace(/[\r\n]+/g, ' ') : body);
      const key = originalKey.toLowerCase();
      this.headers.push({ key, originalKey, value });
      if (!CONTENT_HEADERS.has(key) || seen.has(key)) continue;
      seen.add(key);
      if (key === 'content-type') type = value;
      else if (key === 'content-transfer-encoding') transfer = value;
      else {
        const disposition = structured(value);
        if (!disposition) this.simple = false;
        else this.disposition = disposition.value;
      }
    }
    if (type !== null) {
      const parsed = structured(type);
      if (parsed) this.type = parsed;
      else this.simple = false;
    }
    if (!/^[\w-]*$/.test(transfer)) this.simple = false;
    const encoding = transfer.toLowerCase();
    this.encoding = /base64/.test(encoding) ? 'base64' : /quoted-printable/.test(encoding) ? 'qp' : 'plain';
  }

  /** As postal-mime's Base64Decoder: alphabet only, each `=` run closes a unit decoded on its own. */
  takeBase64(line: Buffer): void {
    const units = line
      .toString('latin1')
      .replace(/[^a-zA-Z0-9+/=]+/g, '')
      .split(/=+/);
    for (let i = 0; i < units.length; i += 1) {
      this.base64 += units[i];
      if (i < units.length - 1) this.flushBase64();
    }
  }

  flushBase64(): void {
    if (this.base64.length > 0) this.chunks.push(decodeBase64(this.base64));
    this.base64 = '';
  }

  /** The decoded body as text, or null when postal-mime would read it otherwise (flowed text, another charset). */
  text(): string | null {
    if (this.inHeader) this.endHeader();
    if (this.encoding === 'base64') this.flushBase64();
    if (/^flowed$/i.test(this.type.params.get('format') ?? '')) return null;
    const decoder = decoderFor(this.type.params.get('charset'));
    if (!decoder) return null;
    return decoder.decode(this.encoding === 'qp' ? decodeQuotedPrintable(this.chunks) : Buffer.concat(this.chunks));
  }

  /** 'plain' or 'html' for an inline text part, null for anything else. */
  textType(): TextType | null {
    if (this.disposition === 'attachment') return null;
    return this.type.value === 'text/plain' ? 'plain' : this.type.value === 'text/html' ? 'html' : null;
  }
}

const NEWLINE = Buffer.from([LF]);

/**
 * Parses the common shapes of a message synchronously, giving exactly what `PostalMime.parse` gives
 * for the fields the catcher keeps: a single text or HTML part, or one multipart/alternative or
 * multipart/mixed level of text and HTML parts, in UTF-8, ASCII, Latin-1 or Windows-1252, 7bit, 8bit,
 * quoted-printable or base64. Anything else (attachments, nested parts, other charsets, comments or
 * RFC 2231 sections in a structured header, flowed text, a mixed part that needs a text or HTML
 * rendering of the other) answers null: postal-mime reads those.
 */
export function parseCommonMail(raw: Buffer): ParsedMail | null {
  if (raw.length > MAX_BYTES) return null;
  const root = new Part();
  let multipart: 'alternative' | 'mixed' | null = null;
  let boundary: Buffer | null = null;
  const children: Part[] = [];
  let current = root;
  let rootHeaderRead = false;
  let finished = false;
  let pos = 0;
  while (pos < raw.length && !finished) {
    // A line ends at LF; the CRs that end it are not part of it (postal-mime's readLine).
    const start = pos;
    const newline = raw.indexOf(LF, pos);
    pos = newline === -1 ? raw.length : newline + 1;
    let end = newline === -1 ? raw.length : newline;
    while (end > start && raw[end - 1] === CR) end -= 1;
    const line = raw.subarray(start, end);
    if (boundary) {
      const mark = boundaryLine(line, boundary);
      if (mark === 'terminator') finished = true;
      if (mark === 'next') {
        current = new Part();
        children.push(current);
      }
      if (mark !== null) continue;
    }
    current.feed(line);
    if (!rootHeaderRead && !root.inHeader) {
      rootHeaderRead = true;
      const kind = /^multipart\/(.*)$/.exec(root.type.value);
      if (kind) {
        if (!root.simple || (kind[1] !== 'alternative' && kind[1] !== 'mixed')) return null;
        const value = root.type.params.get('boundary');
        if (!value) return null;
        multipart = kind[1];
        boundary = Buffer.from(value, 'utf8');
      }
    }
  }
  if (root.inHeader) root.endHeader();
  if (!root.simple) return null;
  const mail: ParsedMail = { headers: root.headers };
  const from = firstValue(root.headers, 'from');
  if (from) {
    const addresses = addressParser(from);
    if (addresses.length > 0) mail.from = addresses[0]!;
  }
  const subject = firstValue(root.headers, 'subject');
  if (subject) mail.subject = decodeWords(subject);
  if (/^multipart\//.test(root.type.value) && multipart === null) return null;
  const leaves = multipart === null ? [root] : children;
  // Text parts grouped as postal-mime renders them: all the parts of an alternative together, each
  // part of a mixed message (or a single-part message) on its own.
  const groups: Array<Record<TextType, string[]>> = [];
  const types = new Set<TextType>();
  for (const leaf of leaves) {
    const text = leaf.text();
    const type = leaf.textType();
    if (text === null || type === null || !leaf.simple) return null;
    if (multipart !== 'alternative' || groups.length === 0) groups.push({ plain: [], html: [] });
    groups[groups.length - 1]![type].push(text);
    types.add(type);
  }
  // A group without one of the types would get a rendering of the other: postal-mime does that.
  if (groups.some((group) => [...types].some((type) => group[type].length === 0))) return null;
  const plain = groups.flatMap((group) => group.plain).join('\n');
  const html = groups.flatMap((group) => group.html).join('\n');
  if (html) mail.html = html;
  if (plain) mail.text = plain;
  return mail;
}

/** 'next' for `--boundary`, 'terminator' for `--boundary--` (either may end in spaces or tabs), else null. */
function boundaryLine(line: Buffer, boundary: Buffer): 'next' | 'terminator' | null {
  if (line.length <= 2 || line[0] !== DASH || line[1] !== DASH || line.length < boundary.length + 2) return null;
  for (let j = 0; j < boundary.length; j += 1) if (line[j + 2] !== boundary[j]) return null;
  let end = boundary.length + 2;
  let terminator = false;
  if (line.length >= boundary.length + 4 && line[end] === DASH && line[end + 1] === DASH) {
    terminator = true;
    end += 2;
  }
  for (let j = end; j < line.length; j += 1) if (line[j] !== 0x20 && line[j] !== 0x09) return null;
  return terminator ? 'terminator' : 'next';
}

function firstValue(headers: readonly MailHeader[], key: string): string {
  return headers.find((header) => header.key === key)?.value ?? '';
}

/** The structured header shapes read here, as postal-mime's parseStructuredHeader reads them; null for others. */
function structured(value: string): Structured | null {
  if (value === '') return { value: '', params: new Map() };
  if (!SIMPLE_STRUCTURED.test(value)) return null;
  const semicolon = value.indexOf(';');
  const params = new Map<string, string>();
  for (const match of value.matchAll(PARAMETER)) {
    const key = match[1]!.toLowerCase();
    if (!params.has(key)) params.set(key, match[2] ?? match[3]!);
  }
  return { value: trimWsp(semicolon < 0 ? value : value.slice(0, semicolon)).toLowerCase(), params };
}

function decoderFor(charset: string | undefined): TextDecoder | null {
  const label = (charset || 'utf8').trim().toLowerCase();
  if (!CHARSETS.has(label)) return null;
  let decoder = decoders.get(label);
  if (!decoder) {
    decoder = new TextDecoder(label);
    decoders.set(label, decoder);
  }
  return decoder;
}

function trimWsp(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && (text.charCodeAt(start) === 0x20 || text.charCodeAt(start) === 0x09)) start += 1;
  while (end > start && (text.charCodeAt(end - 1) === 0x20 || text.charCodeAt(end - 1) === 0x09)) end -= 1;
  return text.slice(start, end);
}

/** Quoted-printable lines, as postal-mime's QPDecoder decodes them (a trailing `=` joins the next line). */
function decodeQuotedPrintable(lines: readonly Buffer[]): Buffer {
  let size = 0;
  for (const line of lines) size += line.length + 1;
  const out = Buffer.allocUnsafe(size);
  let o = 0;
  for (const line of lines) {
    let length = line.length;
    const softBreak = length > 0 && line[length - 1] === EQUALS;
    if (softBreak) length -= 1;
    let i = 0;
    while (i < length) {
      const equals = line.indexOf(EQUALS, i);
      const literalEnd = equals === -1 || equals >= length ? length : equals;
      o += line.copy(out, o, i, literalEnd);
      i = literalEnd;
      if (i >= length) break;
      const high = i + 2 < length ? hexNibble(line[i + 1]!) : -1;
      const low = i + 2 < length ? hexNibble(line[i + 2]!) : -1;
      if (high >= 0 && low >= 0) {
        out[o++] = (high << 4) | low;
        i += 3;
      } else {
        out[o++] = EQUALS;
        i += 1;
      }
    }
    if (!softBreak) out[o++] = LF;
  }
  return out.subarray(0, o);
}

function hexNibble(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  return -1;
}

const BASE64_VALUES = new Uint8Array(256);
for (const [i, c] of [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].entries()) BASE64_VALUES[c.charCodeAt(0)] = i;

/** A run of base64 letters without padding, as postal-mime's decodeBase64 decodes it (a lone last letter is dropped). */
function decodeBase64(letters: string): Buffer {
  let length = letters.length;
  if (length % 4 === 1) length -= 1;
  const rest = length % 4;
  const size = Math.floor(length / 4) * 3 + (rest ? rest - 1 : 0);
  const bytes = Buffer.alloc(size);
  let p = 0;
  for (let i = 0; i < length; i += 4) {
    const a = BASE64_VALUES[letters.charCodeAt(i)]!;
    const b = BASE64_VALUES[letters.charCodeAt(i + 1)]!;
    const c = BASE64_VALUES[letters.charCodeAt(i + 2)]!;
    const d = BASE64_VALUES[letters.charCodeAt(i + 3)]!;
    bytes[p++] = (a << 2) | (b >> 4);
    if (p < size) bytes[p++] = ((b & 15) << 4) | (c >> 2);
    if (p < size) bytes[p++] = ((c & 3) << 6) | (d & 63);
  }
  return bytes;
}
