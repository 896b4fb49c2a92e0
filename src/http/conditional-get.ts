import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Conditional GET on an answer with a strong ETag (an artifact's SHA-256): `If-None-Match` naming it, among others
 * or weakly (`W/"…"`), or `*`, answers 304 with the ETag and no body (RFC 9110 13.1.2). Answers whether it did.
 */
export function answeredNotModified(request: FastifyRequest, reply: FastifyReply, etag: string): boolean {
  const header = request.headers['if-none-match'];
  if (header === undefined) return false;
  const tags = header.split(',').map((tag) => tag.trim().replace(/^W\//, ''));
  if (!tags.includes('*') && !tags.includes(etag)) return false;
  reply.code(304).header('etag', etag).header('cache-control', 'no-store').send();
  return true;
}
