// The CPU baseline of the throughput figures (Ed25519 verifications per second on all
// cores): the node's own verification pool with one worker per core, kept busy with large batches.

import { availableParallelism } from 'node:os';
import { Ed25519KeyPair } from '../../src/crypto/signer.js';
import { type VerifyItem, VerifyPool } from '../../src/crypto/verify-pool.js';
import { sleep } from './timing.js';

/** Items per verify call, and calls kept in flight per worker, so no core waits for work. */
const ITEMS_PER_CALL = 1024;
const CALLS_PER_WORKER = 2;
const DISTINCT_ITEMS = 256;

function sampleItems(): VerifyItem[] {
  const keys = Array.from({ length: 16 }, () => Ed25519KeyPair.generate());
  return Array.from({ length: DISTINCT_ITEMS }, (_, i) => {
    const key = keys[i % keys.length]!;
    const message = new Uint8Array(32).fill(i);
    return { publicKey: key.publicKey.bytes, message, signature: key.sign(message) };
  });
}

/** Verifications per second on all cores over about `durationMs` (after a short warm-up). */
export async function ed25519VerifyPerSecond(
  durationMs: number,
): Promise<{ perSecond: number; threads: number }> {
  const threads = availableParallelism();
  const pool = new VerifyPool({ threads });
  const distinct = sampleItems();
  const call = Array.from({ length: ITEMS_PER_CALL }, (_, i) => distinct[i % distinct.length]!);
  try {
    await Promise.all(Array.from({ length: threads }, () => pool.verify(call))); // workers up and warm
    let verified = 0;
    let running = true;
    const t0 = performance.now();
    const lane = async () => {
      while (running) {
        const ok = await pool.verify(call);
        if (ok.some((x) => !x)) throw new Error('baseline signature did not verify');
        if (running) verified += ok.length;
      }
    };
    const lanes = Array.from({ length: threads * CALLS_PER_WORKER }, lane);
    await sleep(durationMs);
    running = false;
    const seconds = (performance.now() - t0) / 1000;
    await Promise.all(lanes);
    return { perSecond: verified / seconds, threads };
  } finally {
    await pool.close();
  }
}
