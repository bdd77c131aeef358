// Value pools for the route-fuzzing test (test/gateway/bad-input.test.ts): a seeded generator, and the
// hostile header values, bodies, query strings and signed-query parameters the probes are built from
// (test/helpers/bad-requests.ts). Kept apart so both files stay small.

import type { QueryRequest } from '../../src/model/queries.js';

/** What a probe must get: any 2xx/4xx, any 4xx, or this exact status and code. */
export type Expectation = 'any' | '4xx' | { status: number; code: string };
/** sfc32: a small seeded generator, so every failing mutation replays from the printed seed. */
export function seededRandom(seed: number): () => number {
  let a = 0x9e3779b9;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = seed >>> 0;
  const next = () => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 16; i++) next();
  return next;
}

export class Rng {
  constructor(readonly next: () => number) {}
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = this.int(256);
    return out;
  }
  /** Printable text with some percent-escapes, safe on a request line. */
  token(max: number): string {
    const alphabet = [...'abcXYZ019-_.~!$&()*+,;=:@%'];
    let s = '';
    for (let i = this.int(max) + 1; i > 0; i--) {
      const c = this.pick(alphabet);
      s += c === '%' ? `%${this.int(256).toString(16).padStart(2, '0')}` : c;
    }
    return s;
  }
}

export const utf8 = (text: string) => new TextEncoder().encode(text);
export const deepArray = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
export const deepFilter = (n: number) => `${'{"not":'.repeat(n)}{"exists":"id"}${'}'.repeat(n)}`;

/** Segments malformed on the wire: no route may accept them. The rest of the list is merely odd. */
export const WIRE_MALFORMED = new Set([
  '%',
  '%zz',
  '%E0%A4%A',
  '%C0%AF',
  '%FF%FE',
  '%00',
  'a%00b',
  'x'.repeat(5000),
]);

export const BAD_ACCEPT = [
  'application/x-nothing',
  'text/html',
  'application/json;q=2',
  'application/json;q=abc',
  'application/json;q=0.0001',
  '*/*;q=0',
  'application/json;q=0, application/x-codec;q=0, text/*;q=0',
  ';;;',
  'application',
  '*/json',
  'a'.repeat(5000),
];
export const BAD_VERSION: readonly [string, Expectation][] = [
  ['999', { status: 400, code: 'unsupported_api_version' }],
  ['abc', { status: 400, code: 'invalid_api_version' }],
  ['0', { status: 400, code: 'invalid_api_version' }],
  ['1.0', { status: 400, code: 'invalid_api_version' }],
  ['01', { status: 400, code: 'invalid_api_version' }],
  ['-1', { status: 400, code: 'invalid_api_version' }],
  ['9999999999', { status: 400, code: 'invalid_api_version' }],
];
export const CONTENT_TYPES = [
  'text/plain',
  'application/xml',
  'application/json',
  'application/x-codec',
  'multipart/form-data; boundary=x',
  'application/x-www-form-urlencoded',
  'application/json; charset=utf-16',
  'application/jsonx',
  '*/*',
];
export const BAD_JSON = [
  '',
  '{',
  '{"a":',
  'nul',
  '\u0000',
  '{"a":1}}',
  '[]',
  '"text"',
  '42',
  'null',
  'true',
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  deepArray(50_000),
  `{"filter":${deepFilter(5_000)}}`,
  `{"a":"${'\\u0000'.repeat(1000)}"}`,
  '{"limit":"5"}',
  '{"limit":-1}',
  '{"limit":1e308}',
  '{"limit":1.5}',
  '{"offset":-1}',
  '{"limit":0}',
  '{"filter":"x"}',
  '{"filter":{"zz":[]}}',
  '{"sort":5}',
  '{"sort":"nope:sideways"}',
  '{"evidence_hex":5}',
  '{"evidence_hex":"zz"}',
  '{"abi_version":"2"}',
  '{"name":[],"abi_version":-1}',
  '\ufeff{}',
];
export const BAD_QUERIES = [
  'limit=0',
  'limit=-1',
  'limit=abc',
  'limit=1.5',
  'limit=99999999999999999999',
  'limit=501',
  'limit=',
  'limit=5&limit=6',
  'offset=-1',
  'offset=1e3',
  'page=0',
  'per_page=0',
  'per_page=100000',
  'from=0',
  'from=-5',
  'hash=zz',
  'kind=Nope',
  'last_event_id=-1',
  'last_event_id=abc',
  `filter=${encodeURIComponent('{')}`,
  `filter=${encodeURIComponent('[]')}`,
  `filter=${encodeURIComponent('{"zz":["id",1]}')}`,
  `filter=${encodeURIComponent(deepFilter(40))}`,
  `filter=${'a'.repeat(9_000)}`,
  'sort=bogus',
  'sort=id:sideways',
  'sort=,,,',
  `sort=${'a'.repeat(600)}`,
  'zz=1',
  '%zz=1',
  'a=%zz',
  'a=%00',
  `huge=${'q'.repeat(12_000)}`,
  `huger=${'q'.repeat(20_000)}`,
];

