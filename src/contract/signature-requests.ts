import Type, { type Static } from 'typebox';
import { Cursor, DateTime, Limit, Locale, NullableDateTime, Uuid } from './common.js';
import { LOCALES } from '../domain/locales.js';
import { REQUEST_STATUSES, SIGNER_STATUSES } from '../domain/request-states.js';
import { FIELD_KEYS, FIELD_KINDS, type FieldPlacement } from '../domain/field-placement.js';
import type { SignerEntry } from '../domain/signer-rules.js';
import { SINGLE_LINE_PATTERN } from '../domain/single-line.js';
import {
  DEFAULT_LINK_EXPIRY_DAYS,
  MAX_BRANDING,
  MAX_CLIENT_REFERENCE,
  MAX_EMAIL,
  MAX_EMBED_ORIGIN,
  MAX_FIELD_PAGE,
  MAX_FIELD_SIZE,
  MAX_FIELD_VALUE,
  MAX_FIELDS,
  MAX_LINK_EXPIRY_DAYS,
  MAX_PDF_MIB,
  MAX_REASON,
  MAX_SIGNER_NAME,
  MAX_SIGNER_REFERENCE,
  MAX_SIGNERS,
  MAX_URL,
  MIN_LINK_EXPIRY_DAYS,
} from '../domain/limits.js';

/** The signature-request resources of the API description, one schema per named shape. */

const closed = { additionalProperties: false } as const;
/** A request's `client_reference` (create, bulk, the list filter). */
export const ClientReference = Type.String({ minLength: 1, maxLength: MAX_CLIENT_REFERENCE });
/** Days a signing link stays valid (activate, bulk). */
export const LinkExpiryDays = Type.Integer({ minimum: MIN_LINK_EXPIRY_DAYS, maximum: MAX_LINK_EXPIRY_DAYS, default: DEFAULT_LINK_EXPIRY_DAYS });
const SingleLine = (maxLength: number) => Type.String({ maxLength, pattern: SINGLE_LINE_PATTERN });

export const RequestStatus = Type.Enum([...REQUEST_STATUSES]);
export type RequestStatus = Static<typeof RequestStatus>;
export const SignerStatusValue = Type.Enum([...SIGNER_STATUSES]);
export type SignerStatusValue = Static<typeof SignerStatusValue>;
export const FieldType = Type.Enum([...FIELD_KINDS]);
export type FieldType = Static<typeof FieldType>;
export const FieldKey = Type.Enum([...FIELD_KEYS]);
export type FieldKey = Static<typeof FieldKey>;
export const EmailDelivery = Type.Enum(['not_requested', 'sent', 'failed']);

export const SignerInput = Type.Object(
  {
    reference: Type.String({ minLength: 1, maxLength: MAX_SIGNER_REFERENCE }),
    name: Type.Optional(Type.String({ maxLength: MAX_SIGNER_NAME })),
    email: Type.String({ format: 'email', maxLength: MAX_EMAIL }),
    order: Type.Integer({ minimum: 1, maximum: MAX_SIGNERS }),
    locale: Type.Optional(Locale),
    verification: Type.Optional(Type.Enum(['email_otp'])),
  },
  { ...closed, title: 'SignerInput' },
);
export type SignerInput = Static<typeof SignerInput>;
true satisfies SignerInput extends SignerEntry ? true : false;

export const FieldInput = Type.Object(
  {
    signer_reference: Type.String({ minLength: 1, maxLength: MAX_SIGNER_REFERENCE }),
    type: FieldType,
    field_key: Type.Optional(FieldKey),
    page: Type.Integer({ minimum: 1, maximum: MAX_FIELD_PAGE }),
    x: Type.Number({ minimum: 0 }),
    y: Type.Number({ minimum: 0 }),
    width: Type.Number({ exclusiveMinimum: 0, maximum: MAX_FIELD_SIZE }),
    height: Type.Number({ exclusiveMinimum: 0, maximum: MAX_FIELD_SIZE }),
    name: Type.Optional(Type.String({ pattern: '^[a-z][a-z0-9_]{0,63}$' })),
    value: Type.Optional(Type.String({ maxLength: MAX_FIELD_VALUE })),
    read_only: Type.Optional(Type.Boolean({ default: false })),
  },
  { ...closed, title: 'FieldInput' },
);
export type FieldInput = Static<typeof FieldInput>;
// The wire shape and the domain's shape must stay one: each assignable to the other.
true satisfies FieldInput extends FieldPlacement ? (FieldPlacement extends FieldInput ? true : false) : false;

