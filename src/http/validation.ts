import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { TSchema } from 'typebox';
import { SINGLE_LINE_PATTERN } from '../domain/single-line.js';

// ajv-formats is CommonJS with a default export; under NodeNext it arrives wrapped.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function makeAjv(options: { coerceTypes: boolean }): Ajv {
  // Unknown properties are rejected, never stripped; bodies are never coerced (only query strings are).
  // Every error of a value is collected, so one answer names all that is wrong with it. A union told
  // apart by one property (`discriminator`) reports the errors of the branch it names; `verbose` lets
  // its error list the names that exist.
  const ajv = new Ajv({
    allErrors: true,
    discriminator: true,
    verbose: true,
    removeAdditional: false,
    coerceTypes: options.coerceTypes,
    useDefaults: options.coerceTypes,
    strict: false,
    messages: true,
  });
  addFormats(ajv);
  // ajv-formats' email checks the address's shape, and MAX_EMAIL its whole length; a mailbox's parts have limits of
  // their own (RFC 5321 4.5.3.1): a local part of at most 64 octets, a domain label of at most 63.
  const shape = ajv.formats.email as RegExp;
  ajv.addFormat('email', (address: string) => shape.test(address) && withinMailboxLimits(address));
  return ajv;
}

function withinMailboxLimits(address: string): boolean {
  const at = address.lastIndexOf('@');
  const octets = (text: string) => Buffer.byteLength(text, 'utf8');
  return (
    octets(address.slice(0, at)) <= 64 &&
    address
      .slice(at + 1)
      .split('.')
      .every((label) => octets(label) <= 63)
  );
}

const bodyAjv = makeAjv({ coerceTypes: false });
const queryAjv = makeAjv({ coerceTypes: true });

/**
 * The fastify validator compiler: query strings are coerced (`?limit=5`), everything else is not.
 * An absent or empty body is checked as `{}`: optional inputs (activate, cancel, reminders) accept it, and a
 * required one fails on its first required property. Each schema is compiled at its route's first
 * call, not at start-up: a server answers sooner, and routes a run never calls cost nothing.
 */
export function compileForPart(schema: TSchema, httpPart: string | undefined): (data: unknown) => boolean {
  const coerce = httpPart === 'querystring';
  let check: ValidateFunction | undefined;
  // A query integer is written in decimal digits: ajv's coercion would also take `0x10`, `1e1`, `+5`, ` 10`.
  const integers = coerce ? integerProperties(schema) : [];
  const validatePart = (data: unknown): boolean => {
    const notDecimal = integers.find((name) => {
      const value = (data as Record<string, unknown> | null)?.[name];
      return typeof value === 'string' && !DECIMAL_INTEGER.test(value);
    });
    if (notDecimal !== undefined) {
      validatePart.errors = [
        { instancePath: `/${notDecimal}`, schemaPath: '#/type', keyword: 'type', params: { type: 'integer' }, message: 'must be integer' },
      ];
      return false;
    }
    check ??= (coerce ? queryAjv : bodyAjv).compile(schema);
    // fastify hands an absent body over as null (and the JSON parser an empty one as undefined).
    const ok = check(!coerce && (data === undefined || data === null) ? {} : data);
    validatePart.errors = check.errors;
    if (ok) lowerUuids(schema, data);
    return ok;
  };
  validatePart.errors = null as ValidateFunction['errors'];
  return validatePart;
}

const DECIMAL_INTEGER = /^-?[0-9]+$/;

/** The names of a query schema's integer properties. */
function integerProperties(schema: TSchema): string[] {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> }).properties ?? {};
  return Object.entries(properties)
    .filter(([, property]) => property.type === 'integer')
    .map(([name]) => name);
}

const compiled = new WeakMap<TSchema, ValidateFunction>();

/** Validates a value outside fastify's pipeline (e.g. a JSON part of a multipart body). */
export function validate(schema: TSchema, value: unknown, root: string): string | null {
  let check = compiled.get(schema);
  if (!check) {
    check = bodyAjv.compile(schema);
    compiled.set(schema, check);
  }
  if (!check(value)) return describeErrors(check.errors ?? [], root);
  lowerUuids(schema, value);
  return null;
}

