import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as wsModule from 'ws';
import { encodeWsFrame, WS_OPCODE } from './ws-frame.js';

interface FrameReceiver {
  on(event: 'message', fn: (data: Buffer, binary: boolean) => void): void;
  on(event: 'error', fn: (err: Error) => void): void;
  write(bytes: Buffer): void;
}
/** `ws` exports its Receiver, which @types/ws does not declare. */
const { Receiver } = wsModule as unknown as {
  Receiver: new (opts: { isServer: boolean; maxPayload: number }) => FrameReceiver;
};

/** Decodes frames the way a client does (`ws`'s own receiver, which expects unmasked server frames). */
function decode(bytes: Buffer): { data: Buffer; binary: boolean }[] {
  const out: { data: Buffer; binary: boolean }[] = [];
  const receiver = new Receiver({ isServer: false, maxPayload: 1 << 20 });
  receiver.on('message', (data, binary) => out.push({ data, binary }));
  receiver.on('error', (err) => {
    throw err;
  });
  receiver.write(bytes);
  return out;
}

describe('encodeWsFrame', () => {
  it('a client decodes text and binary frames at every length encoding (7, 16 and 64 bits)', () => {
    for (const n of [0, 1, 125, 126, 65_535, 65_536, 70_000]) {
      const payload = Buffer.alloc(n, n % 251);
      const [bin] = decode(encodeWsFrame(WS_OPCODE.binary, payload));
      assert.ok(bin?.binary && bin.data.equals(payload), `binary ${n}`);
      const text = 'é'.repeat(Math.floor(n / 2));
      const [txt] = decode(encodeWsFrame(WS_OPCODE.text, Buffer.from(text)));
      assert.ok(txt !== undefined && !txt.binary && txt.data.toString() === text, `text ${n}`);
    }
  });

  it('concatenated frames are separate messages, in order', () => {
    const frames = Buffer.concat(
      ['a', 'bb', 'ccc'].map((t) => encodeWsFrame(WS_OPCODE.text, Buffer.from(t))),
    );
    assert.deepEqual(
      decode(frames).map((m) => m.data.toString()),
      ['a', 'bb', 'ccc'],
    );
  });
});
