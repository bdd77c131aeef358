// Hostile requests for the route-fuzzing test (docs/design/testing.md "Tests we keep": every answer a documented
// 4xx or a valid 2xx, never 5xx). Two kinds of probe per route of the LIVE table:
// - structured probes: one known-bad input each (unknown API version, Accept that matches nothing or has
//   an invalid q-value, wrong content types, invalid and deeply nested JSON, random and truncated codec
//   frames, bad pagination/filter/sort, huge query strings, hostile path segments, other methods);
// - seeded random mutations of a well-formed request (path, query, headers, body bytes or JSON fields,
//   method), replayable from the printed seed.
// The value pools live in bad-values.ts.

import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { decodeFrame } from '../../src/codec/frame.js';
import { ErrorBodyCodec } from '../../src/gateway/views/common.js';
import { createSchemaRegistry } from '../../src/model/schema.js';
import {
  BAD_ACCEPT,
  BAD_JSON,
  BAD_QUERIES,
  BAD_VERSION,
  CONTENT_TYPES,
  type Expectation,
  HEADER_POOL,
  JSON_VALUES,
  JUNK_VALUES,
  QUERY_KEYS,
  Rng,
  seededRandom,
  utf8,
  WIRE_MALFORMED,
} from './bad-values.js';
import type { LiveRoute } from './route-catalog.js';
import { fillPath, INVALID_PARAM_SEGMENTS, type Samples, validParamValues } from './route-catalog.js';

export { type Expectation, hostileQueryRequests, Rng, seededRandom } from './bad-values.js';

const errorRegistry = createSchemaRegistry([ErrorBodyCodec]);
const DECODE_LIMITS = { bytesMax: 1 << 20, itemsMax: 10_000, depthMax: 64 };

export interface Probe {
  label: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Uint8Array;
  expect: Expectation;
  /** Operator routes: sign the request as the configured operator (else it goes unsigned). */
  sign?: boolean;
}

/**
 * `path` with the raw `k=v` pairs of `query` set: pairs of the base with the same keys are dropped first,
 * so a bad `limit` replaces the good one instead of turning it into an array. Raw text is kept as is.
 */
export function withQuery(path: string, query: string): string {
  const q = path.indexOf('?');
  const base = q < 0 ? path : path.slice(0, q);
  const keyOf = (pair: string) => pair.split('=')[0]!;
  const added = query.split('&');
  const replaced = new Set(added.map(keyOf));
  const kept =
    q < 0
      ? []
      : path
          .slice(q + 1)
          .split('&')
          .filter((p) => p !== '' && !replaced.has(keyOf(p)));
  return `${base}?${[...kept, ...added].join('&')}`;
}

/** Structured probes for one route; `base` is a well-formed request to it. */
export function structuredProbes(route: LiveRoute, base: Probe, s: Samples): Probe[] {
  const probes: Probe[] = [];
  const add = (label: string, over: Partial<Probe>) => probes.push({ ...base, label, ...over });
  const operator = route.meta.visibility === 'operator';
  for (const [v, expect] of BAD_VERSION)
    add(`x-ledger-api-version: ${v}`, { headers: { ...base.headers, 'x-ledger-api-version': v }, expect });
  for (const a of BAD_ACCEPT) {
    const expect: Expectation = { status: 406, code: 'not_acceptable' };
    add(`accept ${a.slice(0, 40)}`, { headers: { ...base.headers, accept: a }, sign: true, expect });
  }
  for (const q of BAD_QUERIES)
    add(`query ${q.slice(0, 40)}`, { path: withQuery(base.path, q), expect: 'any' });
  for (const method of ['PUT', 'DELETE', 'PATCH', route.method === 'GET' ? 'POST' : 'GET'])
    add(`method ${method}`, { method, expect: '4xx', sign: false });
  if (route.params.length > 0) probes.push(...paramProbes(route, base, s));
  if (route.meta.bodyFormats.length > 0) probes.push(...bodyProbes(route, base));
  if (operator) {
    add('unsigned', { sign: false, expect: { status: 401, code: 'operator_auth_missing' } });
    add('garbage operator headers', {
      sign: false,
      expect: { status: 401, code: 'operator_auth_invalid' },
      headers: {
        ...base.headers,
        'x-ledger-operator-key': 'ed0120zz',
        'x-ledger-operator-timestamp': String(Date.now()),
        'x-ledger-operator-nonce': 'n'.repeat(20),
        'x-ledger-operator-signature': '00',
      },
    });
  }
  if (route.stream === 'sse') {
    for (const id of ['abc', '-1', '1.5', '9'.repeat(40)])
      add(`last-event-id ${id}`, {
        headers: { ...base.headers, 'last-event-id': id },
        expect: { status: 400, code: 'invalid_last_event_id' },
      });
  }
  return probes;
}

