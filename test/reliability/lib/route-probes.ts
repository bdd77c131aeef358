// Request generation for the long route fuzz. Builds on the short test's probes
// (test/helpers/bad-requests.ts: structured hostile probes, one seeded mutation) and adds what a long
// run can afford: stacked mutations, body-aware mutations (codec bodies with the codec fuzzer's
// mutations including length-field inflation, ISO 20022 XML edits, JSON field swaps), requests to
// made-up paths with odd methods, and malformed HTTP sent as raw bytes.

import { type Probe, type Rng, structuredProbes } from '../../helpers/bad-requests.js';
import {
  type BodyContext,
  exampleBody,
  exampleQuery,
  type LiveRoute,
  type Samples,
  validPath,
} from '../../helpers/route-catalog.js';
import { applyXmlEdit, isoSamples } from './iso-target.js';
import { applyMutations, type Mutation } from './mutate.js';

const ODD_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'PROPFIND', 'M-SEARCH'];
const PATH_WORDS = [
  'v1',
  'v2',
  'events',
  'sse',
  'query',
  'status',
  'accounts',
  'iso20022',
  '..',
  '%2e%2e',
  '',
  '*',
];

/** A well-formed request to `route` (ISO 20022 routes get their sample message). */
export function baselineProbe(route: LiveRoute, ctx: BodyContext, s: Samples, nonce: number): Probe {
  const iso = /^\/v1\/iso20022\/(\w+)$/.exec(route.url);
  let body = exampleBody(route, ctx, nonce);
  if (iso !== null && route.meta.bodyFormats.includes('xml')) {
    const sample = isoSamples().find((x) => x.kind === iso[1] && x.text.startsWith('<'));
    if (sample !== undefined)
      body = { contentType: 'application/xml', body: new TextEncoder().encode(sample.text) };
  }
  const query = route.method === 'GET' ? exampleQuery(route, s) : '';
  return {
    label: 'baseline',
    method: route.method,
    path: validPath(route, s) + query,
    headers: body === undefined ? {} : { 'content-type': body.contentType },
    ...(body === undefined ? {} : { body: body.body }),
    expect: 'any',
    sign: true,
  };
}

/** Structured probes per route, built once (some carry large bodies). */
export function structuredCache(s: Samples): (route: LiveRoute, base: Probe) => Probe[] {
  const cache = new Map<string, Probe[]>();
  return (route, base) => {
    const key = `${route.method} ${route.url}`;
    let probes = cache.get(key);
    if (probes === undefined) {
      probes = structuredProbes(route, base, s);
      cache.set(key, probes);
    }
    return probes;
  };
}

function randomMutation(rng: Rng): Mutation {
  const f = () => rng.next();
  switch (rng.int(6)) {
    case 0:
      return { kind: 'flip', at: f(), bit: rng.int(8) };
    case 1:
      return { kind: 'truncate', at: f() };
    case 2:
      return { kind: 'duplicate', at: f(), span: rng.int(64) + 1 };
    case 3:
      return { kind: 'delete', at: f(), span: rng.int(16) + 1 };
    case 4:
      return { kind: 'set', at: f(), byte: rng.pick([0, 0x7f, 0x80, 0xff]) };
    default:
      return { kind: 'inflate', which: f(), by: rng.pick([1, 255, 65_536, 2 ** 31 - 1, 2 ** 53 - 1]) };
  }
}

/** Length prefixes in a body cannot be traced without its codec here: every byte below 0x80 may be one. */
function candidateLengths(b: Uint8Array): number[] {
  const out: number[] = [];
  for (let i = 0; i < b.length; i++) if (b[i]! < 0x80) out.push(i);
  return out;
}

/** A mutation that understands the body's format. */
export function bodyAwareMutation(base: Probe, rng: Rng, i: number): Probe {
  const p: Probe = { ...base, headers: { ...base.headers }, label: `body-aware ${i}`, expect: 'any' };
  const type = base.headers['content-type'] ?? '';
  const body = base.body ?? new Uint8Array();
  if (type.includes('xml')) {
    const text = new TextDecoder().decode(body);
    const edit = rng.pick([
      { kind: 'repeat' as const, at: rng.next(), times: rng.int(300) + 2 },
      { kind: 'nest' as const, at: rng.next(), depth: rng.pick([63, 64, 65, 500]) },
      { kind: 'attribute' as const, at: rng.next(), chars: rng.pick([4096, 4097, 100_000]) },
      {
        kind: 'inject' as const,
        at: rng.next(),
        what: rng.pick(['<!DOCTYPE d [<!ENTITY x "y">]>', '&x;', '\u0000']),
      },
      { kind: 'version' as const, version: rng.pick(['01', '99']) },
    ]);
    p.body = new TextEncoder().encode(applyXmlEdit(text, edit));
  } else {
    const ms = Array.from({ length: rng.int(3) + 1 }, () => randomMutation(rng));
    p.body = applyMutations(body, ms, rng.bytes(rng.int(64)), candidateLengths(body));
  }
  p.label += ` (${type || 'no type'})`;
  return p;
}

