// The signed text of a signed app request, shared by the gateway that verifies it
// (signed-request.ts) and the SDK that signs it (sdk/signed-request.ts); pure, so the SDK's browser bundle
// can carry it. The layout is the operator one (operator-message.ts), UTF-8:
//
//   METHOD \n path \n sorted-query \n hex(sha256(body)) \n timestamp-ms \n nonce
//
// `path` is the request path as sent (percent-encoding untouched); `sorted-query` the raw `k=v` pairs
// sorted by key then value (code-unit order) and joined by `&`; the body hash lowercase hex (of the
// empty string without a body); the nonce 16–64 characters of [A-Za-z0-9_-].

export const REQUEST_NONCE = /^[A-Za-z0-9_-]{16,64}$/;

/** Raw `k=v` pairs sorted by key, then value; a pair without `=` counts as an empty value. */
export function sortedQuery(rawQuery: string): string {
  const pairs = rawQuery
    .split('&')
    .filter((p) => p !== '')
    .map((p) => {
      const eq = p.indexOf('=');
      return eq < 0 ? ([p, ''] as const) : ([p.slice(0, eq), p.slice(eq + 1)] as const);
    });
  pairs.sort(([ka, va], [kb, vb]) => (ka < kb ? -1 : ka > kb ? 1 : va < vb ? -1 : va > vb ? 1 : 0));
  return pairs.map(([k, v]) => `${k}=${v}`).join('&');
}

export interface RequestTextParts {
  method: string;
  /** Path and optional query, exactly as sent on the request line (`/v1/x?b=2&a=1`). */
  url: string;
  bodySha256Hex: string;
  timestampMs: number;
  nonce: string;
}

/** The six lines, as text (the operator layout prefixes lines of its own: operator-message.ts). */
export function requestLines(parts: RequestTextParts): string {
  const q = parts.url.indexOf('?');
  const path = q < 0 ? parts.url : parts.url.slice(0, q);
  const query = q < 0 ? '' : sortedQuery(parts.url.slice(q + 1));
  return [
    parts.method.toUpperCase(),
    path,
    query,
    parts.bodySha256Hex,
    String(parts.timestampMs),
    parts.nonce,
  ].join('\n');
}

export function requestText(parts: RequestTextParts): Uint8Array {
  return new TextEncoder().encode(requestLines(parts));
}
