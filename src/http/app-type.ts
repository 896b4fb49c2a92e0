import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Principal } from '../domain/principal.js';

/**
 * The fastify instance paraph's routes are registered on, and what paraph adds to fastify's request
 * and route config. In a module of its own so routes and app.ts do not import each other.
 */
declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    /** The route needs a bearer API key. */
    auth?: boolean;
    /** Left out of the OpenAPI document. */
    hidden?: boolean;
    summary?: string;
    /** OpenAPI description of a multipart body (validated by the handler, not by fastify). */
    multipartBody?: import('typebox').TSchema;
    /** OpenAPI description of a body that is neither JSON nor multipart (the route registers its parser). */
    rawBody?: { mediaType: string; description: string };
    /**
     * OpenAPI responses by status where the wire is not the serialisation schema (bytes, Markdown, a
     * second media type), as `mediaResponse` makes them; they only change the document.
     */
    documentedResponses?: Record<number, unknown>;
  }
}

export type App = FastifyInstance<
  import('node:http').Server,
  import('node:http').IncomingMessage,
  import('node:http').ServerResponse,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;
