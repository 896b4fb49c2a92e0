// A deterministic generator of malformed HTTP requests against paraph: multipart shapes, JSON bodies,
// ids and paths, methods, query strings, headers, credentials, Idempotency-Keys, the signer's API under
// made-up links, the /_sandbox controls, requests Node's own HTTP parser refuses, every host spelling in
// the URL fields, and random byte and value changes to valid bodies. The same seed always gives the same
// list of cases (the ids and key of the server under test are filled in where a case needs them).
//
// Nearly every case must be refused, and none of them may change a request, the template, the clock or
// the mail that existed before. A case that names an existing request with an otherwise valid body (a bad
// key, a bad Idempotency-Key) shows that the refusal comes before the action. The few uploads that are
// odd in shape but valid (huge part headers, random changes that keep the payload valid, an allowed URL)
// may be accepted as new requests; each case says which statuses it allows.

export type Category =
  | 'multipart'
  | 'json-body'
  | 'content-type'
  | 'path'
  | 'method'
  | 'query'
  | 'header'
  | 'auth'
  | 'idempotency-key'
  | 'signer'
  | 'sandbox'
  | 'protocol'
  | 'url'
  | 'random';

/** What goes on the wire: the request line, headers and body, sent as bytes over a fresh connection. */
export interface Wire {
  method: string;
  /** The request-target exactly as sent (a Buffer for bytes that are not ASCII). */
  target: string | Buffer;
  headers: Array<[string, string | Buffer]>;
  body?: Buffer;
  /** Sends only this many bytes of the body, then closes the sending side (a client that gives up). */
  sendBodyBytes?: number;
  /** Leaves out the Host header. */
  noHost?: boolean;
  /** The protocol in the request line; `HTTP/1.1` unless set. */
  version?: string;
  /** The case sets Content-Length / Transfer-Encoding itself (or sends neither). */
  manualLength?: boolean;
}

export interface BadRequest {
  index: number;
  category: Category;
  /** What is wrong with it, in a few words; never a key or a token. */
  label: string;
  wire: Wire;
  /** The statuses the answer may have. */
  allow: readonly number[];
  /** The answer must not contain this (the content of a file a path traversal would reach). */
  leak?: RegExp;
  /** A further check of a 2xx JSON answer: a problem, or null. */
  check?: (body: unknown) => string | null;
}

/** The server's existing things that cases point at; keys and links are never copied into labels. */
export interface Targets {
  apiKey: string;
  /** A request in `prepared` with signer `client` and a text field named `company`. */
  preparedId: string;
  /** A request in `active` with signer `client`. */
  activeId: string;
  /** The path of the active signer's link, `/sign/<token>`. */
  signingPath: string;
  /** A template with roles `client` and `witness` and a named text field `company`. */
  templateId: string;
  /** A valid one-page A4 PDF. */
  pdf: Uint8Array;
  /**
   * Further prepared and active requests (SPARES of each), one per case with a body of another content
   * type on the calls whose input is optional (activate, cancel, reminders): if such a body were taken
   * as "no options", the call would act, and its own request shows it without disturbing the others.
   */
  spare: { prepared: string[]; active: string[] };
}

/** How many spare requests of each state the generator needs. */
export const SPARES = { prepared: 3, active: 5 } as const;

// ------------------------------------------------------------------------------------------------------------
// Seeded randomness

/** mulberry32: small, fast and the same on every platform. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** An integer from lo to hi, both included. */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  bytes(n: number): Buffer {
    const out = Buffer.alloc(n);
    for (let i = 0; i < n; i++) out[i] = this.int(256);
    return out;
  }

  word(n: number, alphabet = BASE62): string {
    let out = '';
    for (let i = 0; i < n; i++) out += alphabet[this.int(alphabet.length)];
    return out;
  }

  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

// ------------------------------------------------------------------------------------------------------------
// Building blocks

type Json = Record<string, unknown>;

export const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';
const CREATE = '/v1/signature-requests';
const TEMPLATES = '/v1/templates';
const BAD = [400] as const;
/** A case whose upload is valid apart from its odd shape: created or refused are both answers. */
const MAY_CREATE = [201, 400, 413] as const;
const CLIENT_ERRORS = Array.from({ length: 100 }, (_, i) => 400 + i);
/** Hosts for URL fields: names, loopback and private addresses in every spelling, IPv6 special blocks. */
const URL_HOSTS = [
  'example.com',
  'sub.example.co.uk',
  'localhost',
  'LOCALHOST',
  'localhost.',
  'foo.localhost',
  'LocalHost.',
  '127.0.0.1',
  '127.0.0.1.',
  '127.1',
  '127.255.255.254',
  '2130706433',
  '0x7f000001',
  '0x7f.1',
  '0177.0.0.1',
  '0',
  '0.0.0.0',
  '[::1]',
  '[::]',
  '[0:0:0:0:0:0:0:1]',
  '[::ffff:127.0.0.1]',
  '[::ffff:7f00:1]',
  '[::127.0.0.1]',
  '[::ffff:8.8.8.8]',
  '[::ffff:a9fe:a9fe]',
  '[64:ff9b::7f00:1]',
  '[64:ff9b:1::1]',
  '[fe80::1]',
  '[fc00::1]',
  '[fd12:3456::1]',
  '[ff02::1]',
  '[2001:db8::1]',
  '[2002:7f00:1::]',
  '[2001::1]',
  '[2606:4700::1111]',
  '10.0.0.1',
  '172.16.0.1',
  '172.31.255.255',
  '172.32.0.1',
  '100.64.0.1',
  '100.128.0.1',
  '169.254.169.254',
  '192.168.0.1',
  '192.0.0.1',
  '192.0.2.1',
  '198.18.0.1',
  '224.0.0.1',
  '239.255.255.250',
  '240.0.0.1',
  '255.255.255.255',
  '8.8.8.8',
  '1.1.1.1',
  'xn--nxasmq6b.com',
  'a_b.example.com',
  '-bad.example.com',
  'exa--mple.com',
  `${'a'.repeat(63)}.com`,
  `${'a'.repeat(64)}.com`,
  `${`${'a'.repeat(60)}.`.repeat(5)}com`,
  'example.com.',
  '%6c%6f%63%61%6c%68%6f%73%74',
  '%31%32%37.0.0.1',
  'localhost%2e',
  '*.example.com',
];
/** URLs no parser reads the same way, or at all. */
const JUNK_URLS = [
  'https://///:99999',
  'https:///',
  'https://',
  'https://:443',
  'https://[::1',
  'https://example.com:99999',
  'https://exa mple.com',
  'https://example.com\\@evil.com',
  'https://evil.com#@example.com',
  'https://user:pass@example.com',
  'https://%',
  'https://example.com/%zz',
];

/** Text a traversal would find in a file outside the served folders. */
const LEAK = /root:x:0:0|"name":\s*"paraph"|"dependencies"|compilerOptions|BEGIN (RSA |EC )?PRIVATE KEY/;

const utf8 = (s: string) => Buffer.from(s, 'utf8');
const latin1 = (s: string) => Buffer.from(s, 'latin1');
const b64url = (s: string) => Buffer.from(s).toString('base64url');
const deepArrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const deepObjects = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
const jsonHeaders = (): Array<[string, string]> => [['content-type', 'application/json']];

/** Splices text in after the opening brace of a JSON object (for keys JSON.stringify would not write). */
function withLeadingKeys(json: string, keys: string): string {
  return `{${keys},${json.slice(1)}`;
}

/** A valid create payload: signer `client` with a signature field, and a named text field `company`. */
export function validPayload(clientReference: string): Json {
  return {
    client_reference: clientReference,
    signers: [{ reference: 'client', name: 'Ada Lovelace', email: 'ada@example.com', order: 1 }],
    fields: [
      { signer_reference: 'client', type: 'signature', page: 1, x: 50, y: 700, width: 200, height: 50 },
      { signer_reference: 'client', type: 'text', name: 'company', page: 1, x: 50, y: 100, width: 200, height: 20 },
    ],
  };
}

export const TEMPLATE_FIELDS: Json[] = [
  { signer_reference: 'client', type: 'signature', page: 1, x: 50, y: 700, width: 200, height: 50 },
  { signer_reference: 'witness', type: 'signature', page: 1, x: 50, y: 600, width: 200, height: 50 },
  { signer_reference: 'client', type: 'text', name: 'company', page: 1, x: 50, y: 100, width: 200, height: 20 },
];

const validField = (over: Json = {}): Json => ({ signer_reference: 'client', type: 'signature', page: 1, x: 50, y: 700, width: 200, height: 50, ...over });
const BULK_SIGNERS = [
  { reference: 'client', email: 'ada@example.com', order: 1 },
  { reference: 'witness', email: 'bob@example.com', order: 2 },
];

interface Part {
  name?: string;
  filename?: string;
  type?: string;
  /** Header lines written as they are, instead of the usual Content-Disposition / Content-Type. */
  rawHeaders?: Array<string | Buffer>;
  /** More header lines after the usual ones. */
  extraHeaders?: Array<string | Buffer>;
  body: Buffer | Uint8Array | string;
}

/** A multipart/form-data body, written byte by byte so every rule of the format can be broken. */
function encodeMultipart(parts: Part[], boundary: string, options: { eol?: string; close?: boolean; preamble?: string; epilogue?: string } = {}): Buffer {
  const eol = options.eol ?? '\r\n';
  const chunks: Buffer[] = [];
  if (options.preamble) chunks.push(utf8(options.preamble + eol));
  for (const part of parts) {
    const lines: Array<string | Buffer> = part.rawHeaders ?? [
      `Content-Disposition: form-data; name="${part.name ?? ''}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`,
      ...(part.type === undefined ? [] : [`Content-Type: ${part.type}`]),
    ];
    chunks.push(utf8(`--${boundary}${eol}`));
    for (const line of [...lines, ...(part.extraHeaders ?? [])]) chunks.push(typeof line === 'string' ? utf8(line) : line, utf8(eol));
    chunks.push(utf8(eol), typeof part.body === 'string' ? utf8(part.body) : Buffer.from(part.body), utf8(eol));
  }
  if (options.close !== false) chunks.push(utf8(`--${boundary}--${eol}`));
  if (options.epilogue) chunks.push(utf8(options.epilogue));
  return Buffer.concat(chunks);
}

// ------------------------------------------------------------------------------------------------------------
// The generator

/** Every case for one seed, in a fixed order. */
export function generateBadRequests(targets: Targets, seed: number): BadRequest[] {
  return new Generator(targets, new Rng(seed)).all();
}

type Mutator = () => void;

/** A mutator too heavy to repeat (megabytes of body): it makes its case the first time only. */
function once(mutate: Mutator): Mutator {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    mutate();
  };
}

class Generator {
  private readonly cases: BadRequest[] = [];
  private category: Category = 'multipart';
  private refs = 0;

  private readonly t: Targets;
  private readonly rng: Rng;

  constructor(t: Targets, rng: Rng) {
    this.t = t;
    this.rng = rng;
  }

  all(): BadRequest[] {
    this.run('multipart', 330, this.multipartMutators());
    this.run('json-body', 300, this.jsonBodyMutators());
    this.wideBodies();
    this.otherContentTypesOnOptionalInputs();
    this.run('path', 160, this.pathMutators());
    this.methods(140);
    this.run('query', 150, this.queryMutators());
    this.run('header', 70, this.headerMutators());
    this.run('auth', 100, this.authMutators());
    this.run('idempotency-key', 60, this.idempotencyMutators());
    this.run('signer', 160, this.signerMutators());
    this.run('sandbox', 80, this.sandboxMutators());
    this.run('protocol', 60, this.protocolMutators());
    this.repeatedHeadersAndNulls();
    this.unknownQueryEverywhere();
    this.connect();
    this.urlSweep();
    this.run('random', 1500, this.randomMutators());
    return this.cases;
  }

  /** Authorization, Idempotency-Key and Signer-Verification sent twice: 400, never "the first wins" or "k1, k2". */
  private repeatedHeadersAndNulls(): void {
    this.category = 'header';
    const wrongKey = `Bearer paraph_test_${this.rng.word(32)}`;
    const list = (label: string, headers: Array<[string, string]>) => this.add(label, { method: 'GET', target: CREATE, headers }, [400]);
    list('Authorization twice (valid, then wrong)', [this.auth(), ['authorization', wrongKey]]);
    list('Authorization twice (wrong, then valid)', [['authorization', wrongKey], this.auth()]);
    list('Authorization twice (the same)', [this.auth(), this.auth()]);
    list('Authorization twice (different case)', [this.auth(), ['Authorization', this.auth()[1]]]);
    this.category = 'idempotency-key';
    for (const path of [`${CREATE}/${UNKNOWN_UUID}/cancel`, `${CREATE}/${UNKNOWN_UUID}/activate`, '/_sandbox/api-keys']) {
      this.json(
        `Idempotency-Key twice (POST ${describePath(path, this.t)})`,
        'POST',
        path,
        '{}',
        [400],
        [...jsonHeaders(), ['idempotency-key', 'k1'], ['idempotency-key', 'k2']],
      );
      this.json(
        `Idempotency-Key twice, the same (POST ${describePath(path, this.t)})`,
        'POST',
        path,
        '{}',
        [400],
        [...jsonHeaders(), ['idempotency-key', 'k1'], ['Idempotency-Key', 'k1']],
      );
    }
    this.category = 'signer';
    this.add(
      'Signer-Verification twice',
      {
        method: 'POST',
        target: `${this.t.signingPath}/api/view`,
        headers: [...jsonHeaders(), ['signer-verification', 'a'], ['signer-verification', 'b']],
        body: utf8('{}'),
      },
      [400],
    );
    this.add(
      'null body under the signing link (otp)',
      { method: 'POST', target: `${this.t.signingPath}/api/otp`, headers: jsonHeaders(), body: utf8('null') },
      [400],
    );
    this.add(
      'null body under the signing link (decline)',
      { method: 'POST', target: `${this.t.signingPath}/api/decline`, headers: jsonHeaders(), body: utf8('null') },
      [400],
    );
  }

