// Answers written straight to the socket, for the failures that happen before Fastify sees a request
// (node's 'clientError': header overflow, header/request timeouts, unparseable HTTP) and for refused
// WebSocket upgrades. Same body and API-version headers as every other error (README "Error rules").

import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { type ApiVersions, apiHeaders } from './api-version.js';
import { type GatewayError, gatewayError, retryAfterSeconds } from './errors.js';
import type { GatewayMetrics } from './metrics.js';

export function writeRawError(
  socket: Duplex,
  error: GatewayError,
  versions: ApiVersions,
  metrics: GatewayMetrics,
): void {
  metrics.rejected.inc({ reason: error.code });
  if (socket.writable) {
    const body = JSON.stringify(error.toBody());
    const headers: Record<string, string> = {
      ...apiHeaders(versions.default, versions),
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(body)),
      connection: 'close',
    };
    const wait = retryAfterSeconds(error);
    if (wait !== undefined) headers['retry-after'] = wait;
    const head = Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    socket.end(`HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? 'Error'}\r\n${head}\r\n${body}`);
  }
  // end() flushes and closes; destroySoon-like safety net for a peer that never reads.
  setTimeout(() => socket.destroy(), 1_000).unref();
}

interface ClientErrorShape {
  code?: unknown;
}

/** The parts of node's ServerResponse this handler reads (`socket._httpMessage`). */
interface InFlightResponse {
  req?: { complete?: boolean };
  headersSent?: boolean;
  writableFinished?: boolean;
  shouldKeepAlive?: boolean;
  once(event: 'close', listener: () => void): unknown;
}

/** Lets `res` finish, then closes its connection (no further request is read from it). */
function closeAfter(res: InFlightResponse, socket: Duplex): void {
  // Before the head is written, node then sends `Connection: close` and ends the socket itself.
  if (res.headersSent !== true) res.shouldKeepAlive = false;
  res.once('close', () => {
    socket.end();
    setTimeout(() => socket.destroy(), 1_000).unref();
  });
}

/**
 * Fastify's `clientErrorHandler`: 431 for header overflow (node `maxHeaderSize`), 408 when the headers or
 * the request did not arrive in time (node `headersTimeout` / `requestTimeout`), 400 otherwise. Never
 * while an earlier request on the same connection is still being answered: that request's answer (an
 * admission result, say) is sent, then the connection closes.
 */
export function createClientErrorHandler(versions: ApiVersions, metrics: GatewayMetrics) {
  return (err: Error, socket: Duplex): void => {
    const code = (err as ClientErrorShape).code;
    if (code === 'ECONNRESET' || socket.destroyed) return;
    let error: GatewayError;
    if (code === 'HPE_HEADER_OVERFLOW') error = gatewayError('headers_too_large');
    else if (code === 'ERR_HTTP_REQUEST_TIMEOUT') error = gatewayError('request_timeout');
    else error = gatewayError('bad_request', { reason: 'malformed HTTP request' });
    // A request on this socket is being answered (its body was read and its handler runs, e.g. a
    // transaction under admission) while a later request on the same connection, pipelined behind it,
    // failed or timed out. A status line written now would reach the client as the answer to the first
    // request: a 408 for a transaction that was admitted. The first request keeps its own answer; the
    // connection closes after it, which is what the failed request gets.
    // Only a request read in full is sure to get its answer: one whose body is still arriving would
    // wait forever on a connection whose parser has failed.
    const inFlight = (socket as unknown as { _httpMessage?: InFlightResponse | null })._httpMessage;
    if (inFlight?.req?.complete === true && inFlight.writableFinished !== true) {
      metrics.rejected.inc({ reason: error.code });
      closeAfter(inFlight, socket);
      return;
    }
    // A response already under way on this socket cannot be replaced by a new status line.
    if (inFlight?.headersSent === true) {
      socket.destroy();
      return;
    }
    writeRawError(socket, error, versions, metrics);
  };
}