function paramProbes(route: LiveRoute, base: Probe, s: Samples): Probe[] {
  const out: Probe[] = [];
  const query = base.path.includes('?') ? base.path.slice(base.path.indexOf('?')) : '';
  for (const p of route.params) {
    for (const bad of INVALID_PARAM_SEGMENTS) {
      const values: Record<string, string> = {};
      for (const q of route.params) values[q] = encodeURIComponent(validParamValues(route, q, s)[0] ?? '1');
      values[p] = bad;
      out.push({
        ...base,
        label: `:${p} = ${bad.slice(0, 30)}`,
        path: fillPath(route.url, values, true) + query,
        expect: WIRE_MALFORMED.has(bad) ? '4xx' : 'any',
      });
    }
  }
  return out;
}

function bodyProbes(route: LiveRoute, base: Probe): Probe[] {
  const out: Probe[] = [];
  const accepted = route.meta.bodyFormats.map((f) =>
    f === 'codec' ? 'application/x-codec' : `application/${f}`,
  );
  for (const ct of CONTENT_TYPES) {
    if (accepted.includes(ct)) continue;
    // A charset parameter means nothing to application/json (RFC 8259 §11): accepting it is fine.
    const lenient = accepted.includes(ct.split(';')[0]!);
    const expect: Expectation = lenient ? 'any' : '4xx';
    out.push({
      ...base,
      label: `content-type ${ct}`,
      headers: { ...base.headers, 'content-type': ct },
      expect,
    });
  }
  const json = route.meta.bodyFormats.includes('json');
  const codec = route.meta.bodyFormats.includes('codec');
  const ct = json ? 'application/json' : 'application/x-codec';
  const noCt = { ...base.headers };
  delete noCt['content-type'];
  out.push({ ...base, label: 'body without content-type', headers: noCt, body: utf8('{}'), expect: '4xx' });
  if (json) {
    for (const text of BAD_JSON) {
      const label = `json ${JSON.stringify(text.slice(0, 30))}${text.length > 30 ? `…(${text.length})` : ''}`;
      out.push({
        ...base,
        label,
        headers: { ...base.headers, 'content-type': ct },
        body: utf8(text),
        expect: 'any',
      });
    }
  }
  if (codec && base.body !== undefined) out.push(...codecProbes(base, base.body));
  return out;
}