const ANY_CASE_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface SchemaShape {
  format?: string;
  properties?: Record<string, SchemaShape>;
  items?: SchemaShape;
  anyOf?: SchemaShape[];
  oneOf?: SchemaShape[];
}

const holdsUuids = new WeakMap<object, boolean>();

/** Whether a schema has a uuid-format string anywhere. */
function hasUuid(schema: SchemaShape): boolean {
  let found = holdsUuids.get(schema);
  if (found === undefined) {
    const inner = [...Object.values(schema.properties ?? {}), ...(schema.items ? [schema.items] : []), ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])];
    found = schema.format === 'uuid' || inner.some(hasUuid);
    holdsUuids.set(schema, found);
  }
  return found;
}

/**
 * A UUID is read whatever its case (RFC 9562), in a body or a query as in a path: in a value that passed its
 * schema, every uuid-format string is made lower case, as paraph stores and compares ids. Only the schema's uuid
 * properties are touched: a `client_reference` shaped like a UUID is the caller's text, kept as sent.
 */
function lowerUuids(schema: TSchema, value: unknown): unknown {
  const shape = schema as SchemaShape;
  if (!hasUuid(shape)) return value;
  const branches = [...(shape.anyOf ?? []), ...(shape.oneOf ?? [])];
  if (typeof value === 'string') {
    const uuid = shape.format === 'uuid' || branches.some((branch) => branch.format === 'uuid');
    return uuid && ANY_CASE_UUID.test(value) ? value.toLowerCase() : value;
  }
  if (Array.isArray(value)) {
    if (shape.items) for (let index = 0; index < value.length; index++) value[index] = lowerUuids(shape.items as TSchema, value[index]);
    return value;
  }
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const [name, property] of Object.entries(shape.properties ?? {})) {
      if (Object.hasOwn(record, name)) record[name] = lowerUuids(property as TSchema, record[name]);
    }
    for (const branch of branches) lowerUuids(branch as TSchema, value);
  }
  return value;
}

/** At most this many problems are told in one message; the rest are counted. */
const MAX_TOLD = 5;
/** At most this many errors of one value are read to write that message. */
const MAX_READ = 200;
const UNION_KEYWORDS = new Set(['anyOf', 'oneOf', 'if']);

/**
 * Every problem of a value in one text, each naming its path, e.g. `request.signers[0] has an unknown
 * property "emial" (did you mean "email"?); request.signers[1].email must be a valid email`. An unknown
 * property that looks like a missing required one is told as a misspelling of it, once.
 */
export function describeErrors(errors: readonly ErrorObject[], root: string): string {
  if (errors.length === 0) return `${root} is invalid`;
  // A hostile body can hold hundreds of thousands of errors: only the first ones are read, in one pass.
  const read = errors.length > MAX_READ ? errors.slice(0, MAX_READ) : errors;
  const missingAt = new Map<string, ErrorObject[]>();
  for (const error of read) {
    if (error.keyword !== 'required') continue;
    const list = missingAt.get(error.instancePath);
    if (list) list.push(error);
    else missingAt.set(error.instancePath, [error]);
  }
  const told = new Set<string>();
  const misspelt = new Set<ErrorObject>();
  for (const error of missingAt.size > 0 ? read : []) {
    if (error.keyword !== 'additionalProperties') continue;
    const unknown = String((error.params as { additionalProperty?: unknown }).additionalProperty);
    const meant = missingAt
      .get(error.instancePath)
      ?.find((other) => !misspelt.has(other) && looksAlike(unknown, String((other.params as { missingProperty?: unknown }).missingProperty)));
    if (!meant) continue;
    misspelt.add(meant);
    told.add(`${describeError(error, root)} (did you mean "${String((meant.params as { missingProperty?: unknown }).missingProperty)}"?)`);
    misspelt.add(error);
  }
  // A union's own "matches no branch" adds nothing to its branches' errors.
  const specific = read.filter((error) => !UNION_KEYWORDS.has(error.keyword));
  for (const error of specific.length > 0 ? specific : read) {
    if (misspelt.has(error)) continue;
    told.add(describeError(error, root));
  }
  const sentences = [...told];
  const more = sentences.length - MAX_TOLD + (errors.length - read.length);
  return sentences.slice(0, MAX_TOLD).join('; ') + (more > 0 ? `; and ${more} more problem${more === 1 ? '' : 's'}` : '');
}

