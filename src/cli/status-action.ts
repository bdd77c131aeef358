// `torana status`: one GET of /status over node:http. It does not go through the SDK on purpose:
// loading the codec schema and `fetch` (undici) would triple the command's start-up for a single
// JSON document (bench figure cli_status_ms). Errors keep the SDK's codes.

import { request } from 'node:http';
import { request as requestTls } from 'node:https';
import { ToranaApiError, ToranaTransportError } from '../sdk/errors.js';
import { quorumSentence } from '../sdk/quorum.js';
import { printJson, printRecord } from './output.js';
import { type ClientFlags, resolveTarget } from './target.js';

const STATUS_BYTES_MAX = 1 << 20;
const STATUS_TIMEOUT_MS = 30_000;

function getJson(base: string, path: string): Promise<unknown> {
  const url = new URL(path, base.endsWith('/') ? base : `${base}/`);
  const send = url.protocol === 'https:' ? requestTls : request;
  return new Promise((resolve, reject) => {
    const fail = (e: Error) => reject(new ToranaTransportError(`cannot reach ${base}: ${e.message}`));
    const req = send(url, { headers: { accept: 'application/json' }, timeout: STATUS_TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > STATUS_BYTES_MAX) req.destroy(new Error(`answer over ${STATUS_BYTES_MAX} bytes`));
        else chunks.push(c);
      });
      res.on('error', fail);
      res.on('end', () => {
        let body: unknown;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          return fail(new Error(`answer ${res.statusCode} is not JSON`));
        }
        const status = res.statusCode ?? 0;
        if (status >= 200 && status < 300) return resolve(body);
        const e = body as { code?: string; message?: string; details?: Record<string, unknown> };
        reject(new ToranaApiError(status, e.code ?? `http_${status}`, e.message ?? '', e.details ?? {}));
      });
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${STATUS_TIMEOUT_MS} ms`)));
    req.on('error', fail);
    req.end();
  });
}

interface StatusJson {
  uptime?: { secs?: number };
  consensus?: { mode?: string; view?: number };
  validators_reachable?: number;
  validators_total?: number;
  quorum_needed?: number;
  catching_up?: boolean;
  [k: string]: unknown;
}

/** The first line of `torana status` for a node whose GET /health answers `node_unhealthy`. */
export const UNHEALTHY_LINE =
  'stopped: the node hit a fatal error (its log says which, e.g. a full disk) and commits nothing until restarted';

/**
 * The first lines of `torana status`: whether the node stopped after a fatal error (`unhealthy`: its
 * GET /health answered `node_unhealthy`, while /status still answers from memory), whether it can
 * commit, said plainly, and whether it is catching up. No quorum line for a node that does not report
 * its quorum (an older version).
 */
export function headline(s: StatusJson, unhealthy = false): string[] {
  const lines = unhealthy ? [UNHEALTHY_LINE] : [];
  const { validators_reachable: r, validators_total: t, quorum_needed: n } = s;
  if (typeof r !== 'number' || typeof t !== 'number' || typeof n !== 'number') return lines;
  lines.push(quorumSentence({ validatorsReachable: r, validatorsTotal: t, quorumNeeded: n }));
  if (r < n) lines.push('no block can commit until more validators are reachable');
  if (s.catching_up === true) lines.push('catching up: fetching blocks from a peer that is ahead');
  return lines;
}

export async function status(flags: ClientFlags & { json?: boolean }): Promise<void> {
  const { url } = await resolveTarget(flags);
  // /health at the same time: a node stopped by a fatal error (a full disk) still answers /status.
  const [s, unhealthy] = await Promise.all([
    getJson(url, '/status') as Promise<StatusJson>,
    getJson(url, '/health').then(
      () => false,
      (e) => e instanceof ToranaApiError && e.code === 'node_unhealthy',
    ),
  ]);
  if (flags.json) printJson(s);
  else {
    for (const line of headline(s, unhealthy)) process.stdout.write(`${line}\n`);
    printRecord({
      ...(s as Record<string, never>),
      uptime: `${s.uptime?.secs ?? '?'}s`,
      consensus: `${s.consensus?.mode ?? '?'}, view ${s.consensus?.view ?? '?'}`,
    });
  }
}