export const JUNK_VALUES = [
  '',
  '0',
  '-1',
  '1e9',
  'NaN',
  'null',
  '{}',
  '[]',
  '%zz',
  '%00',
  'x'.repeat(300),
  '{"not":1}',
];
export const QUERY_KEYS = [
  'limit',
  'offset',
  'filter',
  'sort',
  'page',
  'per_page',
  'from',
  'hash',
  'kind',
  'last_event_id',
];
export const HEADER_POOL: readonly [string, readonly string[]][] = [
  [
    'accept',
    ['application/json', 'application/x-codec', '*/*', 'text/event-stream', ...BAD_ACCEPT.slice(0, 6)],
  ],
  ['content-type', CONTENT_TYPES],
  ['x-ledger-api-version', ['1', '2', 'abc', ' 1', '']],
  ['last-event-id', ['0', '5', 'abc', '-1']],
  ['content-encoding', ['gzip', 'br', 'identity']],
  ['origin', ['https://evil.example', 'null']],
];

export const JSON_VALUES: readonly unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  1e308,
  2 ** 64,
  '',
  'x'.repeat(2_000),
  '%00',
  [],
  [1, 'a'],
  {},
  { and: [] },
  { not: { not: { not: {} } } },
];

const ITERABLE_KINDS = [
  'FindDomains',
  'FindAccounts',
  'FindAssetDefinitions',
  'FindAssets',
  'FindNfts',
  'FindRoles',
  'FindPeers',
  'FindTransactions',
  'FindBlocks',
  'FindUpgrades',
] as const;

/**
 * Correctly signed queries with hostile parameters (they pass the signature check, so they reach the
 * query engine): huge offsets and fetch sizes, zero limits, unknown sort fields, deep or unknown filters.
 */
export function hostileQueryRequests(): QueryRequest[] {
  const params = [
    { offset: Number.MAX_SAFE_INTEGER },
    { offset: 0, fetchSize: 0 },
    { offset: 0, fetchSize: 1_000_000_000 },
    { offset: 0, limit: 0 },
    { offset: 0, limit: Number.MAX_SAFE_INTEGER },
    { offset: 0, sort: 'zz:asc' },
    { offset: 0, sort: 'id:up' },
    { offset: 0, sort: ',,,' },
    { offset: 0, sort: 'metadata.a.b.c.d.e.f:desc' },
    { offset: 0, filter: JSON.parse(deepFilter(30)) },
    { offset: 0, filter: { zz: 1 } },
    { offset: 0, filter: 'text' },
    { offset: 0, filter: { in: ['id', Array.from({ length: 2_000 }, (_, i) => i)] } },
  ];
  const out: QueryRequest[] = [];
  for (const kind of ITERABLE_KINDS)
    for (const p of params) out.push({ kind: 'Start', query: { kind }, params: p } as QueryRequest);
  out.push(
    { kind: 'Singular', query: { kind: 'FindBlockByHeight', height: 0 } },
    { kind: 'Singular', query: { kind: 'FindBlockByHeight', height: Number.MAX_SAFE_INTEGER } },
    { kind: 'Singular', query: { kind: 'FindTransactionByHash', hash: '0'.repeat(64) } },
    { kind: 'Continue', cursor: 'x'.repeat(256) },
    { kind: 'Continue', cursor: '' },
  );
  return out;
}
