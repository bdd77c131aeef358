// Test helper: a block stream proxy (`GET /block/stream`) in front of a node that flips one bit of the
// commit certificate signature of one block, passing every other block as it is: what an indexer
// following it must refuse (test/indexer/).

import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import { decodeFrame, encodeFrame } from '../../src/codec/frame.js';
import { DEFAULT_DECODE_LIMITS } from '../../src/codec/limits.js';
import { BlockCodec } from '../../src/model/block.js';
import { SCHEMA } from '../../src/model/schema.js';

/** A block stream proxy to the node that flips one bit of the certificate signature of block `height`. */
export async function forgingProxy(
  nodeUrl: string,
  height: number,
): Promise<{ url: string; close(): Promise<void> }> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, path: '/block/stream' });
  await new Promise((r) => wss.once('listening', r));
  wss.on('connection', (client) => {
    let upstream: WebSocket | undefined;
    client.once('message', (first: Buffer) => {
      upstream = new WebSocket(`${nodeUrl.replace(/^http/, 'ws')}/block/stream`);
      upstream.on('open', () => upstream!.send(first));
      upstream.on('message', (data: Buffer) => {
        const d = decodeFrame(SCHEMA, BlockCodec, data, DEFAULT_DECODE_LIMITS);
        assert.ok(d.ok);
        if (d.value.header.height !== height) return client.send(data);
        const sig = d.value.certificate.signature.slice();
        sig[40]! ^= 1;
        client.send(
          encodeFrame(SCHEMA, BlockCodec, {
            ...d.value,
            certificate: { ...d.value.certificate, signature: sig },
          }),
        );
      });
      upstream.on('close', () => client.close());
    });
    client.on('close', () => upstream?.close());
  });
  const port = (wss.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((r) => {
        for (const c of wss.clients) c.terminate();
        wss.close(() => r());
      }),
  };
}
