// Test helper: a request answered by a served node's gateway in process (Fastify's inject(): the same
// routes, hooks, limits and error handling, without a socket). For route tests that check what a route
// answers, not how the socket behaves; streams (SSE, WebSocket) and transport limits still need the
// real socket of test/helpers/served.ts.

import type { GatewayApp } from '../../src/gateway/context.js';

export interface Injected {
  status: number;
  contentType: string;
  headers: Record<string, string | string[] | number | undefined>;
  text: string;
  bytes: Buffer;
  /** The body parsed as JSON when the answer says it is JSON, else undefined. */
  json: unknown;
}

export interface InjectRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
}

export async function inject(app: GatewayApp, path: string, req: InjectRequest = {}): Promise<Injected> {
  const res = await app.inject({
    method: (req.method ?? 'GET') as 'GET',
    url: path,
    headers: req.headers ?? {},
    ...(req.body === undefined
      ? {}
      : { payload: typeof req.body === 'string' ? req.body : Buffer.from(req.body) }),
  });
  const contentType = String(res.headers['content-type'] ?? '');
  const text = res.body;
  return {
    status: res.statusCode,
    contentType,
    headers: res.headers,
    text,
    bytes: res.rawPayload,
    json: contentType.startsWith('application/json') && text !== '' ? JSON.parse(text) : undefined,
  };
}
