// Batched admission (`Pipeline.admitMany`): every transaction keeps every admission check, the
// signatures of a batch are verified in one call, each gets its own result in order, and a refused
// one never affects the others.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  admin,
  commitGenesis,
  GENESIS_TIME_MS,
  MEMORY_CHAIN_ID,
  memoryPipeline,
  newDisk,
  openMemoryLedger,
  verifyEd25519,
} from '../../test/helpers/memory-chain.js';
import { buildTx, frameTx, newAccount } from '../../test/helpers/tx.js';
import type { VerifyItem } from '../crypto/verify-batch.js';
import type { Instruction } from '../model/instructions.js';
import type { SubmitResult } from './pipeline.js';

const NOW = GENESIS_TIME_MS + 1_000;
const log = (message: string): Instruction => ({ kind: 'Log', level: { kind: 'Info' }, message });
const good = (n: number) =>
  frameTx(buildTx(admin, [log(`m${n}`)], { chainId: MEMORY_CHAIN_ID, creationTimeMs: NOW }));

function codeOf(r: SubmitResult): string {
  if (r.ok) return 'ok';
  if (r.kind === 'codec') return 'codec';
  if (r.kind === 'rejected') return r.rejection.code;
  return r.code;
}

async function chain(verifyCalls: VerifyItem[][]) {
  const { ledger } = await openMemoryLedger(newDisk());
  await commitGenesis(ledger);
  const pipeline = memoryPipeline(ledger, undefined, {
    queue: { capacity: 6, perAccountMax: 100, expiryMs: 60_000 },
    verifyMany: async (items) => {
      verifyCalls.push(items);
      return Promise.all(items.map((i) => verifyEd25519(i.publicKey, i.message, i.signature)));
    },
  });
  return { ledger, pipeline };
}

describe('pipeline admitMany', () => {
  it('answers each transaction in order, verifies the batch in one call, and a bad one sinks none', async () => {
    const calls: VerifyItem[][] = [];
    const { pipeline } = await chain(calls);
    const signed = buildTx(admin, [log('x')], { chainId: MEMORY_CHAIN_ID, creationTimeMs: NOW });
    const forged = frameTx({ ...signed, signature: signed.signature.map((b, i) => (i === 0 ? b ^ 1 : b)) });
    const stranger = newAccount('nowhere', 3);
    const bodies = [
      good(1),
      frameTx(buildTx(admin, [log('c')], { chainId: 'other', creationTimeMs: NOW })),
      new Uint8Array([1, 2, 3]),
      forged,
      good(2),
      good(1),
      frameTx(buildTx(stranger, [log('s')], { chainId: MEMORY_CHAIN_ID, creationTimeMs: NOW })),
      good(3),
    ];
    const results = await pipeline.admitMany(bodies, 'client-a');
    assert.deepEqual(results.map(codeOf), [
      'ok',
      'chain_id_mismatch',
      'codec',
      'signature_invalid',
      'ok',
      'already_enqueued',
      'authority_not_found',
      'ok',
    ]);
    // One verification call for the six that reached the signature check (not the chain id or codec ones).
    assert.equal(calls.length, 1);
    assert.equal(calls[0]!.length, 6);
    const hashes = results.flatMap((r) => (r.ok ? [r.hashHex] : []));
    assert.equal(new Set(hashes).size, 3);
    assert.equal(pipeline.queue.depth, 3);
    // Depths grow in order: the queue took them in the order given.
    assert.deepEqual(
      results.flatMap((r) => (r.ok ? [r.depth] : [])),
      [1, 2, 3],
    );
  });

  it('reports a full queue per transaction and still answers every item', async () => {
    const { pipeline } = await chain([]);
    const results = await pipeline.admitMany(Array.from({ length: 8 }, (_, i) => good(i)));
    assert.deepEqual(results.map(codeOf), ['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'queue_full', 'queue_full']);
    // A second batch with a duplicate of a queued one: refused as a duplicate, not as a full queue.
    const again = await pipeline.admitMany([good(0)]);
    assert.equal(codeOf(again[0]!), 'already_enqueued');
  });

  it('answers an empty batch with no results and no verification', async () => {
    const calls: VerifyItem[][] = [];
    const { pipeline } = await chain(calls);
    assert.deepEqual(await pipeline.admitMany([]), []);
    assert.equal(calls.length, 0);
  });

  it('without verifyMany, falls back to the single check for each item', async () => {
    const { ledger } = await openMemoryLedger(newDisk());
    await commitGenesis(ledger);
    const pipeline = memoryPipeline(ledger);
    const results = await pipeline.admitMany([good(1), good(2)]);
    assert.deepEqual(results.map(codeOf), ['ok', 'ok']);
  });
});