  /** An unknown query parameter on every API route: 400 naming it, before anything acts. */
  private unknownQueryEverywhere(): void {
    this.category = 'query';
    const t = this.t;
    const routes: Array<[string, string]> = [
      ['GET', '/v1/openapi.json'],
      ['GET', CREATE],
      ['POST', CREATE],
      ['GET', `${CREATE}/${t.preparedId}`],
      ['PUT', `${CREATE}/${t.preparedId}/fields`],
      ['POST', `${CREATE}/${t.preparedId}/activate`],
      ['POST', `${CREATE}/${t.preparedId}/cancel`],
      ['POST', `${CREATE}/${t.activeId}/reminders`],
      ['POST', `${CREATE}/${t.activeId}/signers/client/replace`],
      ['POST', `${CREATE}/${t.preparedId}/detect-fields`],
      ['GET', `${CREATE}/${t.activeId}/artifacts/signed-pdf`],
      ['GET', TEMPLATES],
      ['POST', TEMPLATES],
      ['DELETE', `${TEMPLATES}/${UNKNOWN_UUID}`],
      ['POST', '/v1/bulk-sends'],
      ['GET', '/v1/webhook-deliveries'],
      ['POST', `/v1/webhook-deliveries/${UNKNOWN_UUID}/replay`],
      ['GET', '/_sandbox/clock'],
      ['POST', '/_sandbox/clock/advance'],
      ['POST', '/_sandbox/api-keys'],
      ['GET', '/_sandbox/faults'],
      ['POST', '/_sandbox/faults'],
      ['DELETE', `/_sandbox/faults/${UNKNOWN_UUID}`],
      ['POST', `/_sandbox/signature-requests/${UNKNOWN_UUID}/expire`],
      ['POST', `/_sandbox/signature-requests/${UNKNOWN_UUID}/purge`],
      ['GET', '/_sandbox/emails'],
      ['POST', `${t.signingPath}/api/otp`],
      ['POST', `${t.signingPath}/api/otp/verify`],
      ['POST', `${t.signingPath}/api/sign`],
      ['POST', `${t.signingPath}/api/decline`],
      ['GET', `${t.signingPath}/api/document`],
      ['GET', `${t.signingPath}/api/signed-document`],
    ];
    for (const [method, path] of routes) {
      const name = this.rng.pick(['foo', 'force', 'expand', '__proto__', 'x']);
      const body = method === 'POST' || method === 'PUT' ? { body: utf8('{}') } : {};
      const headers: Array<[string, string]> = method === 'POST' || method === 'PUT' ? [this.auth(), ['content-type', 'application/json']] : [this.auth()];
      this.add(`unknown query parameter ?${name}=1 (${method} ${describePath(path, t)})`, { method, target: `${path}?${name}=1`, headers, ...body }, [400]);
    }
  }

  /** CONNECT: paraph is no proxy; 405 in the envelope, not a closed connection. */
  private connect(): void {
    this.category = 'protocol';
    for (const target of ['example.com:443', '127.0.0.1:22', `127.0.0.1:${this.rng.range(1, 65535)}`]) {
      this.add(`CONNECT ${target}`, { method: 'CONNECT', target, headers: [['host', target]], noHost: true }, [405]);
    }
  }

  /** Each mutator once, in order, then random ones until `count` cases are made. */
  private run(category: Category, count: number, mutators: Mutator[]): void {
    this.category = category;
    const start = this.cases.length;
    for (const mutate of mutators) mutate();
    while (this.cases.length - start < count) this.rng.pick(mutators)();
  }

  private add(label: string, wire: Wire, allow: readonly number[], extra: Pick<BadRequest, 'leak' | 'check'> = {}): void {
    this.cases.push({ index: this.cases.length, category: this.category, label, wire, allow, ...extra });
  }

  private auth(): [string, string] {
    return ['authorization', `Bearer ${this.t.apiKey}`];
  }

  private nextRef(): string {
    this.refs += 1;
    return `fuzz-${this.rng.word(10)}-${this.refs}`;
  }

  /** A JSON request with the valid key. */
  private json(
    label: string,
    method: string,
    path: string,
    body: string | Buffer,
    allow: readonly number[],
    headers: Array<[string, string | Buffer]> = jsonHeaders(),
  ): void {
    this.add(label, { method, target: path, headers: [this.auth(), ...headers], body: typeof body === 'string' ? utf8(body) : body }, allow);
  }

  // ----------------------------------------------------------------------------------------------------------
  // Multipart: the create call and the template upload

  private boundary(): string {
    return `----fuzz${this.rng.word(16)}`;
  }

  private documentPart(over: Partial<Part> = {}): Part {
    return { name: 'document', filename: 'contract.pdf', type: 'application/pdf', body: this.t.pdf, ...over };
  }

  private requestPart(body: string | Buffer, over: Partial<Part> = {}): Part {
    return { name: 'request', type: 'application/json', body, ...over };
  }

  private goodRequestPart(): Part {
    return this.requestPart(JSON.stringify(validPayload(this.nextRef())));
  }

  /** A create with these parts; only refusals are expected unless `allow` says otherwise. */
  private create(
    label: string,
    parts: Part[],
    allow: readonly number[] = BAD,
    options: Parameters<typeof encodeMultipart>[2] & { contentType?: string | Buffer; route?: string } = {},
  ): void {
    const boundary = this.boundary();
    const body = encodeMultipart(parts, boundary, options);
    const contentType = options.contentType ?? `multipart/form-data; boundary=${boundary}`;
    this.add(label, { method: 'POST', target: options.route ?? CREATE, headers: [this.auth(), ['content-type', contentType]], body }, allow);
  }

