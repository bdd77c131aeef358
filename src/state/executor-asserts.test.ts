// The executor's invariants, each shown with a planted violation: every transaction starts with no undo
// entries left open by an earlier one; an instruction kind without a handler stops the block and leaves
// nothing of its transaction behind; a kept transaction never ran past its weight cap; the diff and root
// are never taken with undo entries open; commit leaves the state at the root the header took.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  admin,
  commitGenesis,
  MEMORY_CHAIN_ID,
  newDisk,
  openMemoryLedger,
} from '../../test/helpers/memory-chain.js';
import { buildTx, newAccount } from '../../test/helpers/tx.js';
import { transactionHash } from '../model/transaction.js';
import { AssertionError } from '../util/assert.js';
import { BlockExecution } from './executor.js';

async function setup() {
  const { ledger } = await openMemoryLedger(newDisk());
  await commitGenesis(ledger);
  const ctx = { height: 2, blockTimeMs: 1_700_000_001_000, chainId: MEMORY_CHAIN_ID, genesis: false };
  const tx = (nonce: number, extra: unknown[] = []) =>
    buildTx(admin, [{ kind: 'Log', level: { kind: 'Info' }, message: `m${nonce}` }, ...extra] as never, {
      chainId: MEMORY_CHAIN_ID,
      creationTimeMs: ctx.blockTimeMs,
      nonce,
    });
  return { ledger, ctx, tx };
}
const isAssertion = (message: RegExp) => (e: unknown) =>
  e instanceof AssertionError && message.test(e.message);
type Journal = { mark(): number; record(e: unknown): void };
const journalOf = (exec: BlockExecution) => (exec as unknown as { view: { journal: Journal } }).view.journal;

describe('BlockExecution.apply: no open undo entries between transactions', () => {
  it('applies normally, and refuses once an undo entry is left open', async () => {
    const { ledger } = await openMemoryLedger(newDisk());
    await commitGenesis(ledger);
    const ctx = { height: 2, blockTimeMs: 1_700_000_001_000, chainId: MEMORY_CHAIN_ID, genesis: false };
    const tx = (nonce: number) =>
      buildTx(admin, [{ kind: 'Log', level: { kind: 'Info' }, message: `m${nonce}` }], {
        chainId: MEMORY_CHAIN_ID,
        creationTimeMs: ctx.blockTimeMs,
        nonce,
      });
    const exec = new BlockExecution(ledger.state, ctx);
    assert.equal(exec.apply(tx(0), transactionHash(tx(0))).result.kind, 'Committed');
    // Planted: an undo entry a buggy handler path forgot to release.
    const journal = (exec as unknown as { view: { journal: { record(e: unknown): void } } }).view.journal;
    journal.record({ view: { restore() {} }, id: 'x', had: false, prev: undefined });
    assert.throws(
      () => exec.apply(tx(1), transactionHash(tx(1))),
      (e: unknown) => e instanceof AssertionError && /undo entries/.test(e.message),
    );
  });
});

describe('BlockExecution: dispatch, weight, balance and commit invariants', () => {
  it('an instruction kind without a handler stops the block and leaves nothing of its transaction', async () => {
    const { ledger, ctx, tx } = await setup();
    const exec = new BlockExecution(ledger.state, ctx);
    const root = exec.stateRoot();
    const metadata = {
      kind: 'SetKeyValue',
      target: { kind: 'Account', id: admin.id },
      key: 'planted',
      value: '1',
    };
    // Planted: a kind the decoder would never produce, after an instruction that wrote a row.
    const good = tx(0, [metadata]);
    const instructions = [...good.payload.instructions, { kind: 'NoSuchInstruction' }] as never;
    const bad = { ...good, payload: { ...good.payload, instructions } };
    assert.throws(() => exec.apply(bad, transactionHash(good)), isAssertion(/no handler for instruction/));
    assert.equal(journalOf(exec).mark(), 0);
    assert.deepEqual(exec.stateRoot(), root);
    assert.equal(exec.changes().length, 0);
  });

  it('a kept transaction whose metered weight is past its cap stops the block', async () => {
    const { ledger, ctx, tx } = await setup();
    const exec = new BlockExecution(ledger.state, ctx);
    assert.equal(exec.apply(tx(0), transactionHash(tx(0))).result.kind, 'Committed');
    // Planted: a meter whose cap the per-instruction refusal cannot see (a NaN compares false).
    (exec as unknown as { newMeter(): unknown }).newMeter = () => ({ used: 30, cap: Number.NaN });
    assert.throws(() => exec.apply(tx(1), transactionHash(tx(1))), isAssertion(/metered weight/));
  });

  it('the root and diff are never taken with undo entries open', async () => {
    const { ledger, ctx, tx } = await setup();
    const exec = new BlockExecution(ledger.state, ctx);
    exec.apply(tx(0), transactionHash(tx(0)));
    journalOf(exec).record({ view: { restore() {} }, id: 'x', had: false, prev: undefined });
    assert.throws(() => exec.stateRoot(), isAssertion(/undo entries open/));
    assert.throws(() => exec.changes(), isAssertion(/undo entries open/));
    assert.throws(() => exec.commit(), isAssertion(/undo entries open/));
  });

  it('a merge that does not leave the state at the header root stops the commit', async () => {
    const { ledger, ctx, tx } = await setup();
    const exec = new BlockExecution(ledger.state, ctx);
    exec.apply(tx(0), transactionHash(tx(0)));
    exec.stateRoot();
    // Planted: a merge that applies the rows but forgets the new root accumulator.
    const state = ledger.state as unknown as {
      mergeWrites(v: number, f: unknown, sum: bigint, tree: unknown): void;
    };
    const merge = state.mergeWrites.bind(state);
    state.mergeWrites = (v, f, _sum, tree) => merge(v, f, 0n, tree);
    assert.throws(() => exec.commit(), isAssertion(/another root accumulator/));
  });

  it('a merge that does not move the state tree to the header root stops the commit', async () => {
    const { ledger, ctx, tx } = await setup();
    const exec = new BlockExecution(ledger.state, ctx);
    exec.apply(tx(0), transactionHash(tx(0)));
    exec.stateRoot();
    // Planted: a merge that applies the rows and the accumulator but not the tree update.
    const state = ledger.state as unknown as {
      mergeWrites(v: number, f: unknown, sum: bigint, tree: { version: number }): void;
      tree: { apply(u: unknown): void };
    };
    state.tree.apply = () => undefined;
    assert.throws(() => exec.commit(), isAssertion(/another root accumulator or tree/));
  });

  it('a diff with two changes to one persisted key stops the root (a planted key scheme)', async () => {
    const { ledger, ctx } = await setup();
    const exec = new BlockExecution(ledger.state, ctx);
    const ids = [newAccount('system', 41).id, newAccount('system', 42).id];
    const register = buildTx(
      admin,
      ids.map((id) => ({ kind: 'RegisterAccount', id, metadata: new Map() })) as never,
      { chainId: MEMORY_CHAIN_ID, creationTimeMs: ctx.blockTimeMs, nonce: 9 },
    );
    assert.equal(exec.apply(register, transactionHash(register)).result.kind, 'Committed');
    assert.equal(exec.changes().length >= 2, true);
    // Planted: the account table's key scheme maps every id to one key.
    const views = (exec as unknown as { view: { t: { account: { base: { key(id: string): unknown } } } } })
      .view.t;
    views.account.base.key = () => new Uint8Array([0x02, 0x00]);
    exec.apply(register, transactionHash(register)); // resets the cached diff (rejected: already registered)
    assert.throws(() => exec.stateRoot(), isAssertion(/two changes to one key/));
  });
});
