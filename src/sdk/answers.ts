// Decoding the node's JSON answers with the node's own view codecs (so the SDK and the node cannot drift):
// an answer that does not match its schema is a ToranaTransportError naming the route.

import type { Codec } from '../codec/codec.js';
import { ToranaTransportError } from './errors.js';
import type { Http } from './http.js';

export function decodeAnswer<T>(view: Codec<T>, json: unknown, what: string): T {
  let value: T;
  try {
    value = view.fromJson(json, '');
  } catch (e) {
    throw new ToranaTransportError(`${what}: the answer does not match its schema (${(e as Error).message})`);
  }
  return withGatewayJson(view, value);
}

/**
 * Gives a decoded object a `toJSON` (not enumerable: comparisons and spreads do not see it) that answers
 * the gateway's JSON form of the value, so `JSON.stringify` of an event or answer prints what the node
 * sent: hashes and bytes as hex, numerics as strings, instead of `{"0":25,…}` for a Uint8Array.
 */
export function withGatewayJson<T>(view: Codec<T>, value: T): T {
  if (
    typeof value === 'object' &&
    value !== null &&
    !(value instanceof Uint8Array) &&
    Object.isExtensible(value)
  )
    Object.defineProperty(value, 'toJSON', {
      value: () => view.toJson(value),
      enumerable: false,
      configurable: true,
      writable: true,
    });
  return value;
}

/** POSTs `body` as JSON to `path` and decodes the answer with `view`. */
export async function postJson<T>(
  http: Http,
  path: string,
  body: unknown,
  view: Codec<T>,
  headers?: Record<string, string>,
): Promise<T> {
  const json = await http.json({
    method: 'POST',
    path,
    body: JSON.stringify(body),
    contentType: 'application/json',
    ...(headers === undefined ? {} : { headers }),
  });
  return decodeAnswer(view, json, path);
}

type Query = Record<string, string | number | undefined>;

/** GET `path?query` decoded with `view` (the ledger modules' SDK reads use it). */
export async function getView<T>(http: Http, path: string, query: Query, view: Codec<T>): Promise<T> {
  const q = Object.entries(query)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&');
  const full = q === '' ? path : `${path}?${q}`;
  const json = await http.json({ method: 'GET', path: full });
  return decodeAnswer(view, json, path);
}

/** `limit` / `offset` of a list read. */
export interface PageOptions {
  limit?: number;
  offset?: number;
}