  /** A create payload that breaks one rule of the API description or the sandbox contract. */
  private badPayload(): { label: string; json: string | Buffer; allow: readonly number[] } {
    const rng = this.rng;
    const p = validPayload(this.nextRef());
    const signer = (p.signers as Json[])[0]!;
    const field = (p.fields as Json[])[0]!;
    const set = (target: Json, key: string, value: unknown) => {
      target[key] = value;
      return JSON.stringify(p);
    };
    type Variant = [label: string, make: () => string | Buffer, allow?: readonly number[]];
    const variants: Variant[] = [
      ['payload is a number', () => '42'],
      ['payload is a string', () => '"request"'],
      ['payload is an array', () => JSON.stringify([p])],
      ['payload is null', () => 'null'],
      ['payload is true', () => 'true'],
      ['client_reference is a number', () => set(p, 'client_reference', 12)],
      ['client_reference is empty', () => set(p, 'client_reference', '')],
      ['client_reference has 161 characters', () => set(p, 'client_reference', 'r'.repeat(161))],
      ['client_reference is an object', () => set(p, 'client_reference', {})],
      ['signers missing', () => JSON.stringify({ ...p, signers: undefined })],
      ['signers is an object', () => set(p, 'signers', {})],
      ['signers is empty', () => set(p, 'signers', [])],
      [
        '11 signers',
        () =>
          set(
            p,
            'signers',
            Array.from({ length: 11 }, (_, i) => ({ reference: `s${i}`, email: `s${i}@example.com`, order: (i % 10) + 1 })),
          ),
      ],
      ['signer order is a string', () => set(signer, 'order', '1')],
      ['signer order is 0', () => set(signer, 'order', 0)],
      ['signer order is 11', () => set(signer, 'order', 11)],
      ['signer email is not an email', () => set(signer, 'email', rng.pick(['nope', '@', 'a@', 'a b@example.com', '']))],
      ['signer reference is empty', () => set(signer, 'reference', '')],
      ['signer reference has 101 characters', () => set(signer, 'reference', 'r'.repeat(101))],
      ['signer locale is de', () => set(signer, 'locale', 'de')],
      ['signer verification is sms', () => set(signer, 'verification', 'sms')],
      ['signer has an unknown property', () => set(signer, 'role', 'admin')],
      ['signer name has 201 characters', () => set(signer, 'name', 'n'.repeat(201))],
      ['two signers with one reference', () => set(p, 'signers', [signer, { ...signer, email: 'other@example.com', order: 2 }])],
      ['fields is an object', () => set(p, 'fields', {})],
      [
        '101 fields',
        () =>
          set(
            p,
            'fields',
            Array.from({ length: 101 }, (_, i) => validField({ y: 10 + (i % 50) })),
          ),
      ],
      ['field type checkbox', () => set(field, 'type', 'checkbox')],
      ['field page 0', () => set(field, 'page', 0)],
      ['field page 10001', () => set(field, 'page', 10001)],
      ['field page 1.5', () => set(field, 'page', 1.5)],
      ['field page is a string', () => set(field, 'page', '1')],
      ['field page 2 of a one-page document', () => set(field, 'page', 2)],
      ['field x is negative', () => set(field, 'x', -1)],
      ['field width 0', () => set(field, 'width', 0)],
      ['field width 5001', () => set(field, 'width', 5001)],
      ['field outside its page', () => set(field, 'x', 4000)],
      ['field for an unknown signer', () => set(field, 'signer_reference', 'nobody')],
      ['field name breaks the pattern', () => set(field, 'name', rng.pick(['Bad Name', '1abc', '', 'a'.repeat(65), 'é']))],
      ['field value has 501 characters', () => set((p.fields as Json[])[1]!, 'value', 'v'.repeat(501))],
      ['read_only without a value', () => set((p.fields as Json[])[1]!, 'read_only', true)],
      ['field_key on a signature field', () => set(field, 'field_key', 'company')],
      ['sequential_signing is a string', () => set(p, 'sequential_signing', 'true')],
      ['callback_url on loopback over http', () => set(p, 'callback_url', 'http://127.0.0.1/hook')],
      [
        'callback_url to a private address',
        () =>
          set(
            p,
            'callback_url',
            rng.pick(['https://10.0.0.1/h', 'https://192.168.1.1/h', 'https://[::1]/h', 'https://169.254.169.254/latest', 'https://[::ffff:127.0.0.1]/h']),
          ),
      ],
      ['callback_url on port 8443', () => set(p, 'callback_url', 'https://example.com:8443/h')],
      ['callback_url is not a URI', () => set(p, 'callback_url', 'not a uri')],
      ['return_url is javascript:', () => set(p, 'return_url', 'javascript:alert(1)')],
      ['return_url has 2049 characters', () => set(p, 'return_url', `https://example.com/${'a'.repeat(2029)}`)],
      ['embed_origin has a path', () => set(p, 'embed_origin', 'https://example.com/')],
      ['embed_origin has 256 characters', () => set(p, 'embed_origin', `https://${'a'.repeat(240)}.example.com`)],
      ['email subject has a line break', () => set(p, 'email', { subject: 'hello\r\nBcc: x@example.com' })],
      ['email sender_name has 121 characters', () => set(p, 'email', { sender_name: 's'.repeat(121) })],
      ['email logo_url over http', () => set(p, 'email', { logo_url: 'http://example.com/logo.png' })],
      ['email has an unknown property', () => set(p, 'email', { html: '<b>x</b>' })],
      ['template_id is not a uuid', () => set(p, 'template_id', 'tpl_1')],
      ['template_id and fields together', () => set(p, 'template_id', this.t.templateId)],
      ['template_id names no template', () => JSON.stringify({ ...p, fields: undefined, template_id: UNKNOWN_UUID }), [404]],
      ['field_values value has 501 characters', () => set(p, 'field_values', { company: 'v'.repeat(501) })],
      ['field_values names an unknown field', () => set(p, 'field_values', { nothing: 'x' })],
      ['field_values value is a number', () => set(p, 'field_values', { company: 1 })],
      ['top-level __proto__', () => withLeadingKeys(JSON.stringify(p), '"__proto__":{"polluted":"yes"}')],
      ['top-level constructor.prototype', () => withLeadingKeys(JSON.stringify(p), '"constructor":{"prototype":{"polluted":"yes"}}')],
      ['top-level prototype', () => withLeadingKeys(JSON.stringify(p), '"prototype":{"polluted":"yes"}')],
      ['signer __proto__', () => JSON.stringify(p).replace('{"reference":"client"', '{"__proto__":{"admin":true},"reference":"client"')],
      [
        'field __proto__',
        () =>
          JSON.stringify(p).replace(
            '{"signer_reference":"client","type":"signature"',
            '{"__proto__":{"page":1},"signer_reference":"client","type":"signature"',
          ),
      ],
      ['email __proto__', () => withLeadingKeys(JSON.stringify(p), '"email":{"__proto__":{"subject":"x"}}')],
      ...(['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'] as const).map(
        (key): [string, () => string] => [`field_values key ${key}`, () => withLeadingKeys(JSON.stringify(p), `"field_values":{"${key}":"x"}`)],
      ),
      ['10,000-deep arrays', () => deepArrays(10_000)],
      ['10,000-deep objects', () => deepObjects(10_000)],
      ['deep nesting in email.message', () => withLeadingKeys(JSON.stringify(p), `"email":{"message":${deepArrays(10_000)}}`)],
      ['deep nesting in field_values', () => withLeadingKeys(JSON.stringify(p), `"field_values":{"company":${deepObjects(5_000)}}`)],
      ['deep nesting in a signer', () => JSON.stringify(p).replace('"order":1', `"order":${deepArrays(10_000)}`)],
      ['invalid UTF-8 in an unknown key', () => Buffer.concat([latin1('{"\xff\xfe":1,'), utf8(JSON.stringify(p).slice(1))])],
      ['invalid UTF-8 in a value, and no signers', () => Buffer.concat([latin1('{"client_reference":"\xc3\x28\xa0\xa1","signers":[]}')])],
      [
        'overlong UTF-8 in a value, and signers a string',
        () => Buffer.concat([latin1('{"client_reference":"\xc0\xae\xc0\xae\xe0\x80\xaf"'), utf8(',"signers":"x"}')]),
      ],
      ['UTF-16 with a byte order mark', () => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(JSON.stringify(p), 'utf16le')])],
      ['lone surrogate escape and no fields rule', () => JSON.stringify({ ...p, client_reference: '\ud800' }).replace('"signers"', '"signers_"')],
      ['duplicate keys, the last one wrong', () => withLeadingKeys(JSON.stringify(p), '"client_reference":"a"').replace(/}$/, ',"client_reference":7}')],
    ];
    const [label, make, allow] = rng.pick(variants);
    return { label, json: make(), allow: allow ?? BAD };
  }

  private badJsonText(): string {
    return this.rng.pick([
      'hello',
      '{',
      '{"client_reference":',
      '{"a":1,}',
      "{'a':1}",
      'nul',
      '[',
      '"',
      '{"a":1}{"b":2}',
      'NaN',
      '-',
      '01',
      '{"a":01}',
      '\u0000',
      ' ',
      '',
      '{"a":"\\x41"}',
      '{"a":"\\u12"}',
    ]);
  }

  private multipartMutators(): Mutator[] {
    const rng = this.rng;
    const doc = () => this.documentPart();
    const req = () => this.goodRequestPart();
    const extraNames = ['extra', '', 'DOCUMENT', 'document ', 'request[]', 'x'.repeat(5000), 'réquest', 'constructor', 'prototype', 'hasOwnProperty'];
    const badContentTypes = [
      'text/plain',
      'application/octet-stream',
      'image/png',
      'application/json',
      'application/x-pdf',
      'pdf',
      'application/pdf\u00e9',
      '',
    ];
    const badFilenames = ['contract.txt', 'contract', 'contract.pdf.exe', 'contract.PDF.zip', 'contract.pdf ', ''];
    const notPdf = (): [string, Buffer] => {
      const [what, make] = rng.pick<[string, () => Buffer]>([
        ['random bytes', () => rng.bytes(rng.range(1, 4096))],
        ['plain text', () => utf8('This is not a PDF at all.\n'.repeat(rng.range(1, 50)))],
        ['a PDF header and garbage', () => Buffer.concat([utf8('%PDF-1.7\n'), rng.bytes(rng.range(10, 4000))])],
        ['a PDF header and nothing else', () => utf8('%PDF-1.4\n%%EOF\n')],
        ['a PNG', () => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), rng.bytes(200)])],
        ['a zip', () => Buffer.concat([utf8('PK\u0003\u0004'), rng.bytes(300)])],
        ['a truncated PDF', () => Buffer.from(this.t.pdf.subarray(0, rng.range(20, Math.floor(this.t.pdf.length * 0.6))))],
        ['a PDF whose page tree loops', () => utf8(loopingPdf())],
        ['a PDF that claims a billion pages and has none', () => utf8(hugeCountPdf())],
      ]);
      return [what, make()];
    };
    return [
      () => this.create('no document part', [req()]),
      () => this.create('no request part', [doc()]),
      () => this.create('no parts at all', []),
      () =>
        this.add(
          'empty body with a boundary',
          { method: 'POST', target: CREATE, headers: [this.auth(), ['content-type', 'multipart/form-data; boundary=abc']], body: Buffer.alloc(0) },
          BAD,
        ),
      () => this.create('document twice', [doc(), doc(), req()]),
      () => this.create('request twice', [doc(), req(), req()]),
      () => this.create('request before document, twice each', [req(), doc(), req(), doc()]),
      () => this.create(`unknown extra part`, [doc(), req(), { name: rng.pick(extraNames), body: 'x' }]),
      () => this.create('a __proto__ part', [doc(), { name: '__proto__', body: '{"polluted":"yes"}' }, req()]),
      () => this.create('too many parts', [doc(), req(), ...Array.from({ length: rng.range(3, 12) }, (_, i) => ({ name: `p${i}`, body: 'x' }))]),
      () => this.create('document with a wrong content type', [this.documentPart({ type: rng.pick(badContentTypes) }), req()]),
      () => this.create('document without a content type', [this.documentPart({ type: undefined }), req()]),
      () => this.create('document is a text field', [this.documentPart({ filename: undefined }), req()]),
      () => this.create('document with a wrong filename', [this.documentPart({ filename: rng.pick(badFilenames) }), req()]),
      () =>
        this.create('document filename with invalid UTF-8', [
          this.documentPart({
            rawHeaders: [latin1('Content-Disposition: form-data; name="document"; filename="contr\xff\xfe.txt"'), 'Content-Type: application/pdf'],
          }),
          req(),
        ]),
      () => this.create('empty document', [this.documentPart({ body: Buffer.alloc(0) }), req()]),
      () => {
        const [what, bytes] = notPdf();
        this.create(`document is ${what}`, [this.documentPart({ body: bytes }), req()]);
      },
      () =>
        this.create('document sent as base64 text', [
          this.documentPart({ body: Buffer.from(this.t.pdf).toString('base64'), extraHeaders: ['Content-Transfer-Encoding: base64'] }),
          req(),
        ]),
      () => this.create('request part is not JSON', [doc(), this.requestPart(this.badJsonText())]),
      () => this.create('request part is a text field with bad JSON', [doc(), this.requestPart(this.badJsonText(), { type: undefined })]),
      () => this.create('request part is a file with bad JSON', [doc(), this.requestPart(this.badJsonText(), { filename: 'request.json' })]),
      () => this.create('request part is text/html with bad JSON', [doc(), this.requestPart(this.badJsonText(), { type: 'text/html' })]),
      () => {
        const bad = this.badPayload();
        this.create(
          `request part: ${bad.label}`,
          [doc(), this.requestPart(bad.json, rng.pick([{}, { type: undefined }, { filename: 'request.json' }]))],
          bad.allow,
        );
      },
      () =>
        this.create('request part name with invalid UTF-8', [
          doc(),
          this.requestPart(JSON.stringify(validPayload(this.nextRef())), { rawHeaders: [latin1('Content-Disposition: form-data; name="requ\xe9st"')] }),
        ]),
      () => this.create('request part with a NUL in its name', [doc(), this.requestPart('{}', { name: 'request\u0000' })]),
      () => this.create('Content-Type without a boundary', [doc(), req()], BAD, { contentType: 'multipart/form-data' }),
      () =>
        this.create('empty boundary', [doc(), req()], BAD, {
          contentType: rng.pick(['multipart/form-data; boundary=', 'multipart/form-data; boundary=""', 'multipart/form-data; boundary= ']),
        }),
      () => {
        const boundary = 'b'.repeat(rng.pick([71, 72, 100, 256, 257, 1000, 5000, 12_000]));
        const body = encodeMultipart([doc(), req()], boundary);
        this.add(
          `boundary of ${boundary.length} characters`,
          { method: 'POST', target: CREATE, headers: [this.auth(), ['content-type', `multipart/form-data; boundary=${boundary}`]], body },
          BAD,
        );
      },
      () => {
        const boundary = rng.pick(['a b', 'a"b', '===', '\u00e9\u00e8', '--', '----', ';', 'a\tb']);
        const body = encodeMultipart([doc(), this.requestPart('[]')], boundary);
        this.add(
          'boundary with odd characters and a bad payload',
          { method: 'POST', target: CREATE, headers: [this.auth(), ['content-type', latin1(`multipart/form-data; boundary="${boundary}"`)]], body },
          BAD,
        );
      },
      () => this.create('boundary in the header differs from the body', [doc(), req()], BAD, { contentType: 'multipart/form-data; boundary=somethingelse' }),
      () => {
        const boundary = this.boundary();
        const body = encodeMultipart([doc(), req()], boundary);
        const cut = rng.range(0, body.length - boundary.length - 8);
        this.add(
          `body truncated at byte ${cut} of ${body.length}`,
          {
            method: 'POST',
            target: CREATE,
            headers: [this.auth(), ['content-type', `multipart/form-data; boundary=${boundary}`]],
            body: body.subarray(0, cut),
          },
          BAD,
        );
      },
      () => this.create('bare LF line endings and a bad payload', [doc(), this.requestPart(this.badJsonText())], BAD, { eol: '\n' }),
      () => this.create('no closing delimiter', [doc(), req()], BAD, { close: false }),
      () =>
        this.create('preamble and epilogue around a bad payload', [doc(), this.requestPart('[]')], BAD, {
          preamble: 'garbage before',
          epilogue: 'garbage after',
        }),
      // Huge part headers around valid parts: paraph may take the upload or refuse it, but must answer.
      () => this.create('huge filename', [this.documentPart({ filename: `${'f'.repeat(rng.range(20_000, 100_000))}.pdf` }), req()], MAY_CREATE),
      () =>
        this.create('huge part header line', [this.documentPart({ extraHeaders: [`X-Pad: ${'p'.repeat(rng.range(20_000, 100_000))}`] }), req()], MAY_CREATE),
      () =>
        this.create(
          'hundreds of part header lines',
          [this.documentPart({ extraHeaders: Array.from({ length: rng.range(150, 2000) }, (_, i) => `X-H${i}: v`) }), req()],
          MAY_CREATE,
        ),
      () =>
        this.create(
          'huge part header and a bad payload',
          [this.documentPart({ extraHeaders: [`X-Pad: ${'p'.repeat(rng.range(20_000, 100_000))}`] }), this.requestPart('[]')],
          [400, 413],
        ),
      () => this.create('part without Content-Disposition', [{ rawHeaders: ['Content-Type: application/pdf'], body: this.t.pdf }, req()]),
      () =>
        this.create('Content-Disposition attachment', [
          this.documentPart({ rawHeaders: ['Content-Disposition: attachment; name="document"; filename="c.pdf"', 'Content-Type: application/pdf'] }),
          req(),
        ]),
      () => this.create('part header without a colon', [this.documentPart({ extraHeaders: ['this is not a header'] }), this.requestPart('[]')]),
      () => {
        const type = rng.pick(['application/x-www-form-urlencoded', 'text/plain', 'application/json', 'multipart/mixed; boundary=abc', 'application/pdf']);
        const body =
          type === 'application/json'
            ? utf8(JSON.stringify(validPayload(this.nextRef())))
            : type === 'application/pdf'
              ? Buffer.from(this.t.pdf)
              : utf8('request=%7B%7D&document=x');
        this.add(`body of type ${type.split(';')[0]}`, { method: 'POST', target: CREATE, headers: [this.auth(), ['content-type', type]], body }, BAD);
      },
      () =>
        this.add(
          'multipart body without a Content-Type',
          { method: 'POST', target: CREATE, headers: [this.auth()], body: encodeMultipart([doc(), req()], 'abc') },
          BAD,
        ),
      once(() =>
        this.create(
          '8 MiB + 1 document',
          [this.documentPart({ body: Buffer.concat([Buffer.from(this.t.pdf), Buffer.alloc(8 * 1024 * 1024 + 1 - this.t.pdf.length, 0x20)]) }), req()],
          BAD,
        ),
      ),
      // The template upload: exactly `document`, `name` and `fields`.
      () => this.template('template without a name', [doc(), { name: 'fields', body: JSON.stringify(TEMPLATE_FIELDS) }]),
      () => this.template('template without fields', [doc(), { name: 'name', body: 'NDA' }]),
      () => this.template('template fields not JSON', [doc(), { name: 'name', body: 'NDA' }, { name: 'fields', body: this.badJsonText() }]),
      () => this.template('template fields empty', [doc(), { name: 'name', body: 'NDA' }, { name: 'fields', body: '[]' }]),
      () => this.template('template fields an object', [doc(), { name: 'name', body: 'NDA' }, { name: 'fields', body: '{"0":{}}' }]),
      () =>
        this.template('template fields with __proto__', [
          doc(),
          { name: 'name', body: 'NDA' },
          { name: 'fields', body: `[{"__proto__":{"x":1},${JSON.stringify(TEMPLATE_FIELDS[0]).slice(1)}]` },
        ]),
      () => this.template('template fields 10,000 deep', [doc(), { name: 'name', body: 'NDA' }, { name: 'fields', body: deepArrays(10_000) }]),
      () =>
        this.template('template name of 121 characters', [
          doc(),
          { name: 'name', body: 'n'.repeat(121) },
          { name: 'fields', body: JSON.stringify(TEMPLATE_FIELDS) },
        ]),
      () => this.template('template name empty', [doc(), { name: 'name', body: '' }, { name: 'fields', body: JSON.stringify(TEMPLATE_FIELDS) }]),
      () =>
        this.template('template name twice', [
          doc(),
          { name: 'name', body: 'a' },
          { name: 'name', body: 'b' },
          { name: 'fields', body: JSON.stringify(TEMPLATE_FIELDS) },
        ]),
      () =>
        this.template('template with an extra part', [
          doc(),
          { name: 'name', body: 'a' },
          { name: 'fields', body: JSON.stringify(TEMPLATE_FIELDS) },
          { name: 'request', body: '{}' },
        ]),
      () =>
        this.template('template document not a PDF', [
          this.documentPart({ body: rng.bytes(500) }),
          { name: 'name', body: 'a' },
          { name: 'fields', body: JSON.stringify(TEMPLATE_FIELDS) },
        ]),
    ];
  }

  private template(label: string, parts: Part[]): void {
    this.create(label, parts, BAD, { route: TEMPLATES });
  }

  // ----------------------------------------------------------------------------------------------------------
  // JSON bodies on every JSON route, for existing and unknown requests

  private jsonRoutes(): Array<{ method: string; path: string; known: string; optional: boolean; real: boolean; specific: string[] }> {
    const { preparedId: p, activeId: a } = this.t;
    const activate = [
      '{"send_emails":"true"}',
      '{"send_emails":1}',
      '{"link_expiry_days":0}',
      '{"link_expiry_days":31}',
      '{"link_expiry_days":"3"}',
      '{"link_expiry_days":1.5}',
      '{"link_expiry_days":-1}',
      '{"link_expiry_days":1e308}',
      '{"link_expiry_days":null}',
      '{"link_expiry_days":[3]}',
      '{"unknown":1}',
    ];
    const cancel = [
      '{"reason":1}',
      `{"reason":"${'r'.repeat(501)}"}`,
      '{"reason":[]}',
      '{"reason":{}}',
      '{"reason":null}',
      '{"reason":true}',
      '{"reason":"ok","extra":1}',
    ];
    const reminders = [
      '{"signer_reference":1}',
      '{"signer_reference":[]}',
      '{"signer_reference":null}',
      '{"signer_reference":{}}',
      '{"signer_reference":"client","x":1}',
    ];
    const fields = [
      '{"fields":"x"}',
      '{"fields":{}}',
      '{"fields":[]}',
      '{"fields":[1]}',
      `{"fields":${JSON.stringify(Array.from({ length: 101 }, () => validField()))}}`,
      `{"fields":[${JSON.stringify(validField({ page: '1' }))}]}`,
      `{"fields":[${JSON.stringify(validField({ signer_reference: 'nobody' }))}]}`,
      `{"fields":[${JSON.stringify(validField({ x: 5000 }))}]}`,
      `{"fields":[{"__proto__":{"page":1},${JSON.stringify(validField()).slice(1)}]}`,
      '{}',
      'null',
    ];
    const replace = [
      '{"email":"nope"}',
      '{"email":1}',
      '{"email":"x@example.com","locale":"de"}',
      `{"email":"x@example.com","name":"${'n'.repeat(201)}"}`,
      '{"email":"x@example.com","send_email":"yes"}',
      '{"email":"x@example.com","extra":1}',
      '{}',
      'null',
    ];
    const recipient = (over: Json = {}) => ({ client_reference: 'bulk-fuzz', signers: BULK_SIGNERS, ...over });
    const tpl = this.t.templateId;
    const bulk = [
      JSON.stringify({ template_id: 'x', recipients: [recipient()] }),
      JSON.stringify({ template_id: tpl, recipients: [] }),
      JSON.stringify({ template_id: tpl, recipients: Array.from({ length: 51 }, (_, i) => recipient({ client_reference: `b${i}` })) }),
      JSON.stringify({ template_id: tpl, recipients: 'x' }),
      JSON.stringify({ template_id: tpl, recipients: [recipient()], link_expiry_days: 0 }),
      JSON.stringify({ template_id: tpl, recipients: [recipient()], extra: 1 }),
      JSON.stringify({ template_id: tpl, recipients: [recipient()], callback_url: 'http://10.0.0.1/' }),
      '{}',
      'null',
    ];
    const clock = [
      '{"seconds":0}',
      '{"seconds":-1}',
      '{"seconds":0.5}',
      '{"seconds":"60"}',
      '{"seconds":315360001}',
      '{"seconds":null}',
      '{"seconds":true}',
      '{"seconds":[1]}',
      '{"seconds":{}}',
      '{"seconds":1e400}',
      '{"seconds":60,"x":1}',
      '{"seconds":-0}',
      '{"seconds":1e-7}',
      '{}',
      'null',
    ];
    return [
      { method: 'POST', path: `${CREATE}/${p}/activate`, known: 'link_expiry_days', optional: true, real: true, specific: activate },
      { method: 'POST', path: `${CREATE}/${p}/cancel`, known: 'reason', optional: true, real: true, specific: cancel },
      { method: 'POST', path: `${CREATE}/${a}/cancel`, known: 'reason', optional: true, real: true, specific: cancel },
      { method: 'POST', path: `${CREATE}/${a}/reminders`, known: 'signer_reference', optional: true, real: true, specific: reminders },
      { method: 'PUT', path: `${CREATE}/${p}/fields`, known: 'fields', optional: false, real: true, specific: fields },
      { method: 'POST', path: `${CREATE}/${p}/signers/client/replace`, known: 'email', optional: false, real: true, specific: replace },
      { method: 'POST', path: `${CREATE}/${a}/signers/client/replace`, known: 'email', optional: false, real: true, specific: replace },
      { method: 'POST', path: '/v1/bulk-sends', known: 'recipients', optional: false, real: true, specific: bulk },
      { method: 'POST', path: '/_sandbox/clock/advance', known: 'seconds', optional: false, real: true, specific: clock },
      { method: 'POST', path: `${CREATE}/${UNKNOWN_UUID}/activate`, known: 'link_expiry_days', optional: true, real: false, specific: activate },
      { method: 'POST', path: `${CREATE}/${UNKNOWN_UUID}/cancel`, known: 'reason', optional: true, real: false, specific: cancel },
      { method: 'PUT', path: `${CREATE}/${UNKNOWN_UUID}/fields`, known: 'fields', optional: false, real: false, specific: fields },
    ];
  }

  private jsonBodyMutators(): Mutator[] {
    const rng = this.rng;
    const routes = this.jsonRoutes();
    const route = () => rng.pick(routes);
    const allowFor = (r: { real: boolean }, ...more: number[]) => (r.real ? [400, ...more] : [400, 404, ...more]);
    const send =
      (label: string, make: (r: ReturnType<typeof route>) => string | Buffer, headers?: Array<[string, string | Buffer]>, extra: number[] = []) =>
      () => {
        const r = route();
        this.json(`${label} (${r.method} ${describePath(r.path, this.t)})`, r.method, r.path, make(r), allowFor(r, ...extra), headers);
      };
    return [
      send('JSON syntax error', () =>
        rng.pick([
          '{',
          '{"a":1,}',
          "{'a':1}",
          'nul',
          '[',
          '"',
          '{"a":1}{"b":2}',
          'NaN',
          'Infinity',
          '-',
          '01',
          '{"a":01}',
          '\u0000',
          '{"a":"\\u12"}',
          '{"a" 1}',
          '}{',
        ]),
      ),
      send('top-level array', () => rng.pick(['[]', '[{}]', '[1,2,3]'])),
      send('top-level scalar', () => rng.pick(['1', '"text"', 'true', 'false', '-0', '1e999'])),
      () => {
        // `null` is refused on every route, those whose input is optional too (it is no "no body").
        const r = rng.pick(routes);
        this.json(`null body (${r.method} ${describePath(r.path, this.t)})`, r.method, r.path, 'null', [400]);
      },
      send('route rule broken', (r) => rng.pick(r.specific)),
      send('10,000-deep arrays', () => deepArrays(10_000)),
      send('10,000-deep objects', () => deepObjects(10_000)),
      send('100,000-deep arrays', () => deepArrays(100_000)),
      once(send('500,000-deep arrays (just under 1 MiB)', () => deepArrays(500_000))),
      send('deep nesting under a known key', (r) => `{"${r.known}":${rng.chance(0.5) ? deepArrays(10_000) : deepObjects(10_000)}}`),
      once(send('unclosed 1 MiB of brackets', () => '['.repeat(1024 * 1024 - 1))),
      send('__proto__ key', () =>
        rng.pick(['{"__proto__":{"polluted":"yes"}}', '{"__proto__":null}', '{"__proto__":[]}', '{"a":{"__proto__":{"polluted":"yes"}}}']),
      ),
      send('constructor.prototype key', () =>
        rng.pick(['{"constructor":{"prototype":{"polluted":"yes"}}}', '{"prototype":{"polluted":"yes"}}', '{"constructor":1}']),
      ),
      send(
        'a known key beside __proto__',
        (r) => `{"${r.known}":${r.known === 'reason' || r.known === 'email' ? '"x@example.com"' : '1'},"__proto__":{"polluted":"yes"}}`,
      ),
      send('invalid UTF-8 in a key', () => latin1('{"\xff\xfe\xfd":1}')),
      send('invalid UTF-8 in a value beside an unknown key', (r) => Buffer.concat([latin1(`{"${r.known}":"\xc3\x28\xe2\x82","zz_unknown":1}`)])),
      send('UTF-16 body with a byte order mark', (r) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`{"${r.known}":1,"x":1}`, 'utf16le')])),
      send('overlong UTF-8 and an unknown key', () => latin1('{"\xc0\xafzz":1}')),
      send('lone surrogate escape beside an unknown key', () => '{"zz":"\\ud800\\udc00\\ud800"}'),
      send('duplicate keys, the last one wrong', (r) => `{"${r.known}":"x","${r.known}":{"a":[]},"extra":1}`),
      send('text/plain body', () => '{"reason":"x"}', [['content-type', 'text/plain']], [415]),
      send('form-urlencoded body', () => 'reason=x&seconds=60', [['content-type', 'application/x-www-form-urlencoded']], [415]),
      send('JSON with charset utf-16', () => '{"x":1}', [['content-type', 'application/json; charset=utf-16']], [415]),
      send('JSON body without a Content-Type', () => '{"zz":1}', [], [415]),
      once(send('body of 1 MiB + 1', (r) => `{"${r.known}":"${'x'.repeat(1024 * 1024 - r.known.length - 6)}"}`, undefined, [413])),
      once(send('body of 3 MiB', () => `{"x":"${'y'.repeat(3 * 1024 * 1024)}"}`, undefined, [413])),
      // Names that exist on every JavaScript object must not be mistaken for a signer or a field.
      () => {
        const name = rng.pick(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'prototype', 'valueOf']);
        this.json(`reminders for signer "${name}"`, 'POST', `${CREATE}/${this.t.activeId}/reminders`, JSON.stringify({ signer_reference: name }), [404]);
      },
      () => {
        const name = rng.pick(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'prototype', 'valueOf']);
        const id = rng.pick([this.t.preparedId, this.t.activeId]);
        this.json(`replace signer "${name}"`, 'POST', `${CREATE}/${id}/signers/${name}/replace`, JSON.stringify({ email: 'mallory@example.com' }), [404]);
      },
      () => {
        const name = rng.pick(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'prototype', 'valueOf']);
        const body = `{"template_id":"${this.t.templateId}","recipients":[{"client_reference":"${this.nextRef()}","signers":${JSON.stringify(BULK_SIGNERS)},"field_values":{"${name}":"x"}}]}`;
        this.add(
          `bulk row with field_values key ${name}`,
          { method: 'POST', target: '/v1/bulk-sends', headers: [this.auth(), ...jsonHeaders()], body: utf8(body) },
          [200],
          { check: everyRowFailed },
        );
      },
      () => {
        const name = rng.pick(['__proto__', 'constructor', 'toString']);
        const body = `{"template_id":"${this.t.templateId}","recipients":[{"__proto__":{"client_reference":"x"},"client_reference":"${this.nextRef()}","signers":[{"reference":"${name}","email":"a@example.com","order":1},{"reference":"witness","email":"b@example.com","order":2}]}]}`;
        this.add(
          `bulk row with signer "${name}" and a __proto__ key`,
          { method: 'POST', target: '/v1/bulk-sends', headers: [this.auth(), ...jsonHeaders()], body: utf8(body) },
          [200],
          { check: everyRowFailed },
        );
      },
    ];
  }

  /**
   * Bodies of another content type on the calls whose JSON input is optional. A text/plain or form body
   * is refused there; a multipart one must be too, not read as "no options" (the call would then act and
   * drop what the client asked for, such as a cancellation reason or send_emails).
   */
  private otherContentTypesOnOptionalInputs(): void {
    this.category = 'content-type';
    const spare = { prepared: [...this.t.spare.prepared], active: [...this.t.spare.active] };
    const take = (state: 'prepared' | 'active'): string => {
      const id = spare[state].shift();
      if (!id) throw new Error(`not enough spare ${state} requests (SPARES)`);
      return id;
    };
    const part = (name: string, value: string) => `--XX\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n--XX--\r\n`;
    const calls: Array<[label: string, state: 'prepared' | 'active', action: string, type: string, body: string]> = [
      ['activate, multipart send_emails=true', 'prepared', 'activate', 'multipart/form-data; boundary=XX', part('send_emails', 'true')],
      ['activate, multipart without a boundary', 'prepared', 'activate', 'multipart/form-data', part('link_expiry_days', '1')],
      ['activate, form-urlencoded', 'prepared', 'activate', 'application/x-www-form-urlencoded', 'send_emails=true'],
      ['cancel an active request, multipart reason', 'active', 'cancel', 'multipart/form-data; boundary=XX', part('reason', 'sent as a form')],
      ['cancel an active request, multipart that is garbage', 'active', 'cancel', 'multipart/form-data; boundary=XX', 'this is not multipart at all'],
      ['cancel an active request, text/plain', 'active', 'cancel', 'text/plain', '{"reason":"x"}'],
      ['remind, multipart signer_reference of nobody', 'active', 'reminders', 'multipart/form-data; boundary=XX', part('signer_reference', 'nobody')],
      ['remind, multipart/mixed', 'active', 'reminders', 'multipart/mixed; boundary=XX', part('signer_reference', 'nobody')],
    ];
    for (const [label, state, action, type, body] of calls) {
      this.add(
        label,
        { method: 'POST', target: `${CREATE}/${take(state)}/${action}`, headers: [this.auth(), ['content-type', type]], body: utf8(body) },
        [400, 415],
      );
    }
  }

  /** Bodies with thousands of keys or items, under the 1 MiB body limit. */
  private wideBodies(): void {
    const keys = Array.from({ length: 40_000 }, (_, i) => `"k${i}":1`).join(',');
    this.json('40,000 unknown keys', 'POST', `${CREATE}/${this.t.preparedId}/cancel`, `{${keys}}`, [400]);
    this.json(
      '5,000 valid fields',
      'PUT',
      `${CREATE}/${this.t.preparedId}/fields`,
      JSON.stringify({ fields: Array.from({ length: 5000 }, () => validField()) }),
      [400],
    );
    this.json(
      '200,000 numbers as fields',
      'PUT',
      `${CREATE}/${this.t.preparedId}/fields`,
      `{"fields":[${Array.from({ length: 200_000 }, () => '1').join(',')}]}`,
      [400],
    );
    const signers = Array.from({ length: 3000 }, (_, i) => ({ reference: `s${i}`, email: `s${i}@example.com`, order: 1 }));
    this.create('3,000 signers', [this.documentPart(), this.requestPart(JSON.stringify({ ...validPayload(this.nextRef()), signers }))]);
    const recipients = Array.from({ length: 2000 }, (_, i) => ({ client_reference: `wide-${i}`, signers: BULK_SIGNERS }));
    this.json('2,000 bulk recipients', 'POST', '/v1/bulk-sends', JSON.stringify({ template_id: this.t.templateId, recipients }), [400]);
  }

  // ----------------------------------------------------------------------------------------------------------
  // Ids and paths

  private badIds(): string[] {
    return [
      '..%2f..%2fetc%2fpasswd',
      '..%2F..%2F..%2F..%2Fetc%2Fpasswd',
      '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
      '..%252f..%252fetc%252fpasswd',
      '..%5c..%5cwindows%5cwin.ini',
      '%00',
      'abc%00def',
      `${UNKNOWN_UUID}%00`,
      `${UNKNOWN_UUID}%00.json`,
      'x'.repeat(101),
      'x'.repeat(1000),
      'x'.repeat(12_000),
      `${UNKNOWN_UUID}`.repeat(40),
      '%41'.repeat(2000),
      '%C3%A9t%C3%A9',
      '%F0%9F%98%80',
      '%E2%80%AE' + UNKNOWN_UUID,
      '%EF%BB%BF' + UNKNOWN_UUID,
      '%EF%BC%90%EF%BC%90%EF%BC%90',
      UNKNOWN_UUID.replace(/-/g, ''),
      `{${UNKNOWN_UUID}}`.replace(/[{}]/g, encodeURIComponent),
      `${UNKNOWN_UUID} `.replace(' ', '%20'),
      `%20${UNKNOWN_UUID}`,
      '00000000-0000-0000-0000-00000000000g',
      "'%20OR%201=1--",
      '%3Cscript%3E',
      '%0d%0aSet-Cookie:%20x=1',
      '-1',
      '0',
      'null',
      'undefined',
      '__proto__',
      'constructor',
    ];
  }

  private badEncodings(): string[] {
    return ['%', '%zz', '%C3', '%ED%A0%80', '%FF', '%C0%AE%C0%AE', 'a%', '%%'];
  }

  private idRoutes(): Array<[string, (id: string) => string]> {
    return [
      ['GET', (id) => `${CREATE}/${id}`],
      ['POST', (id) => `${CREATE}/${id}/activate`],
      ['POST', (id) => `${CREATE}/${id}/cancel`],
      ['POST', (id) => `${CREATE}/${id}/reminders`],
      ['POST', (id) => `${CREATE}/${id}/detect-fields`],
      ['PUT', (id) => `${CREATE}/${id}/fields`],
      ['GET', (id) => `${CREATE}/${id}/artifacts/signed-pdf`],
      ['POST', (id) => `${CREATE}/${id}/signers/client/replace`],
      ['DELETE', (id) => `${TEMPLATES}/${id}`],
      ['POST', (id) => `/v1/webhook-deliveries/${id}/replay`],
      ['POST', (id) => `/_sandbox/signature-requests/${id}/expire`],
      ['POST', (id) => `/_sandbox/signature-requests/${id}/purge`],
    ];
  }

  private pathMutators(): Mutator[] {
    const rng = this.rng;
    const { preparedId: p } = this.t;
    const get = (label: string, target: string, allow: readonly number[], method = 'GET') =>
      this.add(label, { method, target, headers: [this.auth()], ...(method === 'GET' ? {} : { body: Buffer.alloc(0) }) }, allow, { leak: LEAK });
    const staticTraversals = [
      '/signing-ui/..%2f..%2fpackage.json',
      '/signing-ui/..%2f..%2f..%2f..%2f..%2f..%2fetc%2fpasswd',
      '/signing-ui/%2e%2e/%2e%2e/package.json',
      '/signing-ui/%2e%2e%2f%2e%2e%2ftsconfig.json',
      '/vendor/..%2f..%2f..%2fpackage.json',
      '/vendor/..%2fpdf.min.mjs',
      '/vendor/pdf.min.mjs%00.js',
      '/signing-ui/..%5c..%5cpackage.json',
      '/signing-ui/....//....//package.json',
      '/signing-ui/..;/..;/package.json',
      '/signing-ui/%c0%ae%c0%ae/%c0%ae%c0%ae/package.json',
      '/signing-ui/../../package.json',
      '/signing-ui/./../package.json',
      '/signing-ui//etc/passwd',
      '/signing-ui/%2fetc%2fpasswd',
      '/vendor/%2e%2e/%2e%2e/%2e%2e/%2e%2e/package.json',
      '/sign/..%2f..%2fpackage.json',
      '/v1/..%2f..%2fpackage.json',
      '/../../../etc/passwd',
      '/%2e%2e/%2e%2e/etc/passwd',
    ];
    const shapes = [
      '//v1/signature-requests',
      '/v1//signature-requests',
      '/v1/signature-requests/',
      '/V1/signature-requests',
      '/v1/SIGNATURE-REQUESTS',
      '/v1/signature-requests;jsessionid=1',
      '/v1/./signature-requests',
      `/v1/signature-requests/${p}/`,
      `/v1/signature-requests%2F${p}`,
      `/v1/signature-requests/${p}/..`,
      `/v1/signature-requests/${p}/../${UNKNOWN_UUID}`,
      '/v1\\signature-requests',
      '/v1/signature-requests#fragment',
      '/v1/signature-requests?',
      '/v1/signature-requests??limit=1',
      '/healthz/',
      '/HEALTHZ',
      '/healthz%00',
      '/healthz/..',
      '/healthz;x',
      '/v1',
      '/v1/',
      '/',
      '/_sandbox',
      '/_sandbox/',
      '/_sandbox/clock/',
      `http://127.0.0.1/v1/signature-requests/${p}`,
      'http://evil.example/v1/signature-requests',
    ];
    return [
      () => {
        const [method, make] = rng.pick(this.idRoutes());
        const id = rng.pick(this.badIds());
        get(`malformed id ${shorten(id)} (${method} ${describePath(make(':id'), this.t)})`, make(id), [404], method);
      },
      () => {
        const [method, make] = rng.pick(this.idRoutes());
        const id = rng.pick(this.badEncodings());
        get(`bad percent-encoding ${id} (${method} ${describePath(make(':id'), this.t)})`, make(id), [400, 404], method);
      },
      () => {
        const variant = rng.pick([p.toUpperCase(), `urn:uuid:${p}`, `%7B${p}%7D`, ` ${p}`.replace(' ', '%20'), p.replace(/-/g, '')]);
        get(`a variant of an existing id: ${describePath(variant, this.t)}`, `${CREATE}/${variant}`, [200, 404]);
      },
      () => {
        const type = rng.pick([
          '..%2f..%2fpackage.json',
          'signed-pdf%00',
          'SIGNED-PDF',
          'evidence.json%2f',
          '%2e%2e',
          'evidence.json%00.pdf',
          'signed_pdf',
          'x'.repeat(5000),
          '%F0%9F%98%80',
        ]);
        get(`artifact type ${shorten(type)}`, `${CREATE}/${p}/artifacts/${type}`, [404]);
      },
      () => {
        const ref = rng.pick(['..%2f..%2factivate', '%00', 'x'.repeat(5000), '%C3%A9', '%2e%2e', 'client%00', 'CLIENT', '%20client', 'client%2fx']);
        this.json(
          `signer reference ${shorten(ref)}`,
          'POST',
          `${CREATE}/${p}/signers/${ref}/replace`,
          JSON.stringify({ email: 'mallory@example.com' }),
          [400, 404],
        );
      },
      () => {
        const target = rng.pick(staticTraversals);
        // Under /sign/ any token names the (static) signing page, so a 200 is that page, never a file.
        get(`static traversal ${target}`, target, target.startsWith('/sign/') ? [200, 400, 404] : [400, 403, 404]);
      },
      () => {
        const target = rng.pick(shapes);
        get(`path shape ${describePath(target, this.t)}`, target, [200, 400, 404, 405]);
      },
      () =>
        get(
          'unknown route',
          `/v1/${rng.pick(['nothing', 'signature-request', 'signatures', 'admin', 'keys', 'accounts', 'openapi.yaml', '.env', '.git/config'])}`,
          [404],
        ),
    ];
  }

  // ----------------------------------------------------------------------------------------------------------
  // Methods a path does not take

  private methods(count: number): void {
    this.category = 'method';
    const { preparedId: p, activeId: a } = this.t;
    const fake = `/sign/${'f'.repeat(43)}`;
    const routes: Array<[string, string[]]> = [
      ['/healthz', ['GET']],
      ['/v1/openapi.json', ['GET']],
      [CREATE, ['GET', 'POST']],
      [`${CREATE}/${UNKNOWN_UUID}`, ['GET']],
      [`${CREATE}/${p}`, ['GET']],
      [`${CREATE}/${p}/activate`, ['POST']],
      [`${CREATE}/${p}/cancel`, ['POST']],
      [`${CREATE}/${a}/cancel`, ['POST']],
      [`${CREATE}/${a}/reminders`, ['POST']],
      [`${CREATE}/${p}/detect-fields`, ['POST']],
      [`${CREATE}/${p}/fields`, ['PUT']],
      [`${CREATE}/${p}/artifacts/signed-pdf`, ['GET']],
      [`${CREATE}/${p}/signers/client/replace`, ['POST']],
      [TEMPLATES, ['GET', 'POST']],
      [`${TEMPLATES}/${this.t.templateId}`, ['DELETE']],
      ['/v1/bulk-sends', ['POST']],
      ['/v1/webhook-deliveries', ['GET']],
      [`/v1/webhook-deliveries/${UNKNOWN_UUID}/replay`, ['POST']],
      ['/_sandbox/emails', ['GET']],
      ['/_sandbox/clock', ['GET']],
      ['/_sandbox/clock/advance', ['POST']],
      [`/_sandbox/signature-requests/${p}/expire`, ['POST']],
      [`/_sandbox/signature-requests/${a}/purge`, ['POST']],
      [fake, ['GET']],
      [`/embed/${'f'.repeat(43)}`, ['GET']],
      [`${fake}/api/view`, ['POST']],
      [`${fake}/api/document`, ['GET']],
      [`${fake}/api/otp`, ['POST']],
      [`${fake}/api/otp/verify`, ['POST']],
      [`${fake}/api/sign`, ['POST']],
      [`${fake}/api/decline`, ['POST']],
      [`${this.t.signingPath}/api/sign`, ['POST']],
      [`${this.t.signingPath}/api/decline`, ['POST']],
    ];
    const methods = [
      'GET',
      'POST',
      'PUT',
      'PATCH',
      'DELETE',
      'OPTIONS',
      'HEAD',
      'TRACE',
      'PROPFIND',
      'PROPPATCH',
      'MKCOL',
      'COPY',
      'MOVE',
      'LOCK',
      'UNLOCK',
      'SEARCH',
      'PURGE',
      'REPORT',
      'MKCALENDAR',
      'LINK',
      'UNLINK',
      'NOTIFY',
      'SUBSCRIBE',
    ];
    const combos: Array<[string, string]> = [];
    for (const [path, allowed] of routes) {
      for (const method of methods) {
        if (allowed.includes(method) || (method === 'HEAD' && allowed.includes('GET'))) continue;
        combos.push([path, method]);
      }
    }
    for (const [path, method] of this.rng.shuffle(combos).slice(0, count)) {
      const withBody = !['GET', 'HEAD', 'OPTIONS', 'TRACE'].includes(method);
      this.add(
        `${method} ${describePath(path, this.t)}`,
        { method, target: path, headers: [this.auth(), ...(withBody ? jsonHeaders() : [])], ...(withBody ? { body: utf8('{}') } : {}) },
        [400, 404, 405],
      );
    }
  }

  // ----------------------------------------------------------------------------------------------------------
  // Query strings

  private queryMutators(): Mutator[] {
    const rng = this.rng;
    const limit = [
      '0',
      '-1',
      '101',
      '1000',
      '1.5',
      'abc',
      '',
      '0x10',
      '+5',
      '%205',
      '5%20',
      '%00',
      '99999999999999999999999',
      'null',
      'true',
      '[]',
      '%E2%88%9E',
      'NaN',
      'Infinity',
      '-0',
      '1,2',
      '1e2',
    ];
    const cursor = [
      '!!!',
      '====',
      'AAAA',
      b64url('wd1:5'),
      b64url('sr1:0'),
      b64url('sr1:-1'),
      b64url('sr1:01'),
      b64url('sr1:99999999999999999'),
      b64url('sr1:1e3'),
      b64url('sr1:1\n'),
      b64url('SR1:1'),
      'sr1:1',
      'x'.repeat(201),
      b64url('{"seq":1}'),
      '%00',
      '%FF%FE',
      '%C3%A9',
      b64url(`sr1:${'9'.repeat(300)}`),
      '%2B%2F%3D',
    ];
    const status = ['unknown', 'ACTIVE', 'active,prepared', '', 'prepared%00', '%20active', 'active%20', 'completed%0A', 'Prepared', '%E2%80%8Bactive'];
    const unknown = [
      'foo=1',
      '__proto__=1',
      '__proto__[polluted]=yes',
      '__proto__.polluted=yes',
      'constructor=1',
      'constructor[prototype][polluted]=yes',
      'toString=1',
      'hasOwnProperty=1',
      'limit[]=1',
      'status[]=active',
      'a[b]=c',
      '=1',
      '&&&',
      '%',
      '%zz',
      'limit=%',
      'limit=1&limit=2',
      'status=active&status=prepared',
      'limit=1;limit=2',
      '%00=1',
      `x=${'y'.repeat(12_000)}`,
    ];
    const pick = (name: string, values: string[]) => `${name}=${rng.pick(values)}`;
    const list = (label: string, route: string, parts: string[], method = 'GET') => {
      const query = rng
        .shuffle(parts)
        .slice(0, rng.range(1, Math.min(3, parts.length)))
        .join('&');
      this.add(
        `${label} ?${shorten(query, 60)}`,
        { method, target: `${route}?${query}`, headers: [this.auth()], ...(method === 'POST' ? { body: Buffer.alloc(0) } : {}) },
        [200, 400],
      );
    };
    return [
      () =>
        list('list', CREATE, [
          pick('limit', limit),
          pick('cursor', cursor),
          pick('status', status),
          pick('client_reference', ['', 'c'.repeat(161), '%00', '%FF', '%C3']),
          rng.pick(unknown),
        ]),
      () => list('list limit', CREATE, [pick('limit', limit)]),
      () => list('list cursor', CREATE, [pick('cursor', cursor)]),
      () => list('list status', CREATE, [pick('status', status)]),
      () => list('list unknown parameter', CREATE, [rng.pick(unknown)]),
      () =>
        list('webhook deliveries', '/v1/webhook-deliveries', [
          pick('limit', limit),
          pick('cursor', [...cursor, b64url('sr1:5')]),
          pick('status', ['sent', 'DELIVERED', '', 'failed%00']),
          pick('signature_request_id', ['x', '%00', UNKNOWN_UUID.slice(1), '..%2f']),
          pick('event_type', ['signer.nope', '', 'SIGNER.VIEWED', '%00']),
          rng.pick(unknown),
        ]),
      () =>
        list('sandbox emails', '/_sandbox/emails', [
          pick('to', ['a'.repeat(255), '%00', '%FF']),
          pick('signature_request_id', ['x', '%00', '..%2f..%2f']),
          rng.pick(unknown),
        ]),
      () =>
        list(
          'signer view',
          `/sign/${this.rng.word(43)}/api/view`,
          [pick('lang', ['xxxxxxxxxxx', 'de', '%00', '%FF', '', 'ar%0A', 'x'.repeat(5000), 'fr&lang=ar']), rng.pick(unknown)],
          'POST',
        ),
      () => {
        // A filter value is matched exactly: no wildcards, no case folding, no trimming.
        const value = rng.pick([
          '%',
          '_',
          '%25',
          'malformed_prepared',
          'MALFORMED-PREPARED',
          '%malformed%',
          'malformed-prepared ',
          'malformed-*',
          "malformed-prepared' OR '1'='1",
          '\\',
        ]);
        this.add(
          `list client_reference ${JSON.stringify(value)}`,
          { method: 'GET', target: `${CREATE}?client_reference=${encodeURIComponent(value)}`, headers: [this.auth()] },
          [200, 400],
          {
            check: (body) => {
              const items = (body as { data: Array<{ client_reference: string }> }).data;
              const wrong = items.filter((item) => item.client_reference !== value);
              return wrong.length === 0
                ? null
                : `the filter ${JSON.stringify(value)} matched ${wrong.map((item) => JSON.stringify(item.client_reference)).join(', ')}`;
            },
          },
        );
      },
    ];
  }

  // ----------------------------------------------------------------------------------------------------------
  // Header values paraph reads (kept under Node's 16 KiB head limit; larger ones are protocol cases)

  private headerMutators(): Mutator[] {
    const rng = this.rng;
    const fakeView = () => `/sign/${rng.word(43)}/api/view`;
    const contentTypes: Array<string | Buffer> = [
      latin1('application/json; charset=\xff'),
      'application/json;;;;',
      'Application/JSON',
      latin1('application/json\xff'),
      'text/json',
      'application/json, text/plain',
      'application/jsonp',
      '*/*',
      ';',
      'application/json; charset=utf-8; charset=latin1',
      'application/json; boundary=x',
      `application/json; x=${'y'.repeat(8000)}`,
    ];
    return [
      () =>
        this.add(
          'invalid UTF-8 in a header value',
          { method: 'GET', target: CREATE, headers: [this.auth(), ['x-note', Buffer.concat([latin1('\xff\xfe\xc3\x28'), rng.bytes(0)])]] },
          [200],
        ),
      () => {
        const value = rng.pick<string | Buffer>([
          latin1('fr-\xff\xfe'),
          '*;q=abc',
          ',,,,,,',
          'ar'.repeat(4000),
          'en;q=1e999, fr;q=-1',
          'zz-ZZ-x-y-z',
          '',
          utf8('fr-\u00e9-\u{1F600}'),
          '__proto__, constructor;q=0.5',
        ]);
        this.add(
          'odd Accept-Language on a made-up link',
          { method: 'POST', target: fakeView(), headers: [['accept-language', value]], body: Buffer.alloc(0) },
          [200, 400],
        );
      },
      () => {
        const type = rng.pick(contentTypes);
        this.json('odd Content-Type', 'POST', `${CREATE}/${UNKNOWN_UUID}/cancel`, '{}', [400, 404, 415], [['content-type', type]]);
      },
      () =>
        this.json(
          'odd Content-Type on a real request',
          'POST',
          `${CREATE}/${this.t.preparedId}/cancel`,
          '{"reason":"x","extra":1}',
          [400, 415],
          [['content-type', rng.pick(contentTypes)]],
        ),
      () =>
        this.add(
          'odd multipart Content-Type',
          {
            method: 'POST',
            target: CREATE,
            headers: [this.auth(), ['content-type', latin1('multipart/form-data; boundary=\xff\xfe; charset=\xff')]],
            body: encodeMultipart([{ name: 'request', body: '[]' }], '\xff\xfe'),
          },
          [400],
        ),
      () =>
        this.add(
          'garbage X-Forwarded-For',
          {
            method: 'GET',
            target: CREATE,
            headers: [
              this.auth(),
              ['x-forwarded-for', rng.pick(['not-an-ip', '999.999.999.999', '::::', `${'1.2.3.4, '.repeat(500)}5.6.7.8`, latin1('\xff')])],
            ],
          },
          [200],
        ),
      () =>
        this.add(
          '500 header lines',
          { method: 'GET', target: CREATE, headers: [this.auth(), ...Array.from({ length: 500 }, (_, i): [string, string] => [`x-h${i}`, 'v'])] },
          [200],
        ),
      () => this.add('a 12 KB header value', { method: 'GET', target: CREATE, headers: [this.auth(), ['x-pad', 'p'.repeat(12_000)]] }, [200]),
      () =>
        this.add(
          'odd Cookie',
          { method: 'GET', target: CREATE, headers: [this.auth(), ['cookie', latin1(`a=${'\xff'.repeat(100)}; __proto__=x; constructor=y`)]] },
          [200],
        ),
      () =>
        this.add(
          'Content-Encoding gzip on plain JSON',
          {
            method: 'POST',
            target: `${CREATE}/${UNKNOWN_UUID}/cancel`,
            headers: [this.auth(), ...jsonHeaders(), ['content-encoding', 'gzip']],
            body: utf8('{"zz":1}'),
          },
          [400, 404, 415],
        ),
      () => {
        const body = chunked(utf8('{"reason":1}'), 4);
        this.add(
          'chunked body with a bad value',
          {
            method: 'POST',
            target: `${CREATE}/${this.t.preparedId}/cancel`,
            headers: [this.auth(), ...jsonHeaders(), ['transfer-encoding', 'chunked']],
            body,
            manualLength: true,
          },
          [400],
        );
      },
      once(() => {
        const body = chunked(utf8(`{"reason":"${'r'.repeat(3 * 1024 * 1024)}"}`), 64 * 1024);
        this.add(
          'a chunked JSON body of 3 MiB',
          {
            method: 'POST',
            target: `${CREATE}/${this.t.preparedId}/cancel`,
            headers: [this.auth(), ...jsonHeaders(), ['transfer-encoding', 'chunked']],
            body,
            manualLength: true,
          },
          [413],
        );
      }),
      once(() => {
        const boundary = this.boundary();
        const big = Buffer.concat([Buffer.from(this.t.pdf), Buffer.alloc(9 * 1024 * 1024, 0x20)]);
        const body = chunked(encodeMultipart([this.documentPart({ body: big }), this.goodRequestPart()], boundary), 256 * 1024);
        this.add(
          'a chunked create with a 9 MiB document',
          {
            method: 'POST',
            target: CREATE,
            headers: [this.auth(), ['content-type', `multipart/form-data; boundary=${boundary}`], ['transfer-encoding', 'chunked']],
            body,
            manualLength: true,
          },
          [400],
        );
      }),
      () => {
        const body = chunked(utf8('{"signer_reference":"client","zz":1}'), 1, rng.chance(0.5) ? ';ext=1' : '');
        this.add(
          'a JSON body in one-byte chunks',
          {
            method: 'POST',
            target: `${CREATE}/${this.t.activeId}/reminders`,
            headers: [this.auth(), ...jsonHeaders(), ['transfer-encoding', 'chunked']],
            body,
            manualLength: true,
          },
          [400],
        );
      },
      () =>
        this.add(
          'Expect: 100-continue with a bad body',
          {
            method: 'POST',
            target: `${CREATE}/${this.t.activeId}/reminders`,
            headers: [this.auth(), ...jsonHeaders(), ['expect', '100-continue']],
            body: utf8('{"signer_reference":5}'),
          },
          [400],
        ),
      () =>
        this.add(
          'Content-Length 0 with a JSON type on a required body',
          { method: 'PUT', target: `${CREATE}/${this.t.preparedId}/fields`, headers: [this.auth(), ...jsonHeaders()], body: Buffer.alloc(0) },
          [400],
        ),
      () =>
        this.add(
          'odd Origin and Referer',
          { method: 'GET', target: CREATE, headers: [this.auth(), ['origin', 'null'], ['referer', latin1('http://\xff/')]] },
          [200],
        ),
      () => this.add('Range on an error', { method: 'GET', target: `${CREATE}/${UNKNOWN_UUID}`, headers: [this.auth(), ['range', 'bytes=5-1,-0,abc']] }, [404]),
    ];
  }

  // ----------------------------------------------------------------------------------------------------------
  // Authorization

  private authMutators(): Mutator[] {
    const rng = this.rng;
    const key = this.t.apiKey;
    const badValues = (): Array<[string, string | Buffer | null]> => [
      ['no Authorization', null],
      ['empty Authorization', ''],
      ['"Bearer" alone', 'Bearer'],
      ['"Bearer " and nothing', 'Bearer '],
      ['the key with one more character', `Bearer ${key}x`],
      ['the key without its last character', `Bearer ${key.slice(0, -1)}`],
      ['the key upper-cased', `Bearer ${key.toUpperCase()}`],
      ['the key with one character changed', `Bearer ${key.slice(0, -1)}${key.endsWith('a') ? 'b' : 'a'}`],
      ['Basic with the key', `Basic ${Buffer.from(`${key}:`).toString('base64')}`],
      ['Token scheme', `Token ${key}`],
      ['the key twice', `Bearer ${key} ${key}`],
      ['no space after Bearer', `Bearer${key}`],
      ['a made-up key of the right shape', `Bearer paraph_test_${rng.word(43)}`],
      ['a live-looking key', `Bearer paraph_live_${rng.word(43)}`],
      ['a webhook secret', `Bearer whsec_${Buffer.from(rng.bytes(32)).toString('base64')}`],
      ['an 8 KB token', `Bearer paraph_test_${'a'.repeat(8000)}`],
      ['invalid UTF-8 in the key', Buffer.concat([latin1('Bearer '), utf8(key.slice(0, 20)), latin1('\xff\xfe'), utf8(key.slice(20))])],
      ['percent-encoded key', `Bearer ${encodeURIComponent(key).replace(/_/g, '%5F')}`],
      ['"Bearer null"', 'Bearer null'],
      ['"Bearer undefined"', 'Bearer undefined'],
      ['SQL in the key', "Bearer ' OR 1=1 --"],
      ['the key with base64 padding', `Bearer ${key}==`],
      ['the key in quotes', `Bearer "${key}"`],
      ['JSON as the key', `Bearer {"api_key":"${rng.word(10)}"}`],
      ['the key prefix only', 'Bearer paraph_test_'],
    ];
    const targets = (): Array<{ label: string; method: string; path: string; body?: Buffer; headers: Array<[string, string | Buffer]> }> => [
      { label: 'GET list', method: 'GET', path: CREATE, headers: [] },
      { label: 'GET a request', method: 'GET', path: `${CREATE}/${this.t.preparedId}`, headers: [] },
      {
        label: 'cancel a request (valid body)',
        method: 'POST',
        path: `${CREATE}/${this.t.preparedId}/cancel`,
        body: utf8('{"reason":"x"}'),
        headers: jsonHeaders(),
      },
      { label: 'activate a request', method: 'POST', path: `${CREATE}/${this.t.preparedId}/activate`, body: utf8('{}'), headers: jsonHeaders() },
      { label: 'remind (valid body)', method: 'POST', path: `${CREATE}/${this.t.activeId}/reminders`, body: utf8('{}'), headers: jsonHeaders() },
      { label: 'advance the clock (valid body)', method: 'POST', path: '/_sandbox/clock/advance', body: utf8('{"seconds":86400}'), headers: jsonHeaders() },
      { label: 'purge a request', method: 'POST', path: `/_sandbox/signature-requests/${this.t.activeId}/purge`, headers: [] },
      { label: 'archive the template', method: 'DELETE', path: `${TEMPLATES}/${this.t.templateId}`, headers: [] },
      { label: 'read caught emails', method: 'GET', path: '/_sandbox/emails', headers: [] },
      { label: 'list templates', method: 'GET', path: TEMPLATES, headers: [] },
      { label: 'list webhook deliveries', method: 'GET', path: '/v1/webhook-deliveries', headers: [] },
    ];
    const one = (pickValue: () => [string, string | Buffer | null]) => () => {
      const [what, value] = pickValue();
      const target = rng.pick(targets());
      const headers: Array<[string, string | Buffer]> = [...(value === null ? [] : [['authorization', value] as [string, string | Buffer]]), ...target.headers];
      this.add(`${what} (${target.label})`, { method: target.method, target: target.path, headers, ...(target.body ? { body: target.body } : {}) }, [401]);
    };
    return [
      ...badValues().map((entry) => one(() => entry)),
      one(() => rng.pick(badValues())),
      () => {
        const boundary = this.boundary();
        const body = encodeMultipart([this.documentPart(), this.goodRequestPart()], boundary);
        this.add(
          'a made-up key on a valid create',
          {
            method: 'POST',
            target: CREATE,
            headers: [
              ['authorization', `Bearer paraph_test_${rng.word(43)}`],
              ['content-type', `multipart/form-data; boundary=${boundary}`],
            ],
            body,
          },
          [401],
        );
      },
      () => this.add('the key in the query string only', { method: 'GET', target: `${CREATE}?api_key=${encodeURIComponent(key)}`, headers: [] }, [401]),
    ];
  }

  // ----------------------------------------------------------------------------------------------------------
  // Idempotency-Key: values outside 1 to 255 printable ASCII characters, on calls that would otherwise act

  private idempotencyMutators(): Mutator[] {
    const rng = this.rng;
    const values = (): Array<[string, string | Buffer]> => [
      ['empty', ''],
      ['only spaces', '   '],
      ['256 characters', 'k'.repeat(256)],
      ['4,000 characters', 'k'.repeat(4000)],
      ['a Latin-1 byte', latin1('cl\xe9')],
      ['invalid UTF-8', latin1('\xff\xfe\xfd')],
      ['UTF-8 Cyrillic', utf8('ключ-1')],
      ['an emoji', utf8('key-\u{1F600}')],
      ['a tab inside', 'a\tb'],
    ];
    const { preparedId: p, activeId: a } = this.t;
    const calls = (): Array<{ label: string; method: string; path: string; body: Buffer; type: string }> => [
      {
        label: 'cancel a prepared request',
        method: 'POST',
        path: `${CREATE}/${p}/cancel`,
        body: utf8('{"reason":"idempotency fuzz"}'),
        type: 'application/json',
      },
      { label: 'cancel an active request', method: 'POST', path: `${CREATE}/${a}/cancel`, body: utf8('{}'), type: 'application/json' },
      { label: 'activate a prepared request', method: 'POST', path: `${CREATE}/${p}/activate`, body: utf8('{"link_expiry_days":2}'), type: 'application/json' },
      { label: 'remind', method: 'POST', path: `${CREATE}/${a}/reminders`, body: utf8('{}'), type: 'application/json' },
      {
        label: 'replace fields',
        method: 'PUT',
        path: `${CREATE}/${p}/fields`,
        body: utf8(JSON.stringify({ fields: [validField({ x: 60 })] })),
        type: 'application/json',
      },
      {
        label: 'replace a signer',
        method: 'POST',
        path: `${CREATE}/${a}/signers/client/replace`,
        body: utf8('{"email":"grace@example.com"}'),
        type: 'application/json',
      },
      { label: 'unknown request', method: 'POST', path: `${CREATE}/${UNKNOWN_UUID}/cancel`, body: utf8('{}'), type: 'application/json' },
    ];
    const one = (value: [string, string | Buffer]) => () => {
      const call = rng.pick(calls());
      this.add(
        `Idempotency-Key ${value[0]} (${call.label})`,
        { method: call.method, target: call.path, headers: [this.auth(), ['content-type', call.type], ['idempotency-key', value[1]]], body: call.body },
        call.path.includes(UNKNOWN_UUID) ? [400, 404] : [400],
      );
    };
    return [
      ...values().map((v) => one(v)),
      () => one(rng.pick(values()))(),
      () => {
        const boundary = this.boundary();
        const body = encodeMultipart([this.documentPart(), this.goodRequestPart()], boundary);
        const [what, value] = rng.pick(values());
        this.add(
          `Idempotency-Key ${what} (valid create)`,
          {
            method: 'POST',
            target: CREATE,
            headers: [this.auth(), ['content-type', `multipart/form-data; boundary=${boundary}`], ['idempotency-key', value]],
            body,
          },
          [400],
        );
      },
    ];
  }

  // ----------------------------------------------------------------------------------------------------------
  // The signer's side, under made-up links (and, with bodies that must be refused, under a real one)

  private signerMutators(): Mutator[] {
    const rng = this.rng;
    const real = this.t.signingPath;
    const token = () =>
      rng.pick([
        rng.word(43),
        rng.word(1),
        'x'.repeat(200),
        'x'.repeat(201),
        'x'.repeat(5000),
        '%00',
        `${rng.word(10)}%00${rng.word(10)}`,
        '..%2f..%2f..%2fpackage.json',
        '%2e%2e',
        '%C3%A9t%C3%A9',
        '%F0%9F%98%80',
        '%ED%A0%80',
        '%',
        `${real.slice('/sign/'.length)}x`,
        real.slice('/sign/'.length).slice(0, -1),
        real.slice('/sign/'.length).toUpperCase(),
        '__proto__',
        'constructor',
      ]);
    const signBodies = [
      '{"signature":{"type":"typed","text":"Ada"}}',
      '{"signature":{"type":"typed","text":""}}',
      '{"signature":{"type":"drawn","image":"data:image/gif;base64,AAAA"}}',
      '{"signature":{"type":"drawn","image":"javascript:alert(1)"}}',
      '{"signature":{"type":"stamp"}}',
      '{"signature":"Ada"}',
      '{"fields":{"__proto__":"x"},"signature":{"type":"typed","text":"Ada","extra":1}}',
      '{"fields":{"company":1}}',
      `{"fields":{"company":"${'c'.repeat(501)}"}}`,
      '{"fields":[]}',
      `{"signature":{"type":"typed","text":"${'t'.repeat(101)}"}}`,
      deepArrays(10_000),
      '[]',
      '{"initials":{"type":"drawn","image":"data:image/png;base64,!!!"}}',
    ];
    const declineBodies = [
      '{"reason":""}',
      `{"reason":"${'r'.repeat(501)}"}`,
      '{"reason":1}',
      '{}',
      '{"reason":"no","extra":1}',
      '{"__proto__":{"reason":"x"}}',
      'null',
      '[]',
      deepObjects(10_000),
    ];
    const verifyBodies: Array<string | Buffer> = [
      '{"code":"12345"}',
      '{"code":123456}',
      '{"code":"1234567"}',
      '{"code":"abcdef"}',
      '{}',
      '{"code":"123456","x":1}',
      '{"code":["123456"]}',
      'null',
      latin1('{"code":"\xff\xff\xff\xff\xff\xff"}'),
      '{"code":"\uff11\uff12\uff13\uff14\uff15\uff16"}',
    ];
    const post = (label: string, path: string, body: string | Buffer | null, allow: readonly number[], type = 'application/json') =>
      this.add(
        label,
        {
          method: 'POST',
          target: path,
          headers: body === null ? [] : [['content-type', type]],
          body: body === null ? Buffer.alloc(0) : typeof body === 'string' ? utf8(body) : body,
        },
        allow,
      );
    const fake = () => `/sign/${token()}`;
    return [
      () => this.add('signing page of a made-up link', { method: 'GET', target: fake(), headers: [] }, [200, 400, 404]),
      () => this.add('embed page of a made-up link', { method: 'GET', target: `/embed/${token()}`, headers: [] }, [200, 400, 404]),
      () => post('view under a made-up link', `${fake()}/api/view`, rng.pick([null, '{}', '{"x":1}', deepArrays(10_000)]), [200, 400, 404, 415]),
      () => this.add('document under a made-up link', { method: 'GET', target: `${fake()}/api/document`, headers: [] }, [400, 404, 409]),
      () => post('otp under a made-up link', `${fake()}/api/otp`, rng.pick([null, '{}', '[]']), [400, 404, 409]),
      () => post('otp verify under a made-up link', `${fake()}/api/otp/verify`, rng.pick([...verifyBodies, '{"code":"123456"}']), [400, 404, 409]),
      () => post('sign under a made-up link', `${fake()}/api/sign`, rng.pick(signBodies), [400, 404, 409]),
      () => post('decline under a made-up link', `${fake()}/api/decline`, rng.pick([...declineBodies, '{"reason":"no"}']), [400, 404, 409]),
      () => post('unknown action under a made-up link', `${fake()}/api/${rng.pick(['nothing', '..%2f..%2fv1', 'sign/extra', 'SIGN'])}`, '{}', [400, 404]),
      // The real link: only bodies that must be refused, so the signer stays pending.
      () => post('sign under the real link, bad body', `${real}/api/sign`, rng.pick(signBodies.slice(1)), [400]),
      () => post('decline under the real link, bad body', `${real}/api/decline`, rng.pick(declineBodies), [400]),
      () => post('otp verify under the real link, bad body', `${real}/api/otp/verify`, rng.pick(verifyBodies), [400]),
      () => post('sign under the real link as text/plain', `${real}/api/sign`, '{"signature":{"type":"typed","text":"Ada"}}', [400, 415], 'text/plain'),
      () => post('decline under the real link as form data', `${real}/api/decline`, 'reason=no', [400, 415], 'application/x-www-form-urlencoded'),
    ];
  }

  // ----------------------------------------------------------------------------------------------------------
  // The /_sandbox controls

  private sandboxMutators(): Mutator[] {
    const rng = this.rng;
    const advance = (label: string, body: string | Buffer, headers: Array<[string, string | Buffer]> = jsonHeaders(), allow: readonly number[] = [400]) =>
      this.json(label, 'POST', '/_sandbox/clock/advance', body, allow, headers);
    const secondsBodies = [
      '{"seconds":0}',
      '{"seconds":-1}',
      '{"seconds":-86400}',
      '{"seconds":0.5}',
      '{"seconds":"60"}',
      '{"seconds":315360001}',
      '{"seconds":9007199254740993}',
      '{"seconds":1e308}',
      '{"seconds":1e400}',
      '{"seconds":-1e400}',
      '{"seconds":null}',
      '{"seconds":true}',
      '{"seconds":[60]}',
      '{"seconds":{"valueOf":60}}',
      '{"seconds":60,"x":1}',
      '{"seconds":-0}',
      '{"seconds":1e-7}',
      '{"second":60}',
      '{"SECONDS":60}',
      '{}',
      'null',
      '[]',
      '60',
      '"60"',
    ];
    return [
      () => advance(`clock advance ${rng.pick(secondsBodies)}`, rng.pick(secondsBodies)),
      () =>
        advance(
          'clock advance with __proto__',
          rng.pick(['{"__proto__":{"seconds":60}}', '{"constructor":{"prototype":{"seconds":60}}}', '{"seconds":60,"__proto__":{}}']),
        ),
      () => advance('clock advance 10,000 deep', `{"seconds":${deepArrays(10_000)}}`),
      () => advance('clock advance invalid UTF-8', latin1('{"seconds\xff":60}')),
      () => advance('clock advance as text/plain', '{"seconds":60}', [['content-type', 'text/plain']], [400, 415]),
      () => advance('clock advance form-urlencoded', 'seconds=60', [['content-type', 'application/x-www-form-urlencoded']], [400, 415]),
      once(() => advance('clock advance 1 MiB + 1', `{"seconds":60,"pad":"${'p'.repeat(1024 * 1024)}"}`, jsonHeaders(), [413])),
      () => advance('clock advance without a body', '', jsonHeaders(), [400]),
      () => {
        const id = rng.pick([...this.badIds(), UNKNOWN_UUID]);
        const action = rng.pick(['expire', 'purge']);
        this.add(
          `${action} ${shorten(id)}`,
          { method: 'POST', target: `/_sandbox/signature-requests/${id}/${action}`, headers: [this.auth()], body: Buffer.alloc(0) },
          [404],
        );
      },
      () => {
        const action = rng.pick(['expire', 'purge']);
        this.json(
          `${action} an unknown request with a bad body`,
          'POST',
          `/_sandbox/signature-requests/${UNKNOWN_UUID}/${action}`,
          rng.pick(['{', deepArrays(10_000), '{"__proto__":{}}']),
          [400, 404],
        );
      },
      () =>
        this.add(
          'emails with a bad filter',
          {
            method: 'GET',
            target: `/_sandbox/emails?${rng.pick(['signature_request_id=x', 'to=' + 'a'.repeat(300), 'limit=5', '__proto__=1', 'signature_request_id=' + UNKNOWN_UUID + '&signature_request_id=' + UNKNOWN_UUID])}`,
            headers: [this.auth()],
          },
          [400],
        ),
      () =>
        this.add(
          'unknown sandbox control',
          {
            method: 'POST',
            target: `/_sandbox/${rng.pick(['clock/rewind', 'reset', 'keys', 'signature-requests/' + UNKNOWN_UUID + '/complete', 'clock/advance/..'])}`,
            headers: [this.auth(), ...jsonHeaders()],
            body: utf8('{"seconds":60}'),
          },
          [404],
        ),
    ];
  }

  // ----------------------------------------------------------------------------------------------------------
  // Requests Node's HTTP parser refuses before paraph routes them

  private protocolMutators(): Mutator[] {
    const rng = this.rng;
    const proto = (label: string, wire: Wire) => this.add(label, wire, CLIENT_ERRORS);
    const big = () => rng.pick([20_000, 30_000, 50_000, 64_000, 100_000]);
    return [
      () => {
        const size = big();
        const header = rng.pick(['x-pad', 'cookie', 'user-agent', 'accept-language']);
        proto(`a ${Math.round(size / 1000)} KB ${header} header`, { method: 'GET', target: CREATE, headers: [this.auth(), [header, 'v'.repeat(size)]] });
      },
      () =>
        proto(`a ${Math.round(big() / 1000)} KB Authorization header`, {
          method: 'GET',
          target: CREATE,
          headers: [['authorization', `Bearer ${'k'.repeat(big())}`]],
        }),
      () =>
        proto('a 30 KB Idempotency-Key', {
          method: 'POST',
          target: `${CREATE}/${this.t.preparedId}/cancel`,
          headers: [this.auth(), ...jsonHeaders(), ['idempotency-key', 'k'.repeat(30_000)]],
          body: utf8('{"reason":"x"}'),
        }),
      () =>
        proto('a 40 KB Content-Type on a create', {
          method: 'POST',
          target: CREATE,
          headers: [this.auth(), ['content-type', `multipart/form-data; boundary=${'b'.repeat(40_000)}`]],
          body: utf8('x'),
        }),
      () => proto(`a ${Math.round(big() / 1000)} KB path`, { method: 'GET', target: `${CREATE}/${'x'.repeat(big())}`, headers: [this.auth()] }),
      () =>
        proto('3,000 header lines', {
          method: 'GET',
          target: CREATE,
          headers: [this.auth(), ...Array.from({ length: 3000 }, (_, i): [string, string] => [`x-header-${i}`, 'value'])],
        }),
      () => proto('a NUL in a header value', { method: 'GET', target: CREATE, headers: [this.auth(), ['x-bad', 'a\u0000b']] }),
      () =>
        proto('a control character in a header value', {
          method: 'GET',
          target: CREATE,
          headers: [this.auth(), ['x-bad', `a${rng.pick(['\u0001', '\u001b', '\u007f', '\u000b'])}b`]],
        }),
      () =>
        proto('a control character in the Authorization value', {
          method: 'GET',
          target: CREATE,
          headers: [['authorization', `Bearer ${this.t.apiKey}\u0000`]],
        }),
      () => proto('a bare CR in a header value', { method: 'GET', target: CREATE, headers: [this.auth(), ['x-bad', 'a\rb']] }),
      () => proto('a header name with a space', { method: 'GET', target: CREATE, headers: [this.auth(), ['x bad', 'v']] }),
      () => proto('a header name with invalid UTF-8', { method: 'GET', target: CREATE, headers: [this.auth(), [latin1('x-\xff').toString('latin1'), 'v']] }),
      () => proto('a header line without a colon', { method: 'GET', target: CREATE, headers: [this.auth(), ['', 'x-no-colon-here']] }),
      () => proto('raw UTF-8 in the path', { method: 'GET', target: utf8(`${CREATE}/été-\u{1F600}`), headers: [this.auth()] }),
      () => proto('invalid UTF-8 in the path', { method: 'GET', target: Buffer.concat([utf8(`${CREATE}/`), latin1('\xff\xfe')]), headers: [this.auth()] }),
      () => proto('a space in the path', { method: 'GET', target: `${CREATE}/a b`, headers: [this.auth()] }),
      () => proto('a NUL byte in the path', { method: 'GET', target: `${CREATE}/a\u0000b`, headers: [this.auth()] }),
      () => proto('a lower-case method', { method: 'get', target: CREATE, headers: [this.auth()] }),
      () => proto('an unknown method', { method: rng.pick(['FOO', 'BREW', 'GETT', 'POSTX']), target: CREATE, headers: [this.auth()] }),
      () => proto('no Host header', { method: 'GET', target: CREATE, headers: [this.auth()], noHost: true }),
      // Node's parser reads an HTTP/2.0 request line as HTTP/1.x: an answer either way.
      () => this.add('HTTP/2.0 in the request line', { method: 'GET', target: CREATE, headers: [this.auth()], version: 'HTTP/2.0' }, [200, ...CLIENT_ERRORS]),
      () =>
        proto('a broken protocol name', {
          method: 'GET',
          target: CREATE,
          headers: [this.auth()],
          version: rng.pick(['HTTP/1.x', 'HTTPS/1.1', 'HTTP/11', 'ICAP/1.0']),
        }),
      () =>
        proto('Content-Length and Transfer-Encoding together', {
          method: 'POST',
          target: `${CREATE}/${this.t.preparedId}/cancel`,
          headers: [this.auth(), ...jsonHeaders(), ['content-length', '4'], ['transfer-encoding', 'chunked']],
          body: utf8('0\r\n\r\n'),
          manualLength: true,
        }),
      () =>
        proto('two different Content-Lengths', {
          method: 'POST',
          target: `${CREATE}/${this.t.preparedId}/cancel`,
          headers: [this.auth(), ...jsonHeaders(), ['content-length', '2'], ['content-length', '3']],
          body: utf8('{}'),
          manualLength: true,
        }),
      () =>
        proto('a negative Content-Length', {
          method: 'POST',
          target: `${CREATE}/${this.t.preparedId}/cancel`,
          headers: [this.auth(), ...jsonHeaders(), ['content-length', '-2']],
          body: utf8('{}'),
          manualLength: true,
        }),
      () =>
        proto('a Content-Length that is not a number', {
          method: 'POST',
          target: `${CREATE}/${this.t.preparedId}/cancel`,
          headers: [this.auth(), ...jsonHeaders(), ['content-length', rng.pick(['abc', '0x10', '1e3', ' ', '1 2'])]],
          body: utf8('{}'),
          manualLength: true,
        }),
      () =>
        proto('a bad chunk size', {
          method: 'POST',
          target: `${CREATE}/${this.t.preparedId}/cancel`,
          headers: [this.auth(), ...jsonHeaders(), ['transfer-encoding', 'chunked']],
          body: utf8(`${rng.pick(['zz', '-1', 'fffffffffffffffffff'])}\r\n{}\r\n0\r\n\r\n`),
          manualLength: true,
        }),
      () =>
        proto('an unknown Transfer-Encoding', {
          method: 'POST',
          target: `${CREATE}/${this.t.preparedId}/cancel`,
          headers: [this.auth(), ...jsonHeaders(), ['transfer-encoding', rng.pick(['gzip', 'chunked, gzip', 'identity', 'xchunked'])]],
          body: utf8('{}'),
          manualLength: true,
        }),
      () =>
        proto('an unknown Expect', {
          method: 'POST',
          target: `${CREATE}/${UNKNOWN_UUID}/cancel`,
          headers: [this.auth(), ...jsonHeaders(), ['expect', rng.pick(['200-ok', 'something'])]],
          body: utf8('{}'),
        }),
      () => {
        const body = utf8(`{"reason":"${'r'.repeat(200)}"}`);
        proto('the client stops mid-body (JSON)', {
          method: 'POST',
          target: `${CREATE}/${this.t.preparedId}/cancel`,
          headers: [this.auth(), ...jsonHeaders()],
          body,
          sendBodyBytes: rng.range(1, body.length - 1),
        });
      },
      () => {
        const boundary = this.boundary();
        const body = encodeMultipart([this.documentPart(), this.goodRequestPart()], boundary);
        proto('the client stops mid-body (create)', {
          method: 'POST',
          target: CREATE,
          headers: [this.auth(), ['content-type', `multipart/form-data; boundary=${boundary}`]],
          body,
          sendBodyBytes: rng.range(1, body.length - 1),
        });
      },
      () => proto('a request line that is garbage', { method: rng.pick(['\u0016\u0003\u0001', 'HELLO', '{}']), target: '', headers: [], version: '' }),
    ];
  }
  // ----------------------------------------------------------------------------------------------------------
  // Every host spelling in every URL field, with the scheme the field allows only for loopback hosts

  private urlSweep(): void {
    this.category = 'url';
    const fields: Array<['callback_url' | 'return_url' | 'embed_origin' | 'email.logo_url', (host: string) => string]> = [
      ['callback_url', (host) => `https://${host}/hook`],
      ['return_url', (host) => `http://${host}/done`],
      ['embed_origin', (host) => `http://${host}`],
      ['email.logo_url', (host) => `https://${host}/logo.png`],
    ];
    for (const [where, make] of fields) {
      for (const url of [...URL_HOSTS.map(make), ...JUNK_URLS]) this.urlCase(where, url);
    }
  }

  /** A create whose only oddity is one URL; accepted only if the contract allows that URL there. */
  private urlCase(where: 'callback_url' | 'return_url' | 'embed_origin' | 'email.logo_url', url: string): void {
    const payload = validPayload(this.nextRef());
    if (where === 'email.logo_url') payload.email = { logo_url: url };
    else payload[where] = url;
    const boundary = this.boundary();
    const body = encodeMultipart([this.documentPart(), this.requestPart(JSON.stringify(payload))], boundary);
    this.add(
      `${where} ${shorten(JSON.stringify(url), 70)}`,
      { method: 'POST', target: CREATE, headers: [this.auth(), ['content-type', `multipart/form-data; boundary=${boundary}`]], body },
      [201, 400],
      {
        check: () => acceptedUrlProblem(where, url),
      },
    );
  }

  // ----------------------------------------------------------------------------------------------------------
  // Random mutations: byte-level changes of valid bodies, random values in valid payloads, odd URLs.
  // Some of them stay valid by chance, so a create may answer 201 (the test counts what it stored).

  private randomMutators(): Mutator[] {
    const rng = this.rng;
    const mayCreate = [200, 201, 400, 404, 413] as const;
    const uploadMutation = () => {
      const boundary = this.boundary();
      const body = encodeMultipart([this.documentPart(), this.goodRequestPart()], boundary);
      const count = rng.range(1, 8);
      this.add(
        `${count} byte-level change(s) to a valid create`,
        {
          method: 'POST',
          target: CREATE,
          headers: [this.auth(), ['content-type', `multipart/form-data; boundary=${boundary}`]],
          body: mutateBytes(body, rng, count),
        },
        mayCreate,
      );
    };
    const payloadValues = () => {
      const payload = validPayload(this.nextRef());
      const changes = Array.from({ length: rng.range(1, 3) }, () => this.setRandomly(payload));
      const json = JSON.stringify(payload);
      this.create(`random values at ${changes.join(', ')}`, [this.documentPart(), this.requestPart(json)], mayCreate);
    };
    const urlField = () => this.urlCase(rng.pick(['callback_url', 'return_url', 'embed_origin', 'email.logo_url'] as const), this.randomUrl());
    const lifecycleBytes = () => {
      const [method, route, body] = rng.pick<[string, string, string]>([
        ['POST', 'activate', '{"send_emails":false,"link_expiry_days":7}'],
        ['POST', 'cancel', '{"reason":"changed my mind"}'],
        ['POST', 'reminders', '{"signer_reference":"client"}'],
        ['PUT', 'fields', JSON.stringify({ fields: [validField()] })],
        ['POST', 'signers/client/replace', '{"email":"grace@example.com","name":"Grace","locale":"en","send_email":false}'],
      ]);
      const count = rng.range(1, 6);
      this.json(
        `${count} byte-level change(s) to a ${route} body (unknown request)`,
        method,
        `${CREATE}/${UNKNOWN_UUID}/${route}`,
        mutateBytes(utf8(body), rng, count),
        [400, 404, 413],
      );
    };
    const randomBody = () => {
      const [method, path] = rng.pick<[string, string]>([
        ['POST', `${CREATE}/${UNKNOWN_UUID}/activate`],
        ['POST', `${CREATE}/${UNKNOWN_UUID}/cancel`],
        ['POST', `${CREATE}/${UNKNOWN_UUID}/reminders`],
        ['PUT', `${CREATE}/${UNKNOWN_UUID}/fields`],
        ['POST', `${CREATE}/${UNKNOWN_UUID}/signers/client/replace`],
        ['POST', `/sign/${rng.word(43)}/api/sign`],
        ['POST', `/sign/${rng.word(43)}/api/decline`],
        ['POST', `/sign/${rng.word(43)}/api/otp/verify`],
      ]);
      const value = this.randomValue(0);
      this.json(
        `random JSON ${shorten(JSON.stringify(value) ?? 'undefined', 40)} (${method} ${path.startsWith('/sign/') ? path.replace(/\/sign\/\w+/, '/sign/{made-up}') : describePath(path, this.t)})`,
        method,
        path,
        JSON.stringify(value) ?? 'null',
        [400, 404, 409],
      );
    };
    return [uploadMutation, uploadMutation, payloadValues, payloadValues, urlField, urlField, lifecycleBytes, randomBody];
  }

  /** Sets a random value (or removes the key) somewhere in a create payload; answers where. */
  private setRandomly(payload: Json): string {
    const rng = this.rng;
    // An earlier change may have replaced the signers or fields: then the payload itself is changed.
    const objectIn = (list: unknown): Json => {
      const item: unknown = Array.isArray(list) && list.length > 0 ? rng.pick(list) : undefined;
      return item !== null && typeof item === 'object' && !Array.isArray(item) ? (item as Json) : payload;
    };
    const signer = objectIn(payload.signers);
    const field = objectIn(payload.fields);
    const [target, key, where] = rng.pick<[Json, string, string]>([
      [payload, 'client_reference', 'client_reference'],
      [payload, 'sequential_signing', 'sequential_signing'],
      [payload, 'field_values', 'field_values'],
      [payload, 'email', 'email'],
      [payload, 'template_id', 'template_id'],
      [payload, 'signers', 'signers'],
      [payload, 'fields', 'fields'],
      [signer, rng.pick(['reference', 'name', 'email', 'order', 'locale', 'verification', 'role']), 'signers[0]'],
      [field, rng.pick(['signer_reference', 'type', 'field_key', 'page', 'x', 'y', 'width', 'height', 'name', 'value', 'read_only', 'extra']), 'fields[]'],
    ]);
    if (rng.chance(0.1)) {
      delete target[key];
      return `${where}.${key} removed`;
    }
    target[key] = this.randomValue(0);
    return `${where}.${key}`;
  }

  private randomValue(depth: number): unknown {
    const rng = this.rng;
    switch (rng.int(depth > 2 ? 6 : 8)) {
      case 0:
        return null;
      case 1:
        return rng.chance(0.5);
      case 2:
        return rng.pick([
          0,
          -0,
          1,
          -1,
          0.5,
          1e-7,
          5e-324,
          1e308,
          -1e308,
          2 ** 31,
          2 ** 53 + 2,
          10,
          11,
          100,
          101,
          5000,
          5000.0001,
          10000,
          10001,
          595.28,
          841.89,
        ]);
      case 3:
        return rng.range(-100, 20_000) / (rng.chance(0.3) ? 7 : 1);
      case 4:
      case 5:
        return this.randomString();
      case 6:
        return Array.from({ length: rng.int(4) }, () => this.randomValue(depth + 1));
      default:
        return Object.fromEntries(Array.from({ length: rng.int(4) }, () => [this.randomString(), this.randomValue(depth + 1)]));
    }
  }

  private randomString(): string {
    const rng = this.rng;
    const pieces = [
      () => '',
      () => ' ',
      () => 'a'.repeat(rng.pick([1, 99, 100, 101, 119, 120, 121, 159, 160, 161, 200, 201, 254, 255, 256, 500, 501, 2000, 2001, 2048, 2049])),
      () => rng.word(rng.range(1, 12)),
      () => rng.pick(['é', '日本語', '\u202e', '\u0000', '\ud800', '\u{1F600}', 'مرحبا', '\r\n', '\t', '\u2028', '\ufeff', 'Ω', 'ß']),
      () =>
        rng.pick([
          '<script>alert(1)</script>',
          "'; DROP TABLE signature_requests;--",
          '%00',
          '../../',
          '${7*7}',
          '{{7*7}}',
          '__proto__',
          'constructor',
          'null',
          'undefined',
          'NaN',
        ]),
      () =>
        rng.pick(['client', 'signature', 'date', 'text', 'initials', 'company', 'sign_date', 'signer_name', 'fr', 'en', 'ar', 'email_otp', 'ada@example.com']),
      () => rng.pick(['a@b.co', 'x@example.com', 'éè@example.com', 'a@[127.0.0.1]', '"a b"@example.com', 'a@localhost', `${'l'.repeat(65)}@example.com`]),
      () => this.randomUrl(),
      () => rng.pick(['00000000-0000-4000-8000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff', this.t.templateId, this.t.preparedId]),
    ];
    return Array.from({ length: rng.range(1, 3) }, () => rng.pick(pieces)()).join('');
  }

  /** Mostly well-formed URLs with hosts that test the destination rules, sometimes junk. */
  private randomUrl(): string {
    const rng = this.rng;
    if (rng.chance(0.25)) {
      const scheme = rng.pick(['https', 'http', 'hTTps', 'ftp', 'javascript', 'data', 'file', 'ws', '']);
      const separator = rng.pick(['://', ':', ':/', ':\\\\', '://///']);
      const junk = rng.pick([
        '[::1',
        '[',
        '',
        '.',
        'ex ample.com',
        'example.com\\@evil.com',
        'evil.com#@example.com',
        'user:pass@example.com',
        '@example.com',
        'éxample.com',
        '例え.jp',
        'a\u0000b.com',
      ]);
      return `${scheme}${separator}${junk}${rng.pick(['', ':abc', ':99999', ':-1', ':'])}${rng.pick(['', '/', '/\u0000', `/${'p'.repeat(3000)}`])}`;
    }
    const scheme = rng.pick(['https', 'https', 'https', 'http', 'HTTPS']);
    const host = rng.pick(URL_HOSTS);
    const port = rng.pick(['', '', '', ':443', ':80', ':8443', ':0', ':65535', ':00443']);
    const path = rng.pick(['', '', '/', '/hook', '/%00', '/..', '?x=1', '#frag', '/a%20b', '/?q=%0d%0a']);
    return `${scheme}://${host}${port}${path}`;
  }
}

