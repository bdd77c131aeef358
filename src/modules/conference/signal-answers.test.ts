// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../registry.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildTx, newAccount } from '../../../test/helpers/tx.js';
import type { Block } from '../../model/block.js';
import type { EventEnvelope } from '../../model/events.js';
import type { Instruction } from '../../model/instructions.js';
import { followCommittedAnswers } from './signal-answers.js';
import { SignalBox } from './signal-box.js';

const host = newAccount('wonderland', 1);
const guest = newAccount('wonderland', 2);
const CALL = 'wonderland:tea';
const join = (answer: number): Instruction => ({
  kind: 'JoinConference',
  call: CALL,
  answer: new Uint8Array([answer]),
});

function block(height: number, timeMs: number, txs: Array<[Instruction[], boolean]>): Block {
  return {
    header: { height, creationTimeMs: timeMs },
    transactions: txs.map(([ixs]) => buildTx(guest, ixs)),
    results: txs.map(([, ok]) => (ok ? { kind: 'Committed' } : { kind: 'Rejected', reason: { code: 'x' } })),
  } as unknown as Block;
}

describe('committed answers into the signal box', () => {
  it('reads back recent blocks at start, skips rejected and expired ones, follows applied blocks, drops ended calls', async () => {
    const now = 1_000_000;
    const box = new SignalBox(
      {
        offersPerCallMax: 8,
        answersPerCallMax: 8,
        envelopeBytesMax: 1024,
        ttlMs: 10_000,
        bytesMax: 1 << 20,
        answerBytesMax: 1 << 20,
        hostBytesMax: 1 << 20,
        hostRecordsMax: 100,
      },
      () => now,
    );
    const blocks = new Map<number, Block>([
      [1, block(1, now - 20_000, [[[join(1)], true]])], // expired by now
      [
        2,
        block(2, now - 5_000, [
          [[join(2)], true],
          [[join(3)], false],
        ]),
      ],
      [3, block(3, now - 1_000, [[[join(4)], true]])],
      [4, block(4, now, [[[{ kind: 'EndConference', call: CALL }], true]])],
    ]);
    let tip = 3;
    const listeners: Array<(e: EventEnvelope) => void> = [];
    const errors: unknown[] = [];
    const stop = followCommittedAnswers(
      {
        subscribe: (fn) => {
          listeners.push(fn);
          return () => listeners.splice(0);
        },
      },
      { height: () => tip, block: async (h) => blocks.get(h) },
      {
        call: (id) => (id === CALL ? { host: host.id, status: { kind: 'Active' } } : undefined),
        accountExists: () => true,
        accountName: () => undefined,
      },
      box,
      { backfillBlocks: 3, onError: (e) => errors.push(e) },
    );
    await new Promise((r) => setTimeout(r, 20));
    const got = box.signals(CALL, 0, () => true);
    assert.deepEqual(
      got.map((r) => [r.envelope[0], r.from, r.to, r.height, r.atMs]),
      [
        [2, guest.id, host.id, 2, now - 5_000],
        [4, guest.id, host.id, 3, now - 1_000],
      ],
    );
    assert.match(got[0]!.transactionHash!, /^[0-9a-f]{64}$/);
    tip = 4;
    const applied = (height: number) =>
      ({
        id: height,
        event: { kind: 'Block', height, hash: new Uint8Array(32), status: { kind: 'Applied' } },
      }) as EventEnvelope;
    for (const fn of listeners) fn(applied(3)); // already read back: ignored
    for (const fn of listeners) fn(applied(4));
    await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(
      box.signals(CALL, 0, () => true),
      [],
      'EndConference cleared the call',
    );
    stop();
    assert.deepEqual(errors, []);
  });
});
