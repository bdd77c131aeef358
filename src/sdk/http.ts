// The SDK's HTTP layer over the platform's `fetch` (Node ≥ 20 and browsers): error bodies become typed
// errors, 429/503 answers with Retry-After are retried a bounded number of times.

import { decodeFrame } from '../codec/frame.js';
import { ErrorBodyView } from '../gateway/views/common.js';
import { createSchemaRegistry } from '../model/schema.js';
import { ToranaApiError, ToranaTransportError } from './errors.js';

const ERROR_REGISTRY = createSchemaRegistry([ErrorBodyView]);
const ERROR_LIMITS = { bytesMax: 1 << 20, itemsMax: 10_000, depthMax: 32 };

export interface HttpOptions {
  baseUrl: string;
  fetch?: typeof fetch;
  /** Retries of 429/503 answers that carry Retry-After. */
  retries?: number;
  /** Upper bound of one wait between retries. */
  retryDelayMaxMs?: number;
  headers?: Record<string, string>;
}

export interface HttpRequest {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: Uint8Array | string;
  contentType?: string;
  accept?: string;
  /** Extra headers of this request (e.g. signed-request headers). */
  headers?: Record<string, string>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class Http {
  private readonly f: typeof fetch;
  constructor(readonly opts: HttpOptions) {
    this.f = opts.fetch ?? globalThis.fetch.bind(globalThis);
  }

  /** The raw fetch, for streaming callers (SSE). */
  raw(url: string, init: RequestInit): Promise<Response> {
    return this.f(url, init);
  }

  url(path: string, query?: HttpRequest['query']): string {
    const u = new URL(path, this.opts.baseUrl.endsWith('/') ? this.opts.baseUrl : `${this.opts.baseUrl}/`);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) u.searchParams.set(k, String(v));
    return u.toString();
  }

  async request(req: HttpRequest): Promise<Response> {
    const retries = this.opts.retries ?? 5;
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await this.f(this.url(req.path, req.query), {
          method: req.method,
          headers: {
            ...this.opts.headers,
            ...(req.contentType ? { 'content-type': req.contentType } : {}),
            accept: req.accept ?? 'application/json',
            ...req.headers,
          },
          ...(req.body === undefined ? {} : { body: req.body as NonNullable<RequestInit['body']> }),
        });
      } catch (e) {
        throw new ToranaTransportError(`cannot reach ${this.opts.baseUrl}: ${(e as Error).message}`);
      }
      if (res.ok) return res;
      const err = await toApiError(res);
      if ((res.status === 429 || res.status === 503) && err.retryAfterS !== undefined && attempt < retries) {
        await sleep(Math.min(err.retryAfterS * 1000, this.opts.retryDelayMaxMs ?? 10_000));
        continue;
      }
      throw err;
    }
  }

  async json<T = unknown>(req: HttpRequest): Promise<T> {
    const res = await this.request(req);
    try {
      return (await res.json()) as T;
    } catch {
      throw new ToranaTransportError(`${req.path}: the answer is not JSON`);
    }
  }
}

async function toApiError(res: Response): Promise<ToranaApiError> {
  const retryHeader = res.headers.get('retry-after');
  const retryAfterS = retryHeader !== null && /^\d+$/.test(retryHeader) ? Number(retryHeader) : undefined;
  let body: { code?: unknown; message?: unknown; details?: unknown } = {};
  try {
    if ((res.headers.get('content-type') ?? '').startsWith('application/x-codec')) {
      const d = decodeFrame(
        ERROR_REGISTRY,
        ErrorBodyView,
        new Uint8Array(await res.arrayBuffer()),
        ERROR_LIMITS,
      );
      if (d.ok) body = d.value;
    } else body = (await res.json()) as typeof body;
  } catch {
    // Not a readable error body: fall back to the status line.
  }
  return new ToranaApiError(
    res.status,
    typeof body.code === 'string' ? body.code : `http_${res.status}`,
    typeof body.message === 'string' ? body.message : res.statusText,
    typeof body.details === 'object' && body.details !== null
      ? (body.details as Record<string, unknown>)
      : {},
    retryAfterS,
  );
}
