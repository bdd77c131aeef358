import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { type DecodedFrame, encodeFrame, FrameDecoder, FrameType } from './frame.js';
import { decodeHello, encodeHello } from './hello.js';

const frames = (r: ReturnType<FrameDecoder['push']>): DecodedFrame[] => {
  assert.ok(Array.isArray(r), `expected frames, got ${JSON.stringify(r)}`);
  return r;
};

describe('p2p: frames', () => {
  it('encodes length (big-endian, type byte included), type, payload', () => {
    assert.deepEqual([...encodeFrame(FrameType.Message, new Uint8Array([9, 8]))], [0, 0, 0, 3, 2, 9, 8]);
    assert.deepEqual([...encodeFrame(FrameType.Ping, new Uint8Array(0))], [0, 0, 0, 1, 3]);
  });

  it('decodes any chunking of any frame sequence back to the same frames', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ maxLength: 300 }), { maxLength: 8 }),
        fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 16 }),
        (payloads, cuts) => {
          const wire = Buffer.concat(payloads.map((p) => encodeFrame(FrameType.Message, p)));
          const d = new FrameDecoder(1024);
          const out: DecodedFrame[] = [];
          let at = 0;
          let i = 0;
          while (at < wire.length) {
            const n = cuts[i++ % cuts.length]!;
            out.push(...frames(d.push(wire.subarray(at, at + n))));
            at += n;
          }
          assert.deepEqual(
            out.map((f) => [f.type, Buffer.from(f.payload).toString('hex')]),
            payloads.map((p) => [FrameType.Message, Buffer.from(p).toString('hex')]),
          );
          assert.equal(d.buffered, 0);
        },
      ),
    );
  });

  it('never throws on random bytes, and never buffers past the cap plus one chunk', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 200 }), { maxLength: 20 }), (chunks) => {
        const d = new FrameDecoder(64);
        for (const c of chunks) {
          const r = d.push(c);
          if (!Array.isArray(r)) {
            assert.ok(r.fault === 'oversize' || r.fault === 'garbage');
            return;
          }
          for (const f of r) assert.ok(f.payload.length < 64);
          assert.ok(d.buffered <= 64 + 4 + c.length);
        }
      }),
    );
  });

  it('refuses a length above the cap from the header alone, and stays refused', () => {
    const d = new FrameDecoder(10);
    assert.deepEqual(frames(d.push(encodeFrame(FrameType.Message, new Uint8Array(9)))).length, 1);
    const r = d.push(new Uint8Array([0, 0, 0, 11]));
    assert.ok(!Array.isArray(r) && r.fault === 'oversize');
    const again = d.push(encodeFrame(FrameType.Ping, new Uint8Array(0)));
    assert.ok(!Array.isArray(again) && again.fault === 'oversize');
    assert.equal(d.buffered, 0);
  });

  it('refuses a zero length and an unknown type as garbage', () => {
    const zero = new FrameDecoder(10).push(new Uint8Array([0, 0, 0, 0]));
    assert.ok(!Array.isArray(zero) && zero.fault === 'garbage');
    const unknown = new FrameDecoder(10).push(new Uint8Array([0, 0, 0, 1, 0x42]));
    assert.ok(!Array.isArray(unknown) && unknown.fault === 'garbage');
    const huge = new FrameDecoder(10).push(new Uint8Array([0xff, 0xff, 0xff, 0xff]));
    assert.ok(!Array.isArray(huge) && huge.fault === 'oversize');
  });
});

describe('p2p: HELLO', () => {
  it('round-trips and refuses any altered form', () => {
    const h = { version: 1, role: 'observer' as const, networkId: 'torana-dev' };
    const b = encodeHello(h);
    assert.deepEqual(decodeHello(b), h);
    assert.equal(decodeHello(b.subarray(0, b.length - 1)), undefined, 'short');
    assert.equal(decodeHello(Buffer.concat([b, Buffer.from([0])])), undefined, 'long');
    const badMagic = b.slice();
    badMagic[0] = 0;
    assert.equal(decodeHello(badMagic), undefined);
    const badRole = b.slice();
    badRole[5] = 2;
    assert.equal(decodeHello(badRole), undefined);
    const badUtf8 = encodeHello({ ...h, networkId: 'x' });
    badUtf8[7] = 0xff;
    assert.equal(decodeHello(badUtf8), undefined);
    assert.throws(() => encodeHello({ ...h, networkId: 'x'.repeat(256) }), RangeError);
  });
});
