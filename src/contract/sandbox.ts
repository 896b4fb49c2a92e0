import Type, { type Static } from 'typebox';
import { DateTime, Uuid } from './common.js';
import { MAX_CLOCK_ADVANCE_SECONDS, MAX_EMAIL } from '../domain/limits.js';

/** The `/_sandbox` controls of the sandbox contract (scoped to the key's account; the clock is global). */

const closed = { additionalProperties: false } as const;

export const ClockState = Type.Object(
  {
    now: DateTime,
    offset_seconds: Type.Integer({ minimum: 0, description: 'how far the sandbox clock is ahead of real time' }),
  },
  { ...closed, title: 'ClockState' },
);
export type ClockState = Static<typeof ClockState>;

export const ClockAdvanceInput = Type.Object(
  // At most ten years at a time (src/domain/limits.ts).
  { seconds: Type.Integer({ minimum: 1, maximum: MAX_CLOCK_ADVANCE_SECONDS }) },
  { ...closed, title: 'ClockAdvanceInput' },
);
export type ClockAdvanceInput = Static<typeof ClockAdvanceInput>;

/** The kinds of paraph's own mails. */
const MAIL_KINDS = ['invitation', 'reminder', 'replacement', 'otp', 'completed', 'turn', 'cancelled'] as const;
const MailKind = Type.Enum(MAIL_KINDS);

/** GET /_sandbox/emails: every filter optional; newest first. */
export const SandboxEmailQuery = Type.Object(
  {
    to: Type.Optional(Type.String({ maxLength: MAX_EMAIL, description: 'recipient address' })),
    signature_request_id: Type.Optional(Uuid),
    kind: Type.Optional(Type.Enum(MAIL_KINDS, { description: "only paraph's mails of this kind" })),
  },
  closed,
);
export type SandboxEmailQuery = Static<typeof SandboxEmailQuery>;

/** A message caught by the SMTP catcher. `kind`, `signature_request_id` and `signer_reference` are set on paraph's own mails. */
export const CaughtEmail = Type.Object(
  {
    id: Uuid,
    from: Type.String(),
    to: Type.Array(Type.String()),
    subject: Type.String(),
    text: Type.String(),
    html: Type.String(),
    received_at: DateTime,
    kind: Type.Union([MailKind, Type.Null()]),
    signature_request_id: Type.Union([Uuid, Type.Null()]),
    signer_reference: Type.Union([Type.String(), Type.Null()]),
  },
  { ...closed, title: 'CaughtEmail' },
);
export type CaughtEmail = Static<typeof CaughtEmail>;

export const CaughtEmailList = Type.Object({ data: Type.Array(CaughtEmail) }, closed);