// ------------------------------------------------------------------------------------------------------------
// Small helpers

/** A body in chunked transfer coding, with an optional chunk extension on every chunk. */
function chunked(body: Buffer, size: number, extension = ''): Buffer {
  const chunks: Buffer[] = [];
  for (let at = 0; at < body.length; at += size) {
    const piece = body.subarray(at, at + size);
    chunks.push(utf8(`${piece.length.toString(16)}${extension}\r\n`), piece, utf8('\r\n'));
  }
  chunks.push(utf8('0\r\n\r\n'));
  return Buffer.concat(chunks);
}

/** Random changes at random places: flipped, inserted, removed or repeated bytes. */
function mutateBytes(bytes: Buffer, rng: Rng, count: number): Buffer {
  let out = Buffer.from(bytes);
  for (let i = 0; i < count; i++) {
    // Half the changes land near the start or the end, where the headers and the JSON part are.
    const zone = rng.int(4);
    const at =
      zone === 0 ? rng.int(Math.min(300, out.length)) : zone === 1 ? Math.max(0, out.length - 1 - rng.int(Math.min(700, out.length))) : rng.int(out.length);
    switch (rng.int(4)) {
      case 0:
        out[at] = rng.int(256);
        break;
      case 1:
        out = Buffer.concat([out.subarray(0, at), rng.bytes(rng.range(1, 16)), out.subarray(at)]);
        break;
      case 2:
        out = Buffer.concat([out.subarray(0, at), out.subarray(Math.min(out.length, at + rng.range(1, 64)))]);
        break;
      default: {
        const piece = out.subarray(at, Math.min(out.length, at + rng.range(1, 256)));
        out = Buffer.concat([out.subarray(0, at), piece, piece, out.subarray(at + piece.length)]);
      }
    }
  }
  return out;
}

