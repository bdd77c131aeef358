// A request refused before its body is read (413 `body_too_large` from its Content-Length, 415, a parse
// error) gets `Connection: close` from Fastify's body parser, and node closes the socket as soon as the
// answer is written. The client is usually still sending the body: its next segments reach a closed
// socket, the server's kernel answers with a reset, and the client can lose the answer it had not read yet
// (EPIPE or ECONNRESET instead of 413 `body_too_large`). When the body's declared length is at most
// REFUSED_BODY_DRAIN_BYTES_MAX, the connection stays open instead: node reads and discards the rest of a
// body nobody read (its `_dump`), so the client reads the refusal and may send its next request on the
// same connection. A longer body, or one of unknown length, still closes the connection at once;
// `gateway.request_timeout_ms` bounds how long the rest may take to arrive.

import type { FastifyReply, FastifyRequest } from 'fastify';

/** Largest declared body whose unread rest is read and discarded after a refusal. */
export const REFUSED_BODY_DRAIN_BYTES_MAX = 4 * 1024 * 1024;

/**
 * Whether the connection of a refused request stays open to read the rest of its body: Fastify's parser
 * asked to close (a header on the reply, not the server's own `Connection: close` while it shuts down), the
 * body has not arrived in full, and its declared length is within the drain limit.
 */
export function drainsRefusedBody(req: FastifyRequest, reply: FastifyReply): boolean {
  if (reply.getHeader('connection') !== 'close' || reply.raw.getHeader('connection') !== undefined)
    return false;
  if (req.raw.complete || req.headers['transfer-encoding'] !== undefined) return false;
  const declared = Number(req.headers['content-length']);
  return Number.isSafeInteger(declared) && declared <= REFUSED_BODY_DRAIN_BYTES_MAX;
}

/**
 * Keeps the connection of a refused request open while node discards the rest of its body: called by
 * `sendError` (error-reply.ts), which every refusal of the body parser goes through, just before the
 * error is sent (an error answer only: the hook of every answer it once was cost each read a hook run).
 */
export function keepConnectionToDrain(req: FastifyRequest, reply: FastifyReply): void {
  if (reply.statusCode >= 400 && drainsRefusedBody(req, reply)) reply.removeHeader('connection');
}
