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

/**
 * Fastify's `clientErrorHandler`: 431 for header overflow (node `maxHeaderSize`), 408 when the headers or
 * the request did not arrive in time (node `headersTimeout` / `requestTimeout`), 400 otherwise.
 */
export function createClientErrorHandler(versions: ApiVersions, metrics: GatewayMetrics) {
  return (err: Error, socket: Duplex): void => {
    const code = (err as ClientErrorShape).code;
    if (code === 'ECONNRESET' || socket.destroyed) return;
    // A response already under way on this socket cannot be replaced by a new status line.
    const pending = (socket as unknown as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (pending?.headersSent === true) {
      socket.destroy();
      return;
    }
    let error: GatewayError;
    if (code === 'HPE_HEADER_OVERFLOW') error = gatewayError('headers_too_large');
    else if (code === 'ERR_HTTP_REQUEST_TIMEOUT') error = gatewayError('request_timeout');
    else error = gatewayError('bad_request', { reason: 'malformed HTTP request' });
    writeRawError(socket, error, versions, metrics);
  };
}