export const EmailBranding = Type.Object(
  {
    sender_name: Type.Optional(SingleLine(MAX_BRANDING.sender_name)),
    subject: Type.Optional(SingleLine(MAX_BRANDING.subject)),
    message: Type.Optional(Type.String({ maxLength: MAX_BRANDING.message })),
    logo_url: Type.Optional(Type.String({ format: 'uri', maxLength: MAX_BRANDING.logo_url, pattern: '^https://' })),
  },
  { ...closed, title: 'EmailBranding' },
);
export type EmailBranding = Static<typeof EmailBranding>;

export const FieldValues = Type.Record(Type.String(), Type.String({ maxLength: MAX_FIELD_VALUE }));

/** The URL rules of the API description, said on the fields (the domain checks them after the schema). */
const CALLBACK_URL_RULES =
  'public HTTPS URL on port 443; private and loopback destinations are refused (`paraph serve --allow-loopback-webhooks`, ' +
  `or WEBHOOKS_ALLOW_LOOPBACK=1, accepts http:// loopback URLs for a local receiver); max ${MAX_URL}`;
const RETURN_URL_RULES =
  'where the signer is sent back after signing, declining or reaching a closed request; HTTPS only ' +
  `(plain HTTP accepted for loopback hosts); max ${MAX_URL}; not used in an iframe`;
const EMBED_ORIGIN_RULES =
  'the origin `https://host[:port]` (no path) allowed to frame the signing page; activation then also answers ' +
  `\`embed_url\` per signer; max ${MAX_EMBED_ORIGIN}`;

export const CallbackUrl = Type.String({ format: 'uri', maxLength: MAX_URL, description: CALLBACK_URL_RULES });
export const ReturnUrl = Type.String({ format: 'uri', maxLength: MAX_URL, description: RETURN_URL_RULES });
export const EmbedOrigin = Type.String({ maxLength: MAX_EMBED_ORIGIN, description: EMBED_ORIGIN_RULES });
/** A bulk recipient's own return URL, over the batch's. */
export const RecipientReturnUrl = Type.String({ format: 'uri', maxLength: MAX_URL, description: `overrides the batch's return_url; ${RETURN_URL_RULES}` });

export const CreateRequestPayload = Type.Object(
  {
    client_reference: ClientReference,
    template_id: Type.Optional(Uuid),
    signers: Type.Array(SignerInput, { minItems: 1, maxItems: MAX_SIGNERS }),
    fields: Type.Optional(Type.Array(FieldInput, { maxItems: MAX_FIELDS })),
    callback_url: Type.Optional(CallbackUrl),
    sequential_signing: Type.Optional(Type.Boolean({ default: false })),
    email: Type.Optional(EmailBranding),
    embed_origin: Type.Optional(EmbedOrigin),
    field_values: Type.Optional(FieldValues),
    return_url: Type.Optional(ReturnUrl),
  },
  { ...closed, title: 'CreateRequestPayload' },
);
export type CreateRequestPayload = Static<typeof CreateRequestPayload>;

/**
 * The multipart body of the create call, as the OpenAPI document describes it: the `request` part is a
 * string holding CreateRequestPayload as JSON (the handler parses and validates it, src/http/multipart.ts).
 */
export const CreateRequestMultipart = Type.Object(
  {
    document: Type.String({ format: 'binary', contentMediaType: 'application/pdf', description: `the PDF, at most ${MAX_PDF_MIB} MiB, with a .pdf filename` }),
    request: Type.String({
      contentMediaType: 'application/json',
      contentSchema: CreateRequestPayload,
      description: 'a string holding a CreateRequestPayload as JSON, sent with Content-Type: application/json',
    }),
  },
  { ...closed, required: ['document', 'request'] },
);

export const CreateResponse = Type.Object(
  {
    id: Uuid,
    client_reference: Type.String(),
    template_id: Type.String(),
    status: Type.Literal('prepared'),
    environment: Type.Literal('sandbox'),
    retention_expires_at: DateTime,
    sequential_signing: Type.Boolean(),
    return_url: Type.String(),
    idempotent_replay: Type.Boolean(),
  },
  { ...closed, title: 'CreateResponse' },
);
export type CreateResponse = Static<typeof CreateResponse>;

export const ActivateInput = Type.Object(
  {
    send_emails: Type.Optional(Type.Boolean({ default: false })),
    link_expiry_days: Type.Optional(LinkExpiryDays),
  },
  { ...closed, title: 'ActivateInput' },
);
export type ActivateInput = Static<typeof ActivateInput>;

export const ActivatedSigner = Type.Object(
  {
    id: Uuid,
    reference: Type.String(),
    status: SignerStatusValue,
    signing_url: Type.String({ format: 'uri' }),
    email_delivery: EmailDelivery,
    embed_url: Type.String(),
  },
  { ...closed, title: 'ActivatedSigner' },
);

export const ActivateResponse = Type.Object(
  {
    id: Uuid,
    status: Type.Literal('active'),
    environment: Type.Literal('sandbox'),
    signers: Type.Array(ActivatedSigner),
  },
  { ...closed, title: 'ActivateResponse' },
);

