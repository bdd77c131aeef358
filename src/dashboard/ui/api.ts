// Reads the node's public JSON routes (the ones its OpenAPI document lists), relative to the page's
// origin. Every answer is returned, errors included, so a page can say what the node answered.

export interface ErrorBody {
  code: string;
  message: string;
}

export type Answer<T> =
  | { ok: true; status: number; body: T }
  | { ok: false; status: number; error: ErrorBody };

/** The node's base URL: the dashboard is served by the node it shows (same origin). */
export const NODE_URL = new URL('../', location.href).href.replace(/\/$/, '');

export async function getJson<T>(path: string, signal?: AbortSignal): Promise<Answer<T>> {
  try {
    const res = await fetch(NODE_URL + path, {
      headers: { accept: 'application/json' },
      ...(signal ? { signal } : {}),
    });
    const body = (await res.json().catch(() => ({}))) as T & Partial<ErrorBody>;
    if (res.ok) return { ok: true, status: res.status, body };
    return {
      ok: false,
      status: res.status,
      error: { code: String(body.code ?? 'http_error'), message: String(body.message ?? res.statusText) },
    };
  } catch (e) {
    return { ok: false, status: 0, error: { code: 'unreachable', message: (e as Error).message } };
  }
}

export const enc = encodeURIComponent;

/** Paths of the served OpenAPI document (`/v1/iso20022/...` style, `{param}` kept). */
export async function servedPaths(): Promise<Set<string>> {
  const a = await getJson<{ paths?: Record<string, unknown> }>('/openapi.json');
  return new Set(a.ok ? Object.keys(a.body.paths ?? {}) : []);
}
