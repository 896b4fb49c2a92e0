import Type, { type Static } from 'typebox';
import { Uuid } from './common.js';
import {
  CallbackUrl,
  ClientReference,
  EmailBranding,
  EmailDelivery,
  EmbedOrigin,
  FieldValues,
  LinkExpiryDays,
  RecipientReturnUrl,
  ReturnUrl,
  SignerInput,
  SignerStatusValue,
} from './signature-requests.js';
import { MAX_BULK_RECIPIENTS, MAX_SIGNERS } from '../domain/limits.js';

/** POST /bulk-sends: one request created and activated per recipient, from a template. */

const closed = { additionalProperties: false } as const;

export const BulkSendRecipient = Type.Object(
  {
    client_reference: ClientReference,
    signers: Type.Array(SignerInput, { minItems: 1, maxItems: MAX_SIGNERS }),
    field_values: Type.Optional(FieldValues),
    return_url: Type.Optional(RecipientReturnUrl),
  },
  closed,
);
export type BulkSendRecipient = Static<typeof BulkSendRecipient>;

/** The batch options: they apply to every recipient's request. */
const batchOptions = {
  callback_url: Type.Optional(CallbackUrl),
  return_url: Type.Optional(ReturnUrl),
  email: Type.Optional(EmailBranding),
  sequential_signing: Type.Optional(Type.Boolean({ default: false })),
  send_emails: Type.Optional(Type.Boolean({ default: false })),
  link_expiry_days: Type.Optional(LinkExpiryDays),
  embed_origin: Type.Optional(EmbedOrigin),
};

export const BulkSendInput = Type.Object(
  { template_id: Uuid, recipients: Type.Array(BulkSendRecipient, { minItems: 1, maxItems: MAX_BULK_RECIPIENTS }), ...batchOptions },
  { ...closed, title: 'BulkSendInput' },
);
export type BulkSendInput = Static<typeof BulkSendInput>;

/**
 * BulkSendInput as the batch is checked before its rows: options and 1 to 50 recipients. Each
 * recipient is then checked against BulkSendRecipient on its own, so a bad row fails alone.
 */
export const BulkSendBatch = Type.Object(
  { template_id: Uuid, recipients: Type.Array(Type.Unknown(), { minItems: 1, maxItems: MAX_BULK_RECIPIENTS }), ...batchOptions },
  closed,
);
export type BulkSendBatch = Static<typeof BulkSendBatch>;

export const BulkSendResultStatus = Type.Enum(['active', 'already_exists', 'error']);
export type BulkSendResultStatus = Static<typeof BulkSendResultStatus>;

export const BulkSendSigner = Type.Object(
  {
    id: Uuid,
    reference: Type.String(),
    email: Type.String(),
    status: SignerStatusValue,
    signing_url: Type.String({ description: 'secret signer-specific URL; must not be logged' }),
    email_delivery: EmailDelivery,
    embed_url: Type.Optional(Type.String()),
  },
  closed,
);
export type BulkSendSigner = Static<typeof BulkSendSigner>;

export const BulkSendError = Type.Object(
  {
    code: Type.Enum(['invalid_request', 'temporarily_unavailable', 'activation_failed']),
    message: Type.String(),
  },
  closed,
);
export type BulkSendError = Static<typeof BulkSendError>;

export const BulkSendResult = Type.Object(
  {
    client_reference: Type.String(),
    status: BulkSendResultStatus,
    id: Type.Optional(Uuid),
    signers: Type.Array(BulkSendSigner),
    error: Type.Optional(BulkSendError),
  },
  closed,
);
export type BulkSendResult = Static<typeof BulkSendResult>;

export const BulkSendResponse = Type.Object(
  {
    template_id: Uuid,
    total: Type.Integer({ minimum: 0 }),
    created: Type.Integer({ minimum: 0 }),
    failed: Type.Integer({ minimum: 0 }),
    results: Type.Array(BulkSendResult),
  },
  { ...closed, title: 'BulkSendResponse' },
);
export type BulkSendResponse = Static<typeof BulkSendResponse>;
