// Text-form types (docs/codec.md §3.8): a canonical string in TypeScript and JSON, a structure on the wire.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { toHex } from '../util/hex.js';
import { struct } from './compound.js';
import { CodecError } from './errors.js';
import { decode, encode } from './frame.js';
import { assertRejected, decodeOk, lawTests } from './laws.test.js';
import { DEFAULT_DECODE_LIMITS } from './limits.js';
import { string, u16 } from './primitives.js';
import { textType } from './text.js';

/** "<name>:<port>", port printed without leading zeros; names are lower-case letters. */
const Endpoint = textType<{ host: string; port: number }>({
  name: 'Endpoint',
  base: struct('EndpointParts', { host: string(32), port: u16 }),
  format: '<host>:<port>',
  parse: (t) => {
    const m = /^([a-z]+):([0-9]{1,5})$/.exec(t);
    if (m === null || Number(m[2]) > 0xffff) return undefined;
    return { host: m[1]!, port: Number(m[2]) };
  },
  print: (v) => `${v.host}:${v.port}`,
  check: (v) => (/^[a-z]+$/.test(v.host) ? undefined : 'host must be lower-case letters'),
});

const endpointArb = fc
  .tuple(fc.stringMatching(/^[a-z]{1,12}$/), fc.nat(0xffff))
  .map(([host, port]) => `${host}:${port}`);

describe('text-form types (§3.8)', () => {
  lawTests(Endpoint, endpointArb, { numRuns: 100 });

  it('the wire holds the structure, not the text', () => {
    assert.equal(toHex(encode(Endpoint, 'ab:258')), '026162 0201'.replace(' ', ''));
  });

  it('JSON input is canonicalised; malformed text is codec_invalid_json naming the path', () => {
    assert.equal(Endpoint.fromJson('ab:0080', ''), 'ab:80');
    for (const bad of ['AB:1', 'ab', 'ab:99999', 7, null]) {
      assert.throws(
        () => Endpoint.fromJson(bad, '$.peer'),
        (e) => e instanceof CodecError && e.code === 'codec_invalid_json' && e.at === '$.peer',
        String(bad),
      );
    }
  });

  it('encoding malformed text is codec_invalid_value', () => {
    assert.throws(
      () => encode(Endpoint, 'nope'),
      (e) => e instanceof CodecError && e.code === 'codec_invalid_value',
    );
  });

  it('decoded structure that fails the check is codec_invalid_value', () => {
    const bytes = encode(struct('EndpointParts', { host: string(32), port: u16 }), { host: 'A-B', port: 1 });
    assertRejected(decode(Endpoint, bytes, DEFAULT_DECODE_LIMITS), 'codec_invalid_value');
    assert.equal(decodeOk(Endpoint, encode(Endpoint, 'ab:1')), 'ab:1');
  });
});