/**
 * Why the sandbox contract forbids a URL that a create accepted, or null. Judged from the WHATWG
 * reading of the URL, independently of how paraph checks it: callback_url https on port 443 to a
 * public host; return_url and embed_origin https, or http on a loopback host; logo_url https.
 */
export function acceptedUrlProblem(where: 'callback_url' | 'return_url' | 'embed_origin' | 'email.logo_url', value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${where} ${JSON.stringify(value)} is not a URL but was accepted`;
  }
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  // The contract's loopback hosts: localhost, 127.0.0.0/8 and [::1] (and [::ffff:127.x.y.z], which reaches them too).
  const loopback = host === 'localhost' || host.endsWith('.localhost') || /^127\./.test(host) || host === '[::1]' || /^\[::ffff:7f[0-9a-f]{2}:/.test(host);
  if (where === 'callback_url') {
    if (url.protocol !== 'https:' || url.port !== '') return `callback_url ${JSON.stringify(value)} is not https on port 443 but was accepted`;
    if (loopback || nonPublicHost(host)) return `callback_url ${JSON.stringify(value)} points to a non-public host but was accepted`;
    return null;
  }
  if (where === 'email.logo_url') return url.protocol === 'https:' ? null : `logo_url ${JSON.stringify(value)} is not https but was accepted`;
  if (url.protocol === 'https:' || (url.protocol === 'http:' && loopback)) return null;
  return `${where} ${JSON.stringify(value)} is neither https nor http on loopback but was accepted`;
}

/** IPv4 literals outside public unicast, and IPv6 literals of the special-purpose blocks. */
function nonPublicHost(host: string): boolean {
  const v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(host);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      a >= 224 ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b < 32) ||
      (a === 192 && b === 168) ||
      (a === 100 && b >= 64 && b < 128) ||
      (a === 192 && b === 0) ||
      (a === 198 && (b === 18 || b === 19))
    );
  }
  if (!host.startsWith('[')) return false;
  return /^\[(::|fe[89ab]|f[cd]|ff|64:ff9b:|2001:db8:|2002:|2001::|2001:0:)/.test(host);
}

/** A 200 bulk answer whose every row was refused. */
function everyRowFailed(body: unknown): string | null {
  const results = (body as { results?: Array<{ status?: string }> }).results;
  if (!Array.isArray(results) || results.length === 0) return 'no results';
  const accepted = results.filter((row) => row.status !== 'error');
  return accepted.length === 0 ? null : `${accepted.length} row(s) were not refused: ${accepted.map((row) => row.status).join(', ')}`;
}

/** A path with the server's ids named, so labels stay stable across runs. */
export function describePath(path: string, t: Pick<Targets, 'preparedId' | 'activeId' | 'templateId' | 'signingPath'>): string {
  return shorten(
    path
      .replace(t.signingPath.slice('/sign/'.length), '{real-token}')
      .split(t.preparedId)
      .join('{prepared}')
      .split(t.preparedId.toUpperCase())
      .join('{PREPARED}')
      .split(t.activeId)
      .join('{active}')
      .split(t.templateId)
      .join('{template}'),
  );
}

function shorten(text: string, max = 80): string {
  return text.length <= max ? text : `${text.slice(0, max - 20)}…(${text.length} chars)`;
}

/** A PDF whose page tree points back at itself. */
function loopingPdf(): string {
  return [
    '%PDF-1.4',
    '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj',
    '2 0 obj << /Type /Pages /Kids [2 0 R] /Count 1 >> endobj',
    'trailer << /Root 1 0 R >>',
    '%%EOF',
  ].join('\n');
}

/** A PDF that claims a billion pages and has none. */
function hugeCountPdf(): string {
  return [
    '%PDF-1.4',
    '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj',
    '2 0 obj << /Type /Pages /Kids [] /Count 1000000000 >> endobj',
    'trailer << /Root 1 0 R >>',
    '%%EOF',
  ].join('\n');
}
