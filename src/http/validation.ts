import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { TSchema } from 'typebox';

// ajv-formats is CommonJS with a default export; under NodeNext it arrives wrapped.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function makeAjv(options: { coerceTypes: boolean }): Ajv {
  // Unknown properties are rejected, never stripped; bodies are never coerced (only query strings are).
  // A union told apart by one property (`discriminator`) reports the errors of the branch it names;
  // `verbose` lets its error list the names that exist.
  const ajv = new Ajv({
    allErrors: false,
    discriminator: true,
    verbose: true,
    removeAdditional: false,
    coerceTypes: options.coerceTypes,
    useDefaults: options.coerceTypes,
    strict: false,
    messages: true,
  });
  addFormats(ajv);
  return ajv;
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
  const validatePart = (data: unknown): boolean => {
    check ??= (coerce ? queryAjv : bodyAjv).compile(schema);
    // fastify hands an absent body over as null (and the JSON parser an empty one as undefined).
    const ok = check(!coerce && (data === undefined || data === null) ? {} : data);
    validatePart.errors = check.errors;
    return ok;
  };
  validatePart.errors = null as ValidateFunction['errors'];
  return validatePart;
}

const compiled = new WeakMap<TSchema, ValidateFunction>();

/** Validates a value outside fastify's pipeline (e.g. a JSON part of a multipart body). */
export function validate(schema: TSchema, value: unknown, root: string): string | null {
  let check = compiled.get(schema);
  if (!check) {
    check = bodyAjv.compile(schema);
    compiled.set(schema, check);
  }
  return check(value) ? null : describeErrors(check.errors ?? [], root);
}

/** A short sentence naming the offending path, e.g. `request.signers[0].email must be a valid email`. */
export function describeErrors(errors: readonly ErrorObject[], root: string): string {
  const error = errors[0];
  if (!error) return `${root} is invalid`;
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
      return p.pattern === '^[^\\r\\n\\u2028\\u2029]*$'
        ? `${at} must not contain line breaks`
        : `${at} must match the pattern ${String(p.pattern)}`;
    default:
      return `${at} ${error.message ?? 'is invalid'}`;
  }
}

/** The values of a discriminated union's tag property, one per branch. */
function discriminatorValues(schema: unknown, tag: string): string[] {
  const branches = (schema as { oneOf?: Array<{ properties?: Record<string, { const?: unknown }> }> } | undefined)?.oneOf ?? [];
  return branches.map((branch) => branch.properties?.[tag]?.const).filter((value) => value !== undefined).map(String);
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
