import Type, { type Static } from 'typebox';
import { Uuid } from './common.js';

/** `POST /_sandbox/api-keys`: a key for a new account (a test's own isolated account), or for the caller's. */

const closed = { additionalProperties: false } as const;

export const ApiKeyCreateInput = Type.Object(
  {
    account: Type.Optional(
      Type.Enum(['new', 'same'], { description: "`new` (default): a new account with this key; `same`: another key of the calling key's account" }),
    ),
  },
  { ...closed, title: 'ApiKeyCreateInput' },
);
export type ApiKeyCreateInput = Static<typeof ApiKeyCreateInput>;

export const CreatedApiKey = Type.Object(
  {
    account_id: Uuid,
    key_id: Uuid,
    api_key: Type.String({ description: 'shown only in this answer: paraph stores its SHA-256' }),
    webhook_secret: Type.String({ description: 'the Standard Webhooks secret (whsec_…) that signs deliveries for this key' }),
  },
  { ...closed, title: 'CreatedApiKey' },
);
export type CreatedApiKey = Static<typeof CreatedApiKey>;
