import diagnostics from 'node:diagnostics_channel';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * Every answer of a test server checked against its own OpenAPI document (`GET /v1/openapi.json`):
 * the status is listed for the operation, the Content-Type is one of its media types, each declared
 * header is present when required and valid when sent, and a JSON body matches its schema. Answers
 * are taken where node's HTTP server sends them (diagnostics channel `http.server.request.start`), so
 * whatever client a test uses is covered. A path or method the document has no operation for (the
 * signing page, static files, a 405) is not an API answer and is left alone. The test fails at its
 * end with every answer the document does not describe.
 */

type Json = Record<string, any>;

interface Operation {
  method: string;
  path: string;
  pattern: RegExp;
  literal: number;
  responses: Json;
}

interface Checked {
  doc: Json;
  operations: Operation[];
  ajv: Ajv2020;
  compiled: Map<string, ValidateFunction>;
}

/** Body bytes kept per answer; a longer one (an endless event stream) is checked without its body. */
const MAX_BODY = 32 * 1024 * 1024;
const watched = new Map<number, { checked: Checked; problems: string[] }>();
let subscribed = false;
const documents = new Map<string, Checked>();

/**
 * Starts checking the answers of the server at `url` against `doc` (default: the one it serves);
 * `problems` lists each undescribed answer as `METHOD url → status: what`.
 */
export async function watchAnswers(url: string, doc?: Json): Promise<{ problems: string[]; stop(): void }> {
  const port = Number(new URL(url).port);
  let checked: Checked;
  if (doc) checked = compile(doc);
  else {
    // One compiled document per build of paraph and test process.
    const source = await (await fetch(`${url}/v1/openapi.json`)).text();
    checked = documents.get(source) ?? compile(JSON.parse(source) as Json);
    documents.set(source, checked);
  }
  const entry = { checked, problems: [] as string[] };
  watched.set(port, entry);
  subscribe();
  return {
    problems: entry.problems,
    stop: () => {
      if (watched.get(port) === entry) watched.delete(port);
    },
  };
}

function subscribe(): void {
  if (subscribed) return;
  subscribed = true;
  diagnostics.subscribe('http.server.request.start', (message) => {
    const { request, response } = message as { request: IncomingMessage; response: ServerResponse };
    const entry = watched.get(request.socket.localPort ?? -1);
    if (entry) record(request, response, entry);
  });
}

function record(request: IncomingMessage, response: ServerResponse, entry: { checked: Checked; problems: string[] }): void {
  const chunks: Buffer[] = [];
  let size = 0;
  const keep = (chunk: unknown, encoding?: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
    size += buffer.length;
    if (size <= MAX_BODY) chunks.push(buffer);
  };
  // fastify hands its headers to writeHead, which does not keep them for getHeader.
  const sent = new Map<string, string>();
  const writeHead = response.writeHead.bind(response);
  response.writeHead = ((...args: unknown[]) => {
    const headers = args.find((arg, i) => i > 0 && typeof arg === 'object' && arg !== null);
    if (Array.isArray(headers)) {
      for (let i = 0; i + 1 < headers.length; i += 2) sent.set(String(headers[i]).toLowerCase(), String(headers[i + 1]));
    } else if (headers) {
      for (const [name, value] of Object.entries(headers)) sent.set(name.toLowerCase(), String(value));
    }
    return (writeHead as (...a: unknown[]) => ServerResponse)(...args);
  }) as typeof response.writeHead;
  const write = response.write.bind(response);
  const end = response.end.bind(response);
  response.write = ((chunk: unknown, ...rest: unknown[]) => {
    keep(chunk, rest[0]);
    return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof response.write;
  response.end = ((chunk?: unknown, ...rest: unknown[]) => {
    keep(chunk, rest[0]);
    return (end as (...args: unknown[]) => ServerResponse)(chunk, ...rest);
  }) as typeof response.end;
  response.on('finish', () => {
    const header = (name: string) => sent.get(name.toLowerCase()) ?? (response.getHeader(name) as string | undefined);
    const problem = check(entry.checked, request, response.statusCode, header, size <= MAX_BODY ? Buffer.concat(chunks) : null);
    if (problem) entry.problems.push(`${request.method} ${request.url} → ${response.statusCode}: ${problem}`);
  });
}

function compile(doc: Json): Checked {
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  addFormats.default(ajv);
  ajv.addFormat('binary', true);
  ajv.addSchema({ $id: 'https://openapi.paraph.invalid/document.json', components: { schemas: doc.components?.schemas ?? {} } });
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths as Json)) {
    const source = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
    for (const [method, operation] of Object.entries(item as Json)) {
      operations.push({
        method: method.toUpperCase(),
        path,
        pattern: new RegExp(`^${source}$`),
        literal: path.replace(/\{[^}]+\}/g, '').length,
        responses: (operation as Json).responses,
      });
    }
  }
  // The most literal template first: /v1/templates/{id} before a template made of parameters only.
  operations.sort((a, b) => b.literal - a.literal);
  return { doc, operations, ajv, compiled: new Map() };
}

