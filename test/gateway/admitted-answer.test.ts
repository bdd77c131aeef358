// A transaction the gateway admitted is answered with its admission result, never with a timeout: a
// request pipelined behind it on the same connection that times out (node's header/request timers) while
// the transaction is still under admission must not make the gateway write `408 request_timeout` on the
// socket, which the client would read as the answer to its transaction.

import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';
import { buildTx, frameTx } from '../helpers/tx.js';

/** Everything the server writes on `socket` until it closes it. */
function readAll(socket: Socket): Promise<string> {
  const chunks: Buffer[] = [];
  socket.on('data', (c: Buffer) => chunks.push(c));
  return new Promise((resolve, reject) => {
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
  });
}

describe('an admitted transaction is answered with its admission result', () => {
  let t: ServedTestNode;
  before(async () => {
    t = await startServedNode({ 'gateway.header_timeout_ms': 100, 'gateway.request_timeout_ms': 100 });
  });
  after(async () => t.stopAll());

  it('answers 202, not 408, when a pipelined request times out while the transaction is admitted', async () => {
    // The test seam: admission waits until node has reported the pipelined request's timeout, so the
    // timeout fires while the handler awaits admission, every run.
    const timedOut = new Promise<void>((resolve) => {
      t.served.app.server.once('clientError', () => resolve());
    });
    const pipeline = t.node.pipeline;
    const submit = pipeline.submit.bind(pipeline);
    let admitted = 0;
    pipeline.submit = async (body, source) => {
      await timedOut;
      const r = await submit(body, source);
      if (r.ok) admitted += 1;
      return r;
    };
    try {
      const tx = buildTx(t.admin, [{ kind: 'Log', level: { kind: 'Info' }, message: 'pipelined' }], {
        chainId: t.chainId,
      });
      const body = Buffer.from(frameTx(tx));
      const socket = connect(Number(new URL(t.url).port), '127.0.0.1');
      const answer = readAll(socket);
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      // The transaction, then the start of a second request whose headers never complete.
      socket.write(
        Buffer.concat([
          Buffer.from(
            `POST /transaction HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/x-codec\r\ncontent-length: ${body.length}\r\n\r\n`,
            'latin1',
          ),
          body,
          Buffer.from('GET /health HTTP/1.1\r\nhost: localhost\r\n', 'latin1'),
        ]),
      );
      const text = await answer;
      const statusLine = text.slice(0, text.indexOf('\r\n'));
      console.log(`first answer on the connection: ${statusLine}`);
      assert.equal(admitted, 1, 'the transaction was admitted');
      assert.equal(statusLine, 'HTTP/1.1 202 Accepted', `the answer to an admitted transaction:\n${text}`);
      assert.ok(text.includes('"tx_hash"'), 'the 202 carries the receipt');
      assert.ok(!text.includes('request_timeout'), 'no timeout answer on the connection');
    } finally {
      pipeline.submit = submit;
    }
  });
});