function codecProbes(base: Probe, frame: Uint8Array): Probe[] {
  const out: Probe[] = [];
  const add = (label: string, body: Uint8Array) => out.push({ ...base, label, body, expect: '4xx' });
  const rng = new Rng(seededRandom(frame.length));
  for (const n of [0, 1, 4, 21, 22, 23, 64, 1000, 60_000]) add(`random ${n} bytes`, rng.bytes(n));
  for (const cut of [1, 4, 5, 6, 21, 22, frame.length >> 1, frame.length - 1])
    add(`truncated at ${cut}`, frame.slice(0, cut));
  const grow = (extra: Uint8Array) => Uint8Array.from([...frame, ...extra]);
  add('extended by 1 byte', grow(Uint8Array.of(0)));
  add('extended by 100 bytes', grow(rng.bytes(100)));
  for (const [at, v, what] of [
    [4, 2, 'unknown codec version 2'],
    [4, 255, 'unknown codec version 255'],
    [5, 1, 'unknown flag'],
    [6, 0, 'schema hash changed'],
  ] as const) {
    const b = Uint8Array.from(frame);
    b[at] = v === 0 ? b[at]! ^ 0xff : v;
    add(what, b);
  }
  // A one-byte version and the bare payload is a valid body too.
  out.push({
    ...base,
    label: 'bare payload with version byte',
    body: Uint8Array.from([1, ...frame.slice(22)]),
    expect: 'any',
  });
  add('bare payload with version 9', Uint8Array.from([9, ...frame.slice(22)]));
  add('all zero', new Uint8Array(frame.length));
  add('all 0xff', new Uint8Array(frame.length).fill(0xff));
  return out;
}

/** The JSON body with one field set to a value of another type (or the whole body replaced). */
function mutateJson(body: Uint8Array, rng: Rng): Uint8Array | undefined {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(body));
  } catch {
    return undefined;
  }
  const replacement = rng.pick(JSON_VALUES);
  if (typeof value !== 'object' || value === null || Array.isArray(value) || rng.next() < 0.1)
    value = replacement;
  else {
    const keys = Object.keys(value);
    const key = keys.length > 0 && rng.next() < 0.8 ? rng.pick(keys) : rng.token(8);
    if (rng.next() < 0.15) delete (value as Record<string, unknown>)[key];
    else (value as Record<string, unknown>)[key] = replacement;
  }
  return new TextEncoder().encode(JSON.stringify(value));
}

/** One seeded mutation of `base`: one to three random edits of path, query, headers, body or method. */
export function mutate(base: Probe, rng: Rng, i: number): Probe {
  const p: Probe = { ...base, headers: { ...base.headers }, label: `mutation ${i}`, expect: 'any' };
  const edits: string[] = [];
  for (let n = rng.int(3) + 1; n > 0; n--) {
    const kind = rng.int(8);
    edits.push(String(kind));
    if (kind === 0) {
      const segments = p.path.split('?')[0]!.split('/');
      segments[rng.int(segments.length - 1) + 1] = rng.token(12);
      p.path = segments.join('/') + (p.path.includes('?') ? p.path.slice(p.path.indexOf('?')) : '');
    } else if (kind === 1) {
      const key = rng.next() < 0.7 ? rng.pick(QUERY_KEYS) : rng.token(6);
      const value = rng.next() < 0.5 ? rng.pick(JUNK_VALUES) : rng.token(20);
      // Mostly replace the parameter; sometimes repeat it (an array where a string is expected).
      p.path =
        rng.next() < 0.8
          ? withQuery(p.path, `${key}=${value}`)
          : `${p.path}${p.path.includes('?') ? '&' : '?'}${key}=${value}`;
    } else if (kind === 2) {
      const [name, values] = rng.pick(HEADER_POOL);
      p.headers[name] = rng.pick(values);
    } else if (kind === 3) {
      p.body = rng.bytes(rng.int(2_000));
    } else if (kind === 4 && p.body !== undefined && p.body.length > 0) {
      const b = Uint8Array.from(p.body);
      for (let k = rng.int(4) + 1; k > 0; k--) {
        const at = rng.int(b.length);
        b[at] = b[at]! ^ (1 << rng.int(8));
      }
      p.body = b;
    } else if (kind === 5 && p.body !== undefined) {
      p.body =
        rng.next() < 0.5
          ? p.body.slice(0, rng.int(p.body.length))
          : Uint8Array.from([...p.body, ...rng.bytes(rng.int(50) + 1)]);
    } else if (kind === 6) {
      p.method = rng.pick(['GET', 'POST', 'PUT', 'DELETE', 'PATCH']);
    } else if (kind === 7 && p.body !== undefined) {
      p.body = mutateJson(p.body, rng) ?? p.body;
    }
  }
  p.label = `mutation ${i} [${edits.join(',')}]`;
  p.sign = rng.next() < 0.7;
  return p;
}