function check(
  checked: Checked,
  request: IncomingMessage,
  statusCode: number,
  header: (name: string) => string | undefined,
  body: Buffer | null,
): string | null {
  const method = request.method ?? '';
  if (method === 'HEAD' || method === 'OPTIONS') return null;
  const path = (request.url ?? '').split('?')[0] ?? '';
  const operation = checked.operations.find((o) => o.method === method && o.pattern.test(path));
  if (!operation) return null;
  const where = `${operation.method} ${operation.path}`;
  const status = String(statusCode);
  const documented = operation.responses[status] ?? operation.responses[`${status[0]}XX`] ?? operation.responses.default;
  if (!documented) return `status ${status} is not documented for ${where}`;
  const answer = resolve(checked.doc, documented);

  for (const [name, declared] of Object.entries((answer.headers ?? {}) as Json)) {
    const declaration = resolve(checked.doc, declared);
    const value = header(name);
    if (value === undefined) {
      if (declaration.required) return `required header ${name} is missing`;
      continue;
    }
    const text = String(value);
    const schema = declaration.schema ?? {};
    const parsed = schema.type === 'integer' || schema.type === 'number' ? Number(text) : text;
    if (!validator(checked, `${where} ${status} header ${name}`, schema)(parsed))
      return `header ${name}: ${JSON.stringify(text)} does not match ${JSON.stringify(schema)}`;
  }

  const type =
    String(header('content-type') ?? '')
      .split(';')[0]
      ?.trim()
      .toLowerCase() ?? '';
  const content = answer.content as Json | undefined;
  if (!content) {
    if (body && body.length > 0) return `a ${body.length}-byte body (${type}) where the document describes none`;
    return null;
  }
  const media = content[type];
  if (!media) return `Content-Type ${JSON.stringify(type)} is not one of ${Object.keys(content).join(', ')}`;
  if (body === null || type === 'text/event-stream') return null;
  const schema = media.schema ?? {};
  if (type === 'application/json' || type.endsWith('+json')) {
    let value: unknown;
    try {
      value = JSON.parse(body.toString('utf8'));
    } catch {
      return 'the body is not JSON';
    }
    const validate = validator(checked, `${where} ${status} ${type}`, schema);
    if (!validate(value)) return `body: ${checked.ajv.errorsText(validate.errors)} in ${body.toString('utf8').slice(0, 300)}`;
  } else if (resolve(checked.doc, schema).contentMediaType === 'application/pdf' && !body.subarray(0, 5).equals(Buffer.from('%PDF-'))) {
    return 'the body is not a PDF';
  }
  return null;
}

function validator(checked: Checked, key: string, schema: unknown): ValidateFunction {
  let validate = checked.compiled.get(key);
  if (!validate) {
    const absolute = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"https://openapi.paraph.invalid/document.json#/components/')) as Json;
    validate = checked.ajv.compile(absolute);
    checked.compiled.set(key, validate);
  }
  return validate;
}

/** A `$ref` into the document, followed (response, header and schema objects). */
function resolve(doc: Json, value: Json): Json {
  let current = value;
  while (typeof current?.$ref === 'string' && current.$ref.startsWith('#/')) {
    current = current.$ref
      .slice(2)
      .split('/')
      .reduce((node: Json, key: string) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
  }
  return current ?? {};
}
