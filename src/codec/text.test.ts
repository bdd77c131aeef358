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
import { EncodingMemo, MEMO_PAUSE_MAX, MEMO_PAUSE_MIN, MEMO_WINDOW, textType } from './text.js';
import { Writer } from './writer.js';

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

  it('the encoding memo pauses itself on a stream of new texts and comes back when texts recur', () => {
    const memo = new EncodingMemo();
    const w = new Writer(64);
    /** One encoding as textType makes it: look up, else write and remember. Returns true on a hit. */
    const use = (text: string): boolean => {
      if (!memo.active()) return false;
      w.pos = 0;
      if (memo.write(w, text)) return true;
      w.string(text);
      memo.remember(text, w.buf, 0, w.pos);
      return false;
    };
    let fresh = 0;
    // A window of new texts only: the memo pauses and forgets.
    for (let i = 0; i < MEMO_WINDOW; i++) use(`new ${fresh++}`);
    assert.equal(memo.size, 0);
    assert.equal(memo.active(), false);
    // Paused for MEMO_PAUSE_MIN encodings (one was counted just now), each failed window doubling it.
    let pause = MEMO_PAUSE_MIN;
    for (let trial = 0; trial < 8; trial++) {
      let skipped = trial === 0 ? 1 : 0;
      while (!memo.active()) skipped++;
      assert.equal(skipped, pause, `pause after failed window ${trial}`);
      // active() let this encoding through: the rest of a trial window, all misses.
      w.pos = 0;
      assert.equal(memo.write(w, `new ${fresh++}`), false);
      for (let i = 1; i < MEMO_WINDOW; i++) use(`new ${fresh++}`);
      pause = Math.min(MEMO_PAUSE_MAX, 2 * pause);
    }
    assert.equal(pause, MEMO_PAUSE_MAX);
    // Texts that recur: after the pause the next window hits and the memo stays on.
    while (!memo.active()) {}
    let hits = 0;
    for (let i = 0; i < 4 * MEMO_WINDOW; i++) if (use(`old ${i % 16}`)) hits++;
    assert.equal(hits, 4 * MEMO_WINDOW - 16, 'one miss per text');
    assert.equal(memo.size, 16);
    // A good window reset the pause: the next run of new texts pauses it for MEMO_PAUSE_MIN again.
    for (let i = 0; i < MEMO_WINDOW; i++) use(`new ${fresh++}`);
    let skipped = 0;
    while (!memo.active()) skipped++;
    assert.equal(skipped, MEMO_PAUSE_MIN);
  });

  it('encodings are the same bytes whether the memo is on, paused or trying again', () => {
    const plain = struct('EndpointParts', { host: string(32), port: u16 });
    const reference = (text: string) => {
      const m = /^([a-z]+):([0-9]+)$/.exec(text)!;
      return toHex(encode(plain, { host: m[1]!, port: Number(m[2]) }));
    };
    const host = (i: number) => String.fromCharCode(...[...i.toString(26)].map((d) => 97 + parseInt(d, 26)));
    // Phases: recurring texts (remembered), new texts (the memo pauses, then tries windows again and
    // remembers new texts in the space the first ones used), the first texts again (it comes back),
    // mixed, with malformed ones.
    const texts: string[] = [];
    const recurring = (i: number) => `${host(i % 40)}:${i % 40}`;
    for (let i = 0; i < 2 * MEMO_WINDOW; i++) texts.push(recurring(i));
    for (let i = 0; i < 6 * MEMO_WINDOW + 4 * MEMO_PAUSE_MIN; i++)
      texts.push(`${host(i + 1000)}:${i % 65536}`);
    for (let i = 0; i < 6 * MEMO_WINDOW + MEMO_PAUSE_MAX; i++) texts.push(recurring(i));
    for (let i = 0; i < 4 * MEMO_WINDOW; i++)
      texts.push(i % 3 === 0 ? `${host(i)}:${i}` : `${host(i % 9)}:7`);
    for (const [i, text] of texts.entries()) {
      assert.equal(toHex(encode(Endpoint, text)), reference(text), text);
      if (i % 97 === 0) {
        assert.throws(
          () => encode(Endpoint, `${text}x`),
          (e) => e instanceof CodecError && e.code === 'codec_invalid_value',
        );
      }
    }
  });
});
