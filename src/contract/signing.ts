import Type, { type Static } from 'typebox';
import { DateTime, NullableDateTime, Uuid } from './common.js';
import { FieldType, SignerStatusValue } from './signature-requests.js';
import { LOCALES } from '../domain/locales.js';
import { MAX_FIELD_VALUE, MAX_REASON, MAX_TYPED_MARK } from '../domain/limits.js';

/**
 * The signer's JSON API under the signing link: what the signing page and `paraph sign` share. The
 * token in the path is the only credential.
 */

const closed = { additionalProperties: false } as const;

export const ClosedReason = Type.Enum(['signed', 'declined', 'cancelled', 'expired', 'revoked', 'unavailable']);
export type ClosedReason = Static<typeof ClosedReason>;

export const SignerField = Type.Object(
  {
    id: Uuid,
    type: FieldType,
    page: Type.Integer(),
    x: Type.Number(),
    y: Type.Number(),
    width: Type.Number(),
    height: Type.Number(),
    name: Type.String(),
    field_key: Type.String(),
    value: Type.String({ description: 'prefilled by the sender, from the signer identity, or the date; empty otherwise' }),
    read_only: Type.Boolean(),
    editable: Type.Boolean({ description: 'the signer types this value' }),
  },
  { ...closed, title: 'SignerField' },
);
export type SignerField = Static<typeof SignerField>;

export const EarlierField = Type.Object(
  {
    type: FieldType,
    page: Type.Integer(),
    x: Type.Number(),
    y: Type.Number(),
    width: Type.Number(),
    height: Type.Number(),
    value: Type.String({ description: 'text and date fields: the value; a typed signature or initials: its text' }),
    image: Type.String({ description: 'a drawn signature or initials: a PNG data URL; empty otherwise' }),
  },
  { ...closed, title: 'EarlierField' },
);
export type EarlierField = Static<typeof EarlierField>;

export const SignerView = Type.Object(
  {
    state: Type.Enum(['open', 'closed']),
    closed_reason: Type.Union([ClosedReason, Type.Null()]),
    lang: Type.Enum([...LOCALES]),
    brand: Type.String({ description: 'the `source` of iframe messages' }),
    embed_origin: Type.String({ description: 'the origin allowed to frame the page; empty when none' }),
    return_url: Type.String({ description: 'where to send the signer now (closed) — empty when none' }),
    request: Type.Union([
      Type.Object(
        {
          id: Uuid,
          client_reference: Type.String(),
          status: Type.String({ description: "the request's status: `active`, `completed`, `declined`, …" }),
          document_name: Type.String(),
          sequential_signing: Type.Boolean(),
          sender_name: Type.String({ description: 'who asks for the signature (`email.sender_name`); empty when the request has none' }),
          message: Type.String({ description: "the sender's message to the signers (`email.message`); empty when none" }),
          logo_url: Type.String({ description: "the sender's https logo (`email.logo_url`), loaded by the browser only; empty when none" }),
          cancellation_reason: Type.String({ description: 'the reason the sender gave when cancelling; empty when none' }),
          pages: Type.Array(Type.Object({ width: Type.Number(), height: Type.Number(), rotation: Type.Integer() }, closed)),
        },
        closed,
      ),
      Type.Null(),
    ]),
    signer: Type.Union([
      Type.Object(
        {
          id: Uuid,
          reference: Type.String(),
          name: Type.String(),
          email: Type.String(),
          status: SignerStatusValue,
          verification: Type.String(),
          verified_at: NullableDateTime,
          expires_at: NullableDateTime,
        },
        closed,
      ),
      Type.Null(),
    ]),
    fields: Type.Array(SignerField),
    signed_pdf: Type.Enum(['none', 'pending', 'ready', 'purged'], {
      description:
        'the signed PDF for this signer: `ready` (GET `signed-document` under the link), `pending` (completed, being made), `purged` (content no longer kept) or `none` (not signed, or others still have to sign)',
    }),
    verification_required: Type.Boolean({
      description: "email code not yet entered in this browser or client: document, signing and declining are locked (and, once signed, the signer's copy)",
    }),
    code_live: Type.Boolean({
      description: 'a code mailed to the signer is still valid (sandbox clock): the page asks for it instead of mailing another; false when no code is needed',
    }),
    can_sign: Type.Boolean(),
    waiting_for: Type.Array(Type.String(), { description: 'references of signers who must sign first (sequential signing)' }),
    waiting_for_names: Type.Array(Type.String(), { description: 'the same signers by name (their email when they have none)' }),
    earlier_fields: Type.Array(EarlierField, { description: 'what signers who already signed put on the document, shown read-only' }),
  },
  { ...closed, title: 'SignerView' },
);
export type SignerView = Static<typeof SignerView>;

/** A typed signature or initials. */
export const TypedMarkText = Type.String({ minLength: 1, maxLength: MAX_TYPED_MARK });

const Mark = Type.Union([
  Type.Object({ type: Type.Literal('typed'), text: TypedMarkText }, closed),
  Type.Object({ type: Type.Literal('drawn'), image: Type.String({ maxLength: 700_000, pattern: '^data:image/png;base64,[A-Za-z0-9+/=]+$' }) }, closed),
]);

export const SignInput = Type.Object(
  {
    /** Values of the signer's text and date fields, by field name or id. */
    fields: Type.Optional(Type.Record(Type.String(), Type.String({ maxLength: MAX_FIELD_VALUE }))),
    signature: Type.Optional(Mark),
    initials: Type.Optional(Mark),
  },
  { ...closed, title: 'SignInput' },
);
export type SignInput = Static<typeof SignInput>;

export const DeclineInput = Type.Object({ reason: Type.String({ minLength: 1, maxLength: MAX_REASON }) }, { ...closed, title: 'DeclineInput' });

export const OtpVerifyInput = Type.Object({ code: Type.String({ pattern: '^[0-9]{6}$' }) }, { ...closed, title: 'OtpVerifyInput' });

export const SignerOutcome = Type.Object(
  {
    status: Type.Enum(['signed', 'declined']),
    request_status: Type.String(),
    signed_at: NullableDateTime,
    return_url: Type.String({ description: 'the return URL with its parameters; empty when the request has none' }),
    next: Type.Optional(
      Type.Enum(['completed', 'next_mailed', 'next_not_mailed', 'others', 'none'], {
        description:
          'what happens now: `completed` (every signer signed), `next_mailed` (sequential: the next signers were emailed), `next_not_mailed` (sequential: the next signers can sign; the sender gives them their link), `others` (the other signers can sign at any time), `none` (declined, or no other signer can sign any more: the request expired)',
      }),
    ),
    next_names: Type.Optional(Type.Array(Type.String(), { description: 'the signers who can sign now (sequential), by name' })),
  },
  { ...closed, title: 'SignerOutcome' },
);
export type SignerOutcome = Static<typeof SignerOutcome>;

export const OtpSent = Type.Object(
  { sent: Type.Boolean(), expires_at: DateTime, email_delivery: Type.Enum(['sent', 'failed']) },
  { ...closed, title: 'OtpSent' },
);

export const OtpChecked = Type.Object(
  {
    verified: Type.Boolean(),
    verified_at: NullableDateTime,
    attempts_left: Type.Integer(),
    locked_until: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'set when this wrong code was the one too many: email verification is locked until then (otherwise null)',
    }),
  },
  { ...closed, title: 'OtpChecked' },
);

export const TokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) }, closed);