/** Two property names one typo apart: at most two letters changed, added, removed or swapped. */
function looksAlike(a: string, b: string): boolean {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  if (Math.abs(x.length - y.length) > 2) return false;
  // Damerau-Levenshtein distance (optimal string alignment), on short names.
  const d: number[][] = Array.from({ length: x.length + 1 }, (_, i) => Array.from({ length: y.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      let best = Math.min((d[i - 1]?.[j] ?? 0) + 1, (d[i]?.[j - 1] ?? 0) + 1, (d[i - 1]?.[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) best = Math.min(best, (d[i - 2]?.[j - 2] ?? 0) + 1);
      (d[i] as number[])[j] = best;
    }
  }
  return (d[x.length]?.[y.length] ?? Infinity) <= 2;
}

/** A short sentence naming the offending path, e.g. `request.signers[0].email must be a valid email`. */
function describeError(error: ErrorObject, root: string): string {
  const at = pathOf(root, error.instancePath);
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties':
      return `${at} has an unknown property "${String(p.additionalProperty)}"`;
    case 'required':
      return `${pathOf(at, `/${String(p.missingProperty)}`)} is required`;
    case 'type':
      return `${at} must be ${article(String(p.type))}`;
    case 'format':
      return `${at} must be a valid ${String(p.format)}`;
    case 'enum':
      return `${at} must be one of: ${(p.allowedValues as unknown[]).map(String).join(', ')}`;
    case 'const':
      return `${at} must be ${JSON.stringify(p.allowedValue)}`;
    case 'minLength':
      return Number(p.limit) === 1 ? `${at} must not be empty` : `${at} must be at least ${String(p.limit)} characters`;
    case 'maxLength':
      return `${at} must be at most ${String(p.limit)} characters`;
    case 'minItems':
      return `${at} must have at least ${String(p.limit)} item${Number(p.limit) === 1 ? '' : 's'}`;
    case 'maxItems':
      return `${at} must have at most ${String(p.limit)} items`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `${at} must be ${String(p.comparison)} ${String(p.limit)}`;
    case 'discriminator': {
      const tag = pathOf(at, `/${String(p.tag)}`);
      if (p.tagValue === undefined) return `${tag} is required`;
      const names = discriminatorValues(error.parentSchema, String(p.tag));
      return names.length > 0 ? `${tag} must be one of: ${names.join(', ')}` : `${tag} is not a known value`;
    }
    case 'pattern':
      return p.pattern === SINGLE_LINE_PATTERN
        ? `${at} must not contain line breaks or control characters`
        : `${at} must match the pattern ${String(p.pattern)}`;
    default:
      return `${at} ${error.message ?? 'is invalid'}`;
  }
}

/** The values of a discriminated union's tag property, one per branch. */
function discriminatorValues(schema: unknown, tag: string): string[] {
  const branches = (schema as { oneOf?: Array<{ properties?: Record<string, { const?: unknown }> }> } | undefined)?.oneOf ?? [];
  return branches
    .map((branch) => branch.properties?.[tag]?.const)
    .filter((value) => value !== undefined)
    .map(String);
}

function pathOf(root: string, instancePath: string): string {
  if (!instancePath) return root;
  return instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, segment) => (/^\d+$/.test(segment) ? `${acc}[${segment}]` : `${acc}.${segment}`), root);
}

function article(type: string): string {
  const name = type === 'integer' ? 'an integer' : type === 'object' ? 'an object' : type === 'array' ? 'an array' : `a ${type}`;
  return name;
}
