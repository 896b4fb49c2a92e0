import Type, { type Static, type TObject, type TSchema } from 'typebox';
import type { FaultRuleInput as DomainFaultRuleInput } from '../domain/fault-rules.js';
import { MAX_FAULT_COUNT, MAX_FAULT_DELAY_MS } from '../domain/limits.js';
import { DateTime, Uuid } from './common.js';

/**
 * Sandbox fault rules (`/_sandbox/faults`): the next `count` matching operations of the account fail
 * or are delayed. Never on by default; scoped to the key's account.
 */

const closed = { additionalProperties: false } as const;

const Count = Type.Integer({ minimum: 1, maximum: MAX_FAULT_COUNT, description: 'how many matching operations the rule affects (default 1)' });
const delayMs = (description: string) => Type.Integer({ minimum: 1, maximum: MAX_FAULT_DELAY_MS, description });
const ForRequest = Type.Optional(Type.String({ format: 'uuid', description: 'only this signature request (default: any of the account)' }));

const api = {
  target: Type.Literal('api'),
  method: Type.Optional(Type.Enum(['GET', 'POST', 'PUT', 'DELETE', 'PATCH'], { description: 'only calls with this method (default: any)' })),
  path: Type.String({
    minLength: 1,
    maxLength: 300,
    description: 'a `/v1/…` path where `{name}` stands for any one segment and a last segment `*` for any rest; `*` alone matches every `/v1` path',
  }),
  status: Type.Optional(Type.Enum([429, 500, 503], { description: 'answer this status in the error envelope (429 with Retry-After)' })),
  delay_ms: Type.Optional(delayMs('delay the call this many milliseconds, then serve it normally (instead of `status`)')),
};

const webhook = {
  target: Type.Literal('webhook'),
  signature_request_id: ForRequest,
  error: Type.Enum(['status', 'timeout', 'connection_refused'], {
    description: 'how each attempt fails: the receiver answered `status`, did not answer in time, or refused the connection',
  }),
  status: Type.Optional(Type.Integer({ minimum: 300, maximum: 599, description: 'the answer of an `error: "status"` attempt (default 500)' })),
};

const mail = {
  target: Type.Literal('mail'),
  signature_request_id: ForRequest,
};

const artifacts = {
  target: Type.Literal('artifacts'),
  signature_request_id: ForRequest,
  mode: Type.Enum(['fail', 'delay'], { description: 'fail the attempt (the normal retry follows) or make it late' }),
  delay_ms: Type.Optional(delayMs('with `mode: "delay"`: how many milliseconds late')),
};

/** A union told apart by `target`: a validation error then comes from the branch `target` names. */
function byTarget<T extends TObject[]>(branches: [...T], options: { title: string; description?: string }) {
  return Type.Unsafe<Static<T[number]>>({
    type: 'object',
    discriminator: { propertyName: 'target' },
    oneOf: branches,
    ...options,
  });
}

const input = <P extends Record<string, TSchema>>(properties: P, title: string) =>
  Type.Object({ ...properties, count: Type.Optional(Count) }, { ...closed, title });

export const ApiFaultInput = input(api, 'ApiFaultInput');
export const WebhookFaultInput = input(webhook, 'WebhookFaultInput');
export const MailFaultInput = input(mail, 'MailFaultInput');
export const ArtifactsFaultInput = input(artifacts, 'ArtifactsFaultInput');

export const FaultRuleInput = byTarget([ApiFaultInput, WebhookFaultInput, MailFaultInput, ArtifactsFaultInput], {
  title: 'FaultRuleInput',
  description: 'one fault rule; `target` says which operations it affects',
});
export type FaultRuleInput = Static<typeof FaultRuleInput>;
// The wire shape and the domain's shape must stay one: each assignable to the other.
true satisfies FaultRuleInput extends DomainFaultRuleInput ? (DomainFaultRuleInput extends FaultRuleInput ? true : false) : false;

const stored = { id: Uuid };
const progress = {
  count: Count,
  fired: Type.Integer({ minimum: 0, description: 'how many times the rule fired; at `count` it stops matching' }),
  created_at: DateTime,
};
const output = <P extends Record<string, TSchema>>(properties: P, title: string) =>
  Type.Object({ ...stored, ...properties, ...progress }, { ...closed, title });

export const ApiFault = output(api, 'ApiFault');
export const WebhookFault = output(webhook, 'WebhookFault');
export const MailFault = output(mail, 'MailFault');
export const ArtifactsFault = output(artifacts, 'ArtifactsFault');

export const FaultRule = Type.Union([ApiFault, WebhookFault, MailFault, ArtifactsFault], { title: 'FaultRule' });
export type FaultRule = Static<typeof FaultRule>;

export const FaultRuleList = Type.Object({ data: Type.Array(FaultRule) }, { ...closed, title: 'FaultRuleList' });
export type FaultRuleList = Static<typeof FaultRuleList>;
