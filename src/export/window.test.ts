import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PublishWindow } from './window.js';

/** A publish whose acknowledgement the test settles by hand. */
function deferred() {
  let resolve!: (v: number) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<number>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('PublishWindow', () => {
  it('holds at most `max` unacknowledged publishes and hands acknowledgements over in sending order', async () => {
    const acks: number[] = [];
    const w = new PublishWindow<number>(2, (a) => acks.push(a));
    const d = [deferred(), deferred(), deferred()];
    await w.admit(() => d[0]!.promise);
    await w.admit(() => d[1]!.promise);
    let third = false;
    const admitted = w.admit(() => {
      third = true;
      return d[2]!.promise;
    });
    await new Promise((r) => setImmediate(r));
    assert.equal(third, false, 'the third waits while two are in flight');
    d[1]!.resolve(1); // acknowledged out of order: still handed over after the first
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(acks, []);
    assert.equal(third, false);
    d[0]!.resolve(0);
    await admitted;
    assert.equal(third, true);
    d[2]!.resolve(2);
    await w.settle();
    assert.deepEqual(acks, [0, 1, 2]);
  });

  it('rethrows the first failure, stops handing over acknowledgements, and leaves none unobserved', async () => {
    const acks: number[] = [];
    const w = new PublishWindow<number>(4, (a) => acks.push(a));
    const first = deferred();
    const second = deferred();
    await w.admit(() => Promise.resolve(0));
    await w.admit(() => first.promise);
    await w.admit(() => second.promise);
    await w.admit(() => Promise.resolve(3));
    second.reject(new Error('second'));
    first.reject(new Error('first'));
    await assert.rejects(w.settle(), /first/);
    assert.deepEqual(acks, [0]);
    assert.equal(w.size, 0);
    await assert.rejects(
      w.admit(() => Promise.resolve(4)),
      /first/,
    );
  });
});