export const FieldsPutInput = Type.Object({ fields: Type.Array(FieldInput, { minItems: 1, maxItems: MAX_FIELDS }) }, { ...closed, title: 'FieldsPutInput' });
export type FieldsPutInput = Static<typeof FieldsPutInput>;

export const ReminderInput = Type.Object(
  { signer_reference: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_SIGNER_REFERENCE })) },
  { ...closed, title: 'ReminderInput' },
);
export type ReminderInput = Static<typeof ReminderInput>;

export const ReminderResponse = Type.Object(
  {
    id: Uuid,
    status: Type.Literal('active'),
    reminders: Type.Array(
      Type.Object(
        {
          reference: Type.String(),
          email_delivery: Type.String(),
          signing_url: Type.String({ format: 'uri' }),
          embed_url: Type.Optional(Type.String()),
        },
        closed,
      ),
    ),
  },
  { ...closed, title: 'ReminderResponse' },
);

export const CancellationInput = Type.Object({ reason: Type.Optional(Type.String({ maxLength: MAX_REASON })) }, { ...closed, title: 'CancellationInput' });
export type CancellationInput = Static<typeof CancellationInput>;

export const SignerReplaceInput = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: MAX_EMAIL }),
    name: Type.Optional(Type.String({ maxLength: MAX_SIGNER_NAME })),
    locale: Type.Optional(Locale),
    send_email: Type.Optional(Type.Boolean({ default: false })),
  },
  { ...closed, title: 'SignerReplaceInput' },
);
export type SignerReplaceInput = Static<typeof SignerReplaceInput>;

export const SignerReplaceResponse = Type.Object(
  {
    id: Uuid,
    signer: Type.Object(
      {
        id: Uuid,
        reference: Type.String(),
        email: Type.String(),
        status: SignerStatusValue,
        signing_url: Type.String(),
        embed_url: Type.Optional(Type.String()),
        email_delivery: EmailDelivery,
      },
      closed,
    ),
  },
  { ...closed, title: 'SignerReplaceResponse' },
);

export const SignerStatus = Type.Object(
  {
    id: Uuid,
    reference: Type.String(),
    name: Type.String(),
    email: Type.String(),
    order: Type.Integer(),
    status: SignerStatusValue,
    locale: Type.Enum([...LOCALES, ''], { description: 'the signing page language, or empty when none was given' }),
    verification: Type.Enum(['email_otp', ''], { description: '`email_otp`, or empty without an identity check' }),
    signed_at: NullableDateTime,
    expires_at: NullableDateTime,
    verified_at: NullableDateTime,
  },
  { ...closed, title: 'SignerStatus' },
);
export type SignerStatus = Static<typeof SignerStatus>;

export const FieldStatus = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    type: Type.Enum(['text', 'date']),
    field_key: Type.String(),
    signer_reference: Type.String(),
    value: Type.String(),
    read_only: Type.Boolean(),
    completed: Type.Boolean(),
  },
  { ...closed, title: 'FieldStatus' },
);
export type FieldStatus = Static<typeof FieldStatus>;

export const ArtifactAvailability = Type.Object(
  { signed_pdf: Type.Boolean(), evidence_pdf: Type.Boolean(), evidence_json: Type.Boolean() },
  { ...closed, title: 'ArtifactAvailability' },
);

export const SignatureRequestStatus = Type.Object(
  {
    id: Uuid,
    client_reference: Type.String(),
    environment: Type.Literal('sandbox'),
    status: RequestStatus,
    created_at: DateTime,
    updated_at: DateTime,
    retention_expires_at: NullableDateTime,
    sequential_signing: Type.Boolean(),
    return_url: Type.String(),
    signers: Type.Array(SignerStatus),
    fields: Type.Array(FieldStatus),
    artifacts: ArtifactAvailability,
  },
  { ...closed, title: 'SignatureRequestStatus' },
);
export type SignatureRequestStatus = Static<typeof SignatureRequestStatus>;

export const RequestListItem = Type.Object(
  {
    id: Uuid,
    client_reference: Type.String(),
    status: RequestStatus,
    created_at: DateTime,
    updated_at: DateTime,
    retention_expires_at: NullableDateTime,
  },
  { ...closed, title: 'RequestListItem' },
);
export type RequestListItem = Static<typeof RequestListItem>;

export const RequestListQuery = Type.Object(
  {
    status: Type.Optional(RequestStatus),
    client_reference: Type.Optional(ClientReference),
    limit: Type.Optional(Limit),
    cursor: Type.Optional(Cursor),
  },
  closed,
);
export type RequestListQuery = Static<typeof RequestListQuery>;

export const SignerReferenceParams = Type.Object({ id: Uuid, reference: Type.String({ minLength: 1 }) }, closed);
