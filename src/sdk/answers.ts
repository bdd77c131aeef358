// Decoding the node's JSON answers with the node's own view codecs (so the SDK and the node cannot drift):
// an answer that does not match its schema is a ToranaTransportError naming the route.

import type { Codec } from '../codec/codec.js';
import { ToranaTransportError } from './errors.js';
import type { Http } from './http.js';

export function decodeAnswer<T>(view: Codec<T>, json: unknown, what: string): T {
  try {
    return view.fromJson(json, '');
  } catch (e) {
    throw new ToranaTransportError(`${what}: the answer does not match its schema (${(e as Error).message})`);
  }
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
