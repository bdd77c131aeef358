// Reads the node's public JSON routes (the ones its OpenAPI document lists). The node is the page's own
// origin unless the settings page stored another node URL (localStorage), which then needs the serving
// node's `dashboard.connect_src` and CORS on the target (docs/dashboard.md "Another node"). Every answer
// is returned, errors included, so a page can say what the node answered.

export interface ErrorBody {
  code: string;
  message: string;
}

export type Answer<T> =
  | { ok: true; status: number; body: T }
  | { ok: false; status: number; error: ErrorBody };

/** localStorage key of the node URL chosen on the settings page. */
export const NODE_URL_KEY = 'torana.dashboard.node_url';

/** The origin the dashboard was served from (the node that serves it). */
export const SERVING_NODE = new URL('../', location.href).href.replace(/\/$/, '');

function storedNodeUrl(): string | undefined {
  try {
    const v = localStorage.getItem(NODE_URL_KEY);
    return v === null || v === '' ? undefined : v;
  } catch {
    return undefined;
  }
}

/** `http(s)://host[:port][/path]` without a trailing slash, or undefined when `s` is not one. */
export function normaliseNodeUrl(s: string): string | undefined {
  try {
    const u = new URL(s.trim());
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
    if (u.search !== '' || u.hash !== '' || u.username !== '' || u.password !== '') return undefined;
    return u.href.replace(/\/+$/, '');
  } catch {
    return undefined;
  }
}

/** The node this page reads: the stored setting, else the serving node. Fixed for the page's life. */
export const NODE_URL = normaliseNodeUrl(storedNodeUrl() ?? '') ?? SERVING_NODE;

/** Headers added to a request (the operator session's bearer token, when the route takes one). */
export type Headers = Record<string, string>;

async function request(path: string, accept: string, signal?: AbortSignal, headers: Headers = {}) {
  return fetch(NODE_URL + path, {
    headers: { accept, ...headers },
    ...(signal ? { signal } : {}),
  });
}

function failed(status: number, body: Partial<ErrorBody>, statusText: string): Answer<never> {
  return {
    ok: false,
    status,
    error: { code: String(body.code ?? 'http_error'), message: String(body.message ?? statusText) },
  };
}

const unreachable = (e: unknown): Answer<never> => ({
  ok: false,
  status: 0,
  error: { code: 'unreachable', message: (e as Error).message },
});

export async function getJson<T>(path: string, signal?: AbortSignal, headers?: Headers): Promise<Answer<T>> {
  try {
    const res = await request(path, 'application/json', signal, headers);
    const body = (await res.json().catch(() => ({}))) as T & Partial<ErrorBody>;
    return res.ok ? { ok: true, status: res.status, body } : failed(res.status, body, res.statusText);
  } catch (e) {
    return unreachable(e);
  }
}

/** A text answer (the bridge's XML reports); errors are the node's JSON error bodies. */
export async function getText(path: string, accept: string, headers?: Headers): Promise<Answer<string>> {
  try {
    const res = await request(path, accept, undefined, headers);
    const text = await res.text();
    if (res.ok) return { ok: true, status: res.status, body: text };
    let body: Partial<ErrorBody> = {};
    try {
      body = JSON.parse(text) as Partial<ErrorBody>;
    } catch {}
    return failed(res.status, body, res.statusText);
  } catch (e) {
    return unreachable(e);
  }
}

/** POSTs JSON (operator sign-in). */
export async function postJson<T>(path: string, value: unknown, headers: Headers = {}): Promise<Answer<T>> {
  try {
    const res = await fetch(NODE_URL + path, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json', ...headers },
      body: JSON.stringify(value),
    });
    const body = (await res.json().catch(() => ({}))) as T & Partial<ErrorBody>;
    return res.ok ? { ok: true, status: res.status, body } : failed(res.status, body, res.statusText);
  } catch (e) {
    return unreachable(e);
  }
}

export const enc = encodeURIComponent;

/** Paths of the served OpenAPI document (`/v1/accounts/{id}` style, `{param}` kept). */
export async function servedPaths(): Promise<Set<string>> {
  const a = await getJson<{ paths?: Record<string, unknown> }>('/openapi.json');
  return new Set(a.ok ? Object.keys(a.body.paths ?? {}) : []);
}
