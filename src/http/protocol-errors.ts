/**
 * Answers for requests that never reach a route because Node's HTTP layer refuses them (a malformed or
 * oversized request head, an `Expect` other than 100-continue): the same error envelope and
 * `X-Request-Id` as every other error, written straight to the connection.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import { BASE62 } from '../platform/crypto/tokens.js';
import { ERROR_KINDS, type ErrorKind } from '../domain/errors.js';

const ID_CHARS = 17;
const BASE62_CODES = Buffer.from(BASE62, 'latin1');
/** Random letters and digits (as character codes) not yet used, and where the next id starts in them. */
let letters: Buffer = Buffer.alloc(0);
let lettersAt = 0;

/**
 * A request id as every answer carries it in `X-Request-Id` and the error envelope: `req_` and 17
 * random letters and digits. Not a secret, so it is cut from a pool of random bytes refilled 4 KiB
 * at a time (made into letters once) instead of asking the system for each one.
 */
export function newRequestId(): string {
  if (lettersAt + ID_CHARS > letters.length) {
    letters = lettersOf(randomBytes(4096));
    lettersAt = 0;
  }
  const id = `req_${letters.toString('latin1', lettersAt, lettersAt + ID_CHARS)}`;
  lettersAt += ID_CHARS;
  return id;
}

function lettersOf(bytes: Buffer): Buffer {
  let length = 0;
  for (const byte of bytes) {
    // 248 = 4 × 62: bytes above it would favour the first letters.
    if (byte < 248) bytes[length++] = BASE62_CODES[byte % 62] as number;
  }
  return bytes.subarray(0, length);
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  417: 'Expectation Failed',
  431: 'Request Header Fields Too Large',
};

/** What is wrong with a request Node's parser refused, by its error code. */
function describe(code: string | undefined): { kind: ErrorKind; message: string } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { kind: 'head_too_large', message: 'the request head is too large (request line and headers may have at most 16 KiB)' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'ERR_HTTP_HEADERS_TIMEOUT':
      return { kind: 'request_timeout', message: 'the request did not arrive in time' };
    case 'HPE_INVALID_HEADER_TOKEN':
    case 'HPE_INVALID_CONSTANT':
    case 'HPE_LF_EXPECTED':
    case 'HPE_CR_EXPECTED':
      return { kind: 'invalid_request', message: 'malformed HTTP request: a header name or value has a character HTTP does not allow' };
    case 'HPE_INVALID_METHOD':
      return { kind: 'invalid_request', message: 'malformed HTTP request: unknown method' };
    case 'HPE_INVALID_URL':
      return { kind: 'invalid_request', message: 'malformed HTTP request: the path has characters that must be percent-encoded' };
    case 'HPE_INVALID_VERSION':
      return { kind: 'invalid_request', message: 'malformed HTTP request: unknown HTTP version' };
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return { kind: 'invalid_request', message: 'malformed HTTP request: Content-Length is invalid, repeated or sent with Transfer-Encoding' };
    case 'HPE_INVALID_TRANSFER_ENCODING':
    case 'HPE_INVALID_CHUNK_SIZE':
      return { kind: 'invalid_request', message: 'malformed HTTP request: the chunked body is malformed' };
    case 'HPE_INVALID_EOF_STATE':
      return { kind: 'invalid_request', message: 'the request ended before its body was complete' };
    default:
      return { kind: 'invalid_request', message: 'malformed HTTP request' };
  }
}

function envelope(kind: ErrorKind, message: string, extraHead = ''): { id: string; status: number; head: string; body: string } {
  const { code, status } = ERROR_KINDS[kind];
  const id = newRequestId();
  const body = JSON.stringify({ error: { code, message, request_id: id } });
  const head =
    // (An origin server sends Date on every 4xx: RFC 9110 6.6.1.)
    `HTTP/1.1 ${status} ${REASONS[status] ?? 'Error'}\r\ndate: ${new Date().toUTCString()}\r\n${extraHead}` +
    `content-type: application/json; charset=utf-8\r\n` +
    `content-length: ${Buffer.byteLength(body)}\r\n` +
    `x-request-id: ${id}\r\ncache-control: no-store\r\nconnection: close\r\n\r\n`;
  return { id, status, head, body };
}

/**
 * A request whose body has not fully arrived `ms` after it started: answered 408 in the envelope on the
 * connection (whatever the route is still waiting for), which then closes. A body that trickles in
 * cannot hold a connection and its handler open.
 */
export function limitBodyTime(request: IncomingMessage, ms: number, extraHeaders: () => Record<string, string> = () => ({})): void {
  if (request.complete) return;
  const timer = setTimeout(() => {
    const socket = request.socket;
    if (request.complete || socket.destroyed) return;
    if (socket.writable && !socket.writableEnded && (request.socket as Socket & { _httpMessage?: ServerResponse })._httpMessage?.headersSent !== true) {
      const { head, body } = envelope(
        'request_timeout',
        `the request body did not arrive in time: the whole request must arrive within ${Math.round(ms / 1000)} s`,
        headLines(extraHeaders()),
      );
      socket.end(head + body);
    }
    socket.destroySoon?.();
    setTimeout(() => socket.destroy(), 1000).unref();
  }, ms);
  timer.unref();
  const clear = () => clearTimeout(timer);
  request.once('end', clear);
  request.once('close', clear);
}

/** fastify's `clientErrorHandler`: a request head Node could not accept. */
export function answerClientError(err: Error & { code?: string }, socket: Socket): void {
  // A reset connection has nobody to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  // Bytes after a complete request (a body its head did not announce: a DELETE or POST with neither
  // Content-Length nor Transfer-Encoding) are what Node could not read: that request is answered first,
  // then this one, as the connection's order of answers has it.
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (inFlight && !inFlight.writableFinished && inFlight.req.complete) {
    inFlight.once('close', () => answerClientError(err, socket));
    return;
  }
  if (socket.writable) {
    const { kind, message } = describe(err.code);
    const { head, body } = envelope(kind, message);
    socket.end(head + body);
  } else {
    socket.destroy();
  }
}

/**
 * CONNECT (a proxy tunnel) is no method of paraph's: 405 in the envelope. Node hands CONNECT to the
 * `connect` event, not to the router, and closes the connection when nothing listens.
 */
export function refuseConnect(server: Server): void {
  server.on('connect', (_request: IncomingMessage, socket: Socket) => {
    socket.on('error', () => {});
    const { head, body } = envelope(
      'method_not_allowed',
      'CONNECT is not supported: paraph is no proxy; use GET, POST, PUT or DELETE on an API path',
      'allow: GET, HEAD, POST, PUT, DELETE\r\n',
    );
    socket.end(head + body);
  });
}

/** Header lines of a head written on the socket. */
function headLines(headers: Record<string, string>): string {
  return Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
}

/** An `Expect` header other than 100-continue: 417, in the envelope (with `extraHeaders(request)`). */
export function refuseUnknownExpectations(server: Server, extraHeaders: (request: IncomingMessage) => Record<string, string> = () => ({})): void {
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    const expected = String(request.headers.expect ?? '').slice(0, 60);
    const { id, status, body } = envelope('expectation_failed', `Expect: ${JSON.stringify(expected)} is not supported (only 100-continue is)`);
    response.writeHead(status, {
      ...extraHeaders(request),
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'x-request-id': id,
      'cache-control': 'no-store',
      connection: 'close',
    });
    response.end(body);
    // The body the client may still send is not read.
    request.resume();
  });
}