/** A request to a path assembled from route words and junk, with an odd method and headers. */
export function randomRequest(routes: readonly LiveRoute[], rng: Rng, i: number): Probe {
  const segments = rng
    .pick(routes)
    .url.split('/')
    .filter((x) => x !== '');
  for (let n = rng.int(3); n > 0; n--)
    segments[rng.int(segments.length + 1)] = rng.next() < 0.5 ? rng.pick(PATH_WORDS) : rng.token(10);
  const method = rng.pick(ODD_METHODS);
  const withBody = method !== 'GET' && rng.next() < 0.6;
  return {
    label: `random ${i}`,
    method,
    path: `/${segments.join('/')}${rng.next() < 0.3 ? `?${rng.token(20)}=${rng.token(20)}` : ''}`,
    headers: withBody
      ? { 'content-type': rng.pick(['application/json', 'application/x-codec', 'application/xml']) }
      : {},
    ...(withBody ? { body: rng.bytes(rng.int(300)) } : {}),
    expect: 'any',
    sign: rng.next() < 0.5,
  };
}

const crlf = (lines: string[]) => `${lines.join('\r\n')}\r\n\r\n`;

/** Malformed HTTP/1.1 the pool cannot produce: bad request lines, smuggling shapes, broken chunking. */
export function rawRequest(rng: Rng, paths: readonly string[]): Uint8Array {
  const path = rng.pick(paths);
  const enc = (s: string) => new TextEncoder().encode(s);
  const kinds: (() => Uint8Array)[] = [
    () => rng.bytes(rng.int(200) + 1),
    () => enc(crlf([`GET ${path} HTTP/9.9`, 'Host: localhost'])),
    () => enc(crlf([`G\u0000T ${path} HTTP/1.1`, 'Host: localhost'])),
    () => enc(crlf([`GET ${path} HTTP/1.1`, 'Host: localhost', 'Bad header line'])),
    () => enc(crlf([`GET ${path} HTTP/1.1`, 'Host: localhost', 'X-A: 1', ' folded continuation'])),
    () =>
      enc(
        crlf([`POST ${path} HTTP/1.1`, 'Host: localhost', 'Content-Length: 5', 'Content-Length: 6']) +
          'hello',
      ),
    () =>
      enc(
        crlf([
          `POST ${path} HTTP/1.1`,
          'Host: localhost',
          'Content-Length: 4',
          'Transfer-Encoding: chunked',
        ]) + '0\r\n\r\n',
      ),
    () =>
      enc(
        crlf([`POST ${path} HTTP/1.1`, 'Host: localhost', 'Transfer-Encoding: chunked']) +
          'zz\r\nab\r\n0\r\n\r\n',
      ),
    () =>
      enc(
        crlf([`POST ${path} HTTP/1.1`, 'Host: localhost', 'Transfer-Encoding: chunked']) +
          'fffffffffffffff\r\nab',
      ),
    () => enc(crlf([`POST ${path} HTTP/1.1`, 'Host: localhost', 'Content-Length: -1'])),
    () => enc(crlf([`POST ${path} HTTP/1.1`, 'Host: localhost', `Content-Length: ${'9'.repeat(30)}`])),
    () => enc(`GET ${path} HTTP/1.1\nHost: x\n\n`),
    () => enc(crlf([`GET http://evil.example${path} HTTP/1.1`, 'Host: localhost'])),
    () => enc(crlf(['CONNECT evil.example:443 HTTP/1.1', 'Host: evil.example:443'])),
    () => enc(crlf([`GET ${path} HTTP/1.1`])),
    () => enc(crlf([`GET ${path}${'/a'.repeat(20_000)} HTTP/1.1`, 'Host: localhost'])),
    () =>
      enc(
        crlf([
          `GET ${path} HTTP/1.1`,
          'Host: localhost',
          'Upgrade: websocket',
          'Connection: Upgrade',
          'Sec-WebSocket-Version: 99',
        ]),
      ),
    () =>
      Uint8Array.from([
        ...enc(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nX: `),
        0xff,
        0xfe,
        0x00,
        ...enc('\r\n\r\n'),
      ]),
    () =>
      enc(
        crlf([
          `POST ${path} HTTP/1.1`,
          'Host: localhost',
          'Content-Length: 3',
          'Content-Encoding: gzip',
          'Content-Type: application/json',
        ]) + '\u001f\u008b\u0008',
      ),
  ];
  return rng.pick(kinds)();
}
