// Sending fuzzed requests for the long route fuzz (every route with random and mutated
// requests; no 5xx, every error a documented code): through an undici pool (operator routes signed when
// the probe asks), and raw bytes over a fresh socket for malformed HTTP the pool cannot send. Also the
// /health monitor that must stay fast meanwhile.

import { connect } from 'node:net';
import type { Pool } from 'undici';
import { type OperatorAudience, signOperatorRequest } from '../../../src/gateway/operator-message.js';
import type { Answer, Probe } from '../../helpers/bad-requests.js';
import type { LiveRoute } from '../../helpers/route-catalog.js';

/** Answers larger than this are a finding (list pages and documents are far smaller). */
export const ANSWER_BYTES_MAX = 4 * 1024 * 1024;
const REQUEST_TIMEOUT_MS = 15_000;
/** A raw exchange waits this long for the first answer bytes; silence is acceptable (e.g. a body is awaited). */
const RAW_ANSWER_WAIT_MS = 1_500;

export async function sendProbe(
  pool: Pool,
  route: LiveRoute | undefined,
  p: Probe,
  operator: { seed: Uint8Array; audience: OperatorAudience },
): Promise<Answer> {
  const headers = { ...p.headers };
  if (route?.meta.visibility === 'operator' && p.sign === true) {
    Object.assign(
      headers,
      signOperatorRequest({
        method: p.method,
        url: p.path,
        body: p.body ?? new Uint8Array(),
        seed: operator.seed,
        ...operator.audience,
      }),
    );
  }
  const res = await pool.request({
    method: p.method as 'GET',
    path: p.path,
    headers,
    ...(p.body === undefined ? {} : { body: Buffer.from(p.body) }),
    headersTimeout: REQUEST_TIMEOUT_MS,
    bodyTimeout: REQUEST_TIMEOUT_MS,
  });
  const contentType = String(res.headers['content-type'] ?? '');
  if (contentType.startsWith('text/event-stream')) {
    res.body.destroy();
    return { status: res.statusCode, contentType, body: Buffer.alloc(0) };
  }
  const body = Buffer.from(await res.body.arrayBuffer());
  if (body.length > ANSWER_BYTES_MAX) throw new Error(`answer of ${body.length} bytes`);
  return { status: res.statusCode, contentType, body };
}

/** Sends raw bytes on a fresh connection; the status of the first answer, or undefined if none came. */
export function rawSend(
  port: number,
  bytes: Uint8Array,
): Promise<{ status: number | undefined; head: string }> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    let data = '';
    const done = () => {
      clearTimeout(timer);
      s.destroy();
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(data);
      resolve({ status: m === null ? undefined : Number(m[1]), head: data.slice(0, 300) });
    };
    const timer = setTimeout(done, RAW_ANSWER_WAIT_MS);
    s.on('data', (d) => {
      data += d.toString('latin1');
      if (data.includes('\r\n\r\n')) done();
    });
    s.on('error', done);
    s.on('close', done);
    s.on('connect', () => s.write(bytes));
  });
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
