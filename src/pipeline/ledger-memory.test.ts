// The ledger over the in-memory stores (Ledger.openWith) behaves as over the disk ones: commit, restart
// by reopening the same media, replay of blocks the state had not recorded, refusal of a state ahead.

import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  admin,
  certify,
  commitGenesis,
  MEMORY_CHAIN_ID,
  newDisk,
  openMemoryLedger,
} from '../../test/helpers/memory-chain.js';
import { buildTx, newAccount } from '../../test/helpers/tx.js';
import { DEFAULT_DECODE_LIMITS } from '../codec/limits.js';
import { transactionHash } from '../model/transaction.js';
import { toHex } from '../util/hex.js';
import { Ledger, LedgerError } from './ledger.js';

const empty = new Map();

async function commitTx(ledger: Ledger, instructions: Parameters<typeof buildTx>[1], nonce: number) {
  const tx = buildTx(admin, instructions, {
    chainId: MEMORY_CHAIN_ID,
    creationTimeMs: 1_700_000_000_500,
    nonce,
  });
  const executed = ledger.execute({
    view: 0,
    creationTimeMs: 1_700_000_001_000 + nonce,
    transactions: [tx],
    hashes: [transactionHash(tx)],
  });
  await ledger.commit(executed, certify(executed.header.height, executed.hash));
  return { tx, executed };
}

