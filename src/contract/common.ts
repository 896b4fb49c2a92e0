import Type, { type Static, type TSchema } from 'typebox';
import { ERROR_REASONS } from '../domain/errors.js';
import { LOCALES } from '../domain/locales.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../domain/limits.js';

/** Schemas shared by every resource. Input objects always reject unknown properties. */

export const Uuid = Type.String({ format: 'uuid' });
export const DateTime = Type.String({ format: 'date-time' });
export const NullableDateTime = Type.Union([DateTime, Type.Null()]);

/** Every `error.code` paraph answers (the API description's list, and the two codes it names besides). */
export const ErrorCodeSchema = Type.Enum(
  [
    'invalid_request',
    'invalid_document',
    'unauthorized',
    'not_found',
    'conflict',
    'request_not_ready',
    'request_expired',
    'artifact_not_available',
    'rate_limit_exceeded',
    'internal_error',
    'template_not_found',
    'template_not_ready',
    'idempotency_request_in_progress',
    'idempotency_key_reused',
    'temporarily_unavailable',
  ],
  { description: 'what went wrong, for a program; `message` says it for a person' },
);

export const ErrorEnvelope = Type.Object(
  {
    error: Type.Object(
      { code: ErrorCodeSchema, message: Type.String(), request_id: Type.String({ description: 'the X-Request-Id of the answer: give it to support' }) },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false, title: 'ErrorEnvelope' },
);
export type ErrorEnvelope = Static<typeof ErrorEnvelope>;

/**
 * The error envelope of a signing link's own API (`/sign/<token>/api/…`): the API's three properties,
 * and for the errors a client tells apart, `reason` (with `locked_until` for `otp_locked`).
 */
export const SigningErrorEnvelope = Type.Object(
  {
    error: Type.Object(
      {
        code: ErrorCodeSchema,
        message: Type.String(),
        request_id: Type.String(),
        reason: Type.Optional(Type.Union(ERROR_REASONS.map((reason) => Type.Literal(reason)))),
        locked_until: Type.Optional(DateTime),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false, title: 'SigningErrorEnvelope' },
);

export const IdParams = Type.Object({ id: Uuid }, { additionalProperties: false });

export const Limit = Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE });
/** Empty means the first page, so a client may always pass back the last `next_cursor`. */
export const Cursor = Type.String({ maxLength: 200 });

/** `{data: [...], next_cursor}` with an empty cursor on the last page. */
export function Page<T extends TSchema>(item: T) {
  return Type.Object({ data: Type.Array(item), next_cursor: Type.String() }, { additionalProperties: false });
}

export const Locale = Type.Union(LOCALES.map((locale) => Type.Literal(locale)));
