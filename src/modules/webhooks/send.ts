// One delivery attempt: an HTTP(S) POST to the address the target check resolved (target.ts), with the
// URL's host in `Host` (and as the TLS server name), bounded in time (`webhooks.timeout_ms`: connect,
// send and answer together) and in what is read back (`webhooks.response_bytes_max`: the rest of the
// answer is dropped and the connection closed). Any 2xx answer is a success; everything else (another
// status, a refused connection, a timeout) is a failure with a short reason for `last_error`.

import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { ResolvedTarget } from './target.js';

export interface SendLimits {
  timeoutMs: number;
  responseBytesMax: number;
}

export type SendOutcome = { ok: true; status: number } | { ok: false; status?: number; error: string };

export type Send = (
  target: ResolvedTarget,
  headers: Record<string, string>,
  body: string,
  limits: SendLimits,
) => Promise<SendOutcome>;

/** Reads at most `max` bytes of the answer, then drops the connection. */
function readCapped(res: IncomingMessage, max: number): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    const done = () => resolve(Buffer.concat(chunks).toString('utf8'));
    res.on('data', (chunk: Buffer) => {
      if (bytes < max) chunks.push(chunk.subarray(0, max - bytes));
      bytes += chunk.length;
      if (bytes >= max) {
        res.destroy();
        done();
      }
    });
    res.on('end', done);
    res.on('error', done);
    res.on('close', done);
  });
}

export interface Sender {
  send: Send;
  /** Closes the kept-alive connections. */
  close(): void;
}

/**
 * A sender with its own keep-alive pools: a webhook's deliveries reuse one connection to the checked
 * address (the pools are keyed by address, port and TLS server name, so a connection is never reused
 * for another address). `socketsMax` bounds the open connections per address.
 */
export function createSender(socketsMax = 4): Sender {
  const opts = { keepAlive: true, maxSockets: socketsMax, maxFreeSockets: socketsMax };
  const http = new HttpAgent(opts);
  const https = new HttpsAgent(opts);
  return {
    send: (target, headers, body, limits) => post(target, headers, body, limits, http, https),
    close() {
      http.destroy();
      https.destroy();
    },
  };
}

function post(
  target: ResolvedTarget,
  headers: Record<string, string>,
  body: string,
  limits: SendLimits,
  httpAgent: HttpAgent,
  httpsAgent: HttpsAgent,
): Promise<SendOutcome> {
  return new Promise((resolve) => {
    const { url } = target;
    const https = url.protocol === 'https:';
    const payload = Buffer.from(body, 'utf8');
    let settled = false;
    let complete = false;
    const finish = (o: SendOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // A complete answer leaves the connection to the pool; anything else closes it.
      if (!o.ok || !complete) req.destroy();
      resolve(o);
    };
    const req = (https ? httpsRequest : httpRequest)({
      host: target.address,
      family: target.family,
      port: url.port === '' ? (https ? 443 : 80) : Number(url.port),
      path: `${url.pathname}${url.search}`,
      method: 'POST',
      agent: https ? httpsAgent : httpAgent,
      ...(https ? { servername: url.hostname.replace(/^\[(.*)\]$/, '$1') } : {}),
      headers: {
        ...headers,
        host: url.host,
        'content-type': 'application/json',
        'content-length': String(payload.length),
        'user-agent': 'torana-webhooks/1',
      },
    });
    const timer = setTimeout(() => finish({ ok: false, error: 'timeout' }), limits.timeoutMs);
    req.on('error', (e: NodeJS.ErrnoException) => finish({ ok: false, error: e.code ?? e.message }));
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      void readCapped(res, limits.responseBytesMax).then((text) => {
        complete = res.complete;
        if (status >= 200 && status < 300) finish({ ok: true, status });
        else finish({ ok: false, status, error: `status ${status}: ${text.slice(0, 200)}` });
      });
    });
    req.end(payload);
  });
}