describe('Ledger over memory stores', () => {
  it('commits, restarts on the same media, and finds blocks, state and transactions again', async () => {
    const disk = newDisk();
    const { ledger, report } = await openMemoryLedger(disk);
    assert.deepEqual(report, { height: 0, stateHeight: 0, replayedBlocks: 0, truncatedTailBytes: 0 });
    await commitGenesis(ledger);
    const bob = newAccount('system', 21);
    const { tx } = await commitTx(ledger, [{ kind: 'RegisterAccount', id: bob.id, metadata: empty }], 1);
    assert.equal(ledger.height(), 2);
    const root = toHex(ledger.state.stateRoot());
    const tip = toHex(ledger.tipHash());
    await ledger.flushState();
    assert.equal(ledger.stateStoreHeight(), 2);
    await ledger.close();

    const again = await openMemoryLedger(disk);
    assert.equal(again.report.height, 2);
    assert.equal(again.report.replayedBlocks, 0);
    assert.equal(toHex(again.ledger.state.stateRoot()), root);
    assert.equal(toHex(again.ledger.tipHash()), tip);
    assert.ok(again.ledger.state.account(bob.id));
    assert.deepEqual(again.ledger.locate(transactionHash(tx)), { height: 2, index: 0 });
    assert.equal((await again.ledger.block(2))?.transactions.length, 1);
    assert.equal(again.ledger.blockSync(1)?.header.height, 1);
    const history = await again.ledger.accountTransactions(bob.id, 0, 10);
    assert.equal(history.total, 1);
    await again.ledger.close();
  });

  it('replays the blocks a crash kept from the state backend, to the same state root', async () => {
    const disk = newDisk();
    let holdState = false;
    const held: (() => void)[] = [];
    const faults = {
      sync: (kind: string) =>
        holdState && kind === 'state-commit' ? new Promise<void>((r) => held.push(r)) : Promise.resolve(),
    };
    const { ledger } = await openMemoryLedger(disk, faults);
    await commitGenesis(ledger);
    await ledger.flushState();
    holdState = true;
    const carol = newAccount('system', 22);
    await commitTx(ledger, [{ kind: 'RegisterAccount', id: carol.id, metadata: empty }], 2);
    await commitTx(
      ledger,
      [{ kind: 'SetKeyValue', target: { kind: 'Account', id: carol.id }, key: 'k', value: 'v' }],
      3,
    );
    const root = toHex(ledger.state.stateRoot());
    // Power cut: the blocks were durable, the state writes were not.
    disk.state.crash();
    disk.blocks.crash();
    for (const r of held) r();
    await assert.rejects(ledger.flushState());

    const { ledger: again, report } = await openMemoryLedger(disk);
    assert.equal(report.height, 3);
    assert.equal(report.stateHeight, 1);
    assert.equal(report.replayedBlocks, 2);
    assert.equal(toHex(again.state.stateRoot()), root);
    assert.equal(again.state.account(carol.id)?.metadata.get('k'), 'v');
    await again.flushState();
    assert.equal(again.stateStoreHeight(), 3);
  });

  it('a commit waits while the state store is more blocks behind than the limit', async () => {
    const disk = newDisk();
    let holdState = false;
    const held: (() => void)[] = [];
    const faults = {
      sync: (kind: string) =>
        holdState && kind === 'state-commit' ? new Promise<void>((r) => held.push(r)) : Promise.resolve(),
    };
    const { ledger } = await openMemoryLedger(disk, faults, { stateWritesBehindMax: 2 });
    await commitGenesis(ledger);
    await ledger.flushState();
    holdState = true;
    const who = (n: number) => newAccount('system', 40 + n);
    const register = (n: number) => [{ kind: 'RegisterAccount' as const, id: who(n).id, metadata: empty }];
    await commitTx(ledger, register(1), 1);
    await commitTx(ledger, register(2), 2);
    // Two blocks' state writes pending (the first held in the store): the limit, so neither commit waited.
    let third = false;
    const committing = commitTx(ledger, register(3), 3).then(() => {
      third = true;
    });
    for (let i = 0; i < 20 && held.length === 0; i++) await new Promise((r) => setImmediate(r));
    assert.equal(held.length, 1, 'the oldest pending write reached the store');
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    // The block is durable in the log and applied, but its commit has not returned: three writes pending.
    assert.equal(ledger.height(), 4);
    assert.equal(third, false);
    holdState = false;
    held.shift()!();
    await committing;
    assert.equal(third, true);
    await ledger.flushState();
    assert.equal(ledger.stateStoreHeight(), 4);
    await ledger.close();
  });

  it('refuses a state backend ahead of the block store', async () => {
    const disk = newDisk();
    const { ledger } = await openMemoryLedger(disk);
    await commitGenesis(ledger);
    await ledger.flushState();
    disk.blocks.records.length = 0; // the block medium lost everything
    await assert.rejects(
      openMemoryLedger(disk),
      (e) => e instanceof LedgerError && e.code === 'ledger_state_ahead',
    );
  });

  it('a block append the disk refuses fails the commit and changes nothing visible', async () => {
    const disk = newDisk();
    let refuse = false;
    const { ledger } = await openMemoryLedger(disk, {
      failWrite: (kind) => (refuse && kind === 'block-append' ? 'EIO' : undefined),
    });
    await commitGenesis(ledger);
    const root = toHex(ledger.state.stateRoot());
    refuse = true;
    await assert.rejects(commitTx(ledger, [{ kind: 'Log', level: { kind: 'Info' }, message: 'x' }], 4));
    assert.equal(ledger.height(), 1);
    assert.equal(toHex(ledger.state.stateRoot()), root);
  });

  it('the same blocks on disk and in memory: equal bytes, roots, indexes and reopen reports', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'torana-ledger-'));
    try {
      const openDisk = () =>
        Ledger.open({
          dir,
          chainId: MEMORY_CHAIN_ID,
          fsync: false,
          segmentBytesMax: 1 << 20,
          lmdbMapBytes: 1 << 24,
          decodeLimits: DEFAULT_DECODE_LIMITS,
        });
      const memDisk = newDisk();
      const ledgers = [(await openDisk()).ledger, (await openMemoryLedger(memDisk)).ledger];
      const dave = newAccount('system', 23);
      for (const l of ledgers) {
        await commitGenesis(l);
        await commitTx(l, [{ kind: 'RegisterAccount', id: dave.id, metadata: empty }], 5);
        await commitTx(l, [{ kind: 'Log', level: { kind: 'Info' }, message: 'x' }], 6);
      }
      const [disk, mem] = ledgers as [Ledger, Ledger];
      for (let h = 1; h <= 3; h++) assert.deepEqual(await mem.blockBytes(h), await disk.blockBytes(h));
      assert.deepEqual(mem.state.stateRoot(), disk.state.stateRoot());
      assert.deepEqual(
        await mem.accountTransactions(dave.id, 0, 10),
        await disk.accountTransactions(dave.id, 0, 10),
      );
      assert.deepEqual(mem.accountTransactionsSync(admin.id), disk.accountTransactionsSync(admin.id));
      for (const l of ledgers) await l.close();
      const reopened = [await openDisk(), await openMemoryLedger(memDisk)];
      assert.deepEqual(reopened[1]!.report, reopened[0]!.report);
      assert.deepEqual(reopened[1]!.ledger.tipHash(), reopened[0]!.ledger.tipHash());
      for (const r of reopened) await r.ledger.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
