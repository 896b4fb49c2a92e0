import type { TSchema } from 'typebox';
import { ErrorEnvelope, SigningErrorEnvelope } from '../../contract/common.js';

/** The error statuses a route can answer, each with the error envelope (for docs and serialisation). */
export function errorResponses(...statuses: number[]): Record<number, typeof ErrorEnvelope> {
  return Object.fromEntries(statuses.map((status) => [status, ErrorEnvelope]));
}

/** The same, for a signing link's own API: its envelope may carry a `reason` (docs/signer.md). */
export function signingErrorResponses(...statuses: number[]): Record<number, typeof SigningErrorEnvelope> {
  return Object.fromEntries(statuses.map((status) => [status, SigningErrorEnvelope]));
}

/**
 * A response that is not JSON, by media type, as fastify takes it (`{description, content}`); the
 * OpenAPI document lists it under that type. The route writes the body itself.
 */
export function mediaResponse<T extends TSchema>(type: string, description: string, schema: T) {
  return { description, content: { [type]: { schema } } };
}

/** The same with several media types, e.g. a PDF or JSON by the resource asked for. */
export function mediaResponses(description: string, content: Record<string, TSchema>) {
  return { description, content: Object.fromEntries(Object.entries(content).map(([type, schema]) => [type, { schema }])) };
}