/** An answer as the fuzzing test reads it. */
export interface Answer {
  status: number;
  contentType: string;
  body: Buffer;
}

export function errorBodyOf(a: Answer): unknown {
  if (a.contentType.startsWith('application/x-codec')) {
    const d = decodeFrame(errorRegistry, ErrorBodyCodec, new Uint8Array(a.body), DECODE_LIMITS);
    return d.ok ? d.value : undefined;
  }
  if (!a.contentType.startsWith('application/json')) return undefined;
  try {
    return JSON.parse(a.body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** Why `a` breaks the pass criteria for a probe expecting `expect`, or undefined when it is fine. */
export function problemOf(
  a: Answer,
  expect: Expectation,
  registry: Readonly<Record<string, { status: number }>>,
  documented: Map<string, number>,
): string | undefined {
  if (a.status >= 500) return `${a.status}: ${a.body.toString('utf8').slice(0, 200)}`;
  const ok = a.status >= 200 && a.status < 300;
  if (!ok && (a.status < 400 || a.status >= 500)) return `status ${a.status}`;
  if (ok) return expect === 'any' ? undefined : `expected a 4xx, got ${a.status}`;
  const body = errorBodyOf(a) as { code?: unknown; message?: unknown; details?: unknown } | undefined;
  if (body === undefined) return `${a.status} without an error body (${a.contentType})`;
  const keys = Object.keys(body).sort().join(',');
  if (keys !== 'code,details,message') return `error body keys ${keys}`;
  const { code, message, details } = body;
  if (typeof code !== 'string' || typeof message !== 'string') return 'code/message not strings';
  if (typeof details !== 'object' || details === null || Array.isArray(details))
    return 'details not an object';
  if (registry[code]?.status !== a.status) return `${a.status} ${code}: not this status in the registry`;
  if (documented.get(code) !== a.status) return `${a.status} ${code}: not in docs/errors.md with this status`;
  if (typeof expect === 'object' && (expect.status !== a.status || expect.code !== code))
    return `expected ${expect.status} ${expect.code}, got ${a.status} ${code}`;
  return undefined;
}

/** Sends `body` to `path` over a fresh connection, with Content-Length or chunked, and reads the answer. */
export function sendOversized(
  url: string,
  path: string,
  headers: Record<string, string>,
  body: Uint8Array,
  chunked: boolean,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const h = {
      ...headers,
      ...(chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(body.length) }),
    };
    const req = httpRequest(`${url}${path}`, { method: 'POST', headers: h, agent: false }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => {
        text += d.toString('utf8');
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    // Written in slices so that the answer can (and must) come before the whole body was sent.
    let at = 0;
    const pump = () => {
      while (at < body.length && !req.destroyed) {
        const slice = body.subarray(at, at + 64 * 1024);
        at += slice.length;
        if (!req.write(slice)) return void req.once('drain', pump);
      }
      if (!req.destroyed) req.end();
    };
    pump();
  });
}

/** One raw request over a socket; everything the server writes until it closes. */
export function rawExchange(port: number, head: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1');
    let data = '';
    const timer = setTimeout(() => {
      s.destroy();
      reject(new Error(`no close after 5 s: ${data.slice(0, 100)}`));
    }, 5_000);
    s.on('data', (d) => {
      data += d.toString('latin1');
    });
    s.on('error', () => {});
    s.on('close', () => {
      clearTimeout(timer);
      resolve(data);
    });
    s.on('connect', () => s.write(head));
  });
}
