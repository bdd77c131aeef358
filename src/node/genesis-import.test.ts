import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  admin,
  commitAdminBlock,
  commitGenesis,
  GENESIS_TIME_MS,
  MEMORY_CHAIN_ID,
} from '../../test/helpers/memory-chain.js';
import { buildTx } from '../../test/helpers/tx.js';
import { DEFAULT_DECODE_LIMITS } from '../codec/limits.js';
import type { Instruction } from '../model/instructions.js';
import { transactionHash } from '../model/transaction.js';
import { Ledger } from '../pipeline/ledger.js';
import { BlockExecution } from '../state/executor.js';
import { verifyStateProof } from '../state/merkle/proof.js';
import { WorldState } from '../state/world-state.js';
import { StateStore } from '../storage/state-store.js';
import { toHex } from '../util/hex.js';
import { fileLineBatches, fileLines, importGenesisFile, importGenesisState } from './genesis-import.js';
import { lineInstructions, parseImportLine } from './genesis-import-lines.js';

// The size is not what is tested: enough accounts for many import batches, sort runs and blocks with
// the small limits below (bench/genesis-import.ts imports at scale).
const ACCOUNTS = 1_000;
const COIN = 'coin#scale';
const POINTS = 'pts#club';

function account(i: number, domain: string): string {
  return `ed0120${createHash('sha256').update(`import-${i}`).digest('hex').toUpperCase()}@${domain}`;
}

/** Two domains, two definitions, accounts with one, two or no balances. */
function genesisLines(): string[] {
  const lines = [
    JSON.stringify({ domain: 'scale' }),
    JSON.stringify({ domain: 'club' }),
    JSON.stringify({ definition: COIN, scale: 0 }),
    JSON.stringify({ definition: POINTS, scale: 2 }),
    '',
  ];
  for (let i = 0; i < ACCOUNTS; i++) {
    const balances: Record<string, string> = {};
    if (i % 10 !== 9) balances[COIN] = String(((i * 7919) % 1_000_000) + 1);
    if (i % 3 === 0) balances[POINTS] = `${i}.5`;
    if (i === 0) balances[POINTS] = '0.25';
    lines.push(JSON.stringify({ account: account(i, i % 4 === 0 ? 'club' : 'scale'), balances }));
  }
  return lines;
}

function ledgerOptions(dir: string) {
  return {
    dir,
    chainId: MEMORY_CHAIN_ID,
    decodeLimits: DEFAULT_DECODE_LIMITS,
    fsync: false,
    segmentBytesMax: 1 << 20,
    lmdbMapBytes: 64 << 20,
    stateRowCacheRows: 1_000,
  };
}

const lines = genesisLines();
const instructions = lines.flatMap((t, i) => {
  const l = parseImportLine(t, i + 1);
  return l === undefined ? [] : lineInstructions(l);
});
/** A block after the import on both chains: a transfer, a mint, a new account in an imported domain. */
const LATER: Instruction[] = [
  {
    kind: 'TransferAsset',
    source: `${COIN}#${account(1, 'scale')}`,
    destination: account(2, 'scale'),
    amount: { mantissa: 1n, scale: 0 },
  },
  { kind: 'MintAsset', asset: `${POINTS}#${account(0, 'club')}`, amount: { mantissa: 75n, scale: 2 } },
  { kind: 'RegisterAccount', id: account(ACCOUNTS, 'scale'), metadata: new Map() },
];

describe('bulk genesis import', () => {
  let root: string;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'torana-genesis-import-'));
  });
  after(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('gives the rows and state root of executing the same lines as genesis instructions', async () => {
    const ctx = { height: 1, blockTimeMs: GENESIS_TIME_MS, chainId: MEMORY_CHAIN_ID, genesis: true };
    const executed = WorldState.fromEntries([]);
    const exec = new BlockExecution(executed, ctx);
    const tx = buildTx(admin, instructions, { chainId: MEMORY_CHAIN_ID, creationTimeMs: GENESIS_TIME_MS });
    assert.equal(exec.apply(tx, transactionHash(tx)).result.kind, 'Committed');
    exec.commit();
    const dir = join(root, 'alone');
    const store = await StateStore.open(dir, { fsync: false });
    let stateRoot: string;
    try {
      // Small batches, sort runs and spool buffers: rows merged from many runs, tree nodes read back
      // from many segments of each depth, appended over many transactions.
      const report = await importGenesisState(store, lines, {
        authority: admin.id,
        batchWrites: 500,
        runBytes: 8 << 10,
        spoolBytes: 256,
      });
      assert.equal(report.accounts, ACCOUNTS);
      assert.equal(report.domains, 2);
      assert.equal(report.definitions, 2);
      assert.equal(report.rows, 2 + 2 + ACCOUNTS + report.assets);
      // Many batches of 500 writes: the rows alone fill more than four.
      assert.ok(report.rows > 4 * 500, `${report.rows} rows`);
      stateRoot = report.stateRoot;
      // Nothing of the scratch range is left: only rows, index entries, counts and the tree.
      assert.equal([...store.entries(Uint8Array.of(0xfa, 0x62))].length, 0);
      // Row for row what execution wrote, but the genesis block's own record (the meta row, tag 0x0c).
      const rows = new Map<string, string>();
      for (let tag = 0x01; tag < 0xf9; tag++)
        for (const e of store.entries(Uint8Array.of(tag))) rows.set(toHex(e.key), toHex(e.value));
      const want = new Map([...executed.entries()].map((e) => [toHex(e.key), toHex(e.value)]));
      assert.equal(want.get('0c') !== undefined && rows.get('0c') === undefined, true);
      want.delete('0c');
      assert.deepEqual(rows, want);
    } finally {
      await store.close();
    }
    // The imported state under a genesis block of no instructions: the root execution gave.
    const { ledger } = await Ledger.open(ledgerOptions(dir));
    try {
      assert.equal(toHex(ledger.state.stateRoot()), stateRoot);
      const next = new BlockExecution(ledger.state, ctx);
      const none = buildTx(admin, [], { chainId: MEMORY_CHAIN_ID, creationTimeMs: GENESIS_TIME_MS });
      assert.equal(next.apply(none, transactionHash(none)).result.kind, 'Committed');
      next.commit();
      assert.equal(toHex(ledger.state.stateRoot()), toHex(executed.stateRoot()));
      assert.equal(toHex(ledger.state.legacyStateRoot()), toHex(executed.legacyStateRoot()));
    } finally {
      await ledger.close();
    }
  });

  it('leaves a node directory whose chain matches one that executed the lines as a block', async () => {
    // Executed: genesis, then the lines' instructions in blocks of 250 accounts' worth, then LATER.
    const { ledger: normal } = await Ledger.open(ledgerOptions(join(root, 'normal')));
    await commitGenesis(normal);
    for (let i = 0; i < instructions.length; i += 500)
      await commitAdminBlock(normal, instructions.slice(i, i + 500));
    // Imported: the same lines from a file before block 1, then genesis.
    const file = join(root, 'accounts.ndjson');
    await writeFile(file, `${lines.join('\n')}\n`);
    const node = join(root, 'node');
    const report = await importGenesisFile(node, file, { authority: admin.id, fsync: false });
    assert.equal(report.accounts, ACCOUNTS);
    const { ledger: imported } = await Ledger.open(ledgerOptions(join(node, 'data')));
    try {
      assert.equal(imported.height(), 0);
      assert.equal(toHex(imported.state.stateRoot()), report.stateRoot);
      // The holder counts the import wrote, read from the store (no holder listed).
      assert.ok(imported.state.onDisk);
      for (const d of [COIN, POINTS]) {
        const expected = lines.filter((l) => l.includes(`"${d}"`) && l.includes('"account"')).length;
        assert.ok(expected > 0);
        assert.equal(imported.state.holderCount(d), expected, d);
      }
      await commitGenesis(imported);
      for (const [n, i] of [
        [normal, normal.state],
        [imported, imported.state],
      ] as const)
        assert.ok(n.height() >= 1 && i.accountCount() === ACCOUNTS + 1);
      assert.equal(toHex(imported.state.stateRoot()), toHex(normal.state.stateRoot()));
      assert.equal(toHex(imported.state.legacyStateRoot()), toHex(normal.state.legacyStateRoot()));
      assert.deepEqual(imported.state.holdersOfDefinition(POINTS), normal.state.holdersOfDefinition(POINTS));
      assert.deepEqual(imported.state.assetDefinition(COIN), normal.state.assetDefinition(COIN));
      const rootNow = imported.state.stateRoot();
      for (const i of [0, 1, 777, ACCOUNTS - 1]) {
        const id = account(i, i % 4 === 0 ? 'club' : 'scale');
        const key = imported.state.tables.account.key(id);
        const value = imported.state.tables.account.encodeValue(imported.state.account(id)!);
        const proof = imported.state.tree.prove(key);
        assert.deepEqual(proof, normal.state.tree.prove(key));
        assert.ok(verifyStateProof(rootNow, key, value, proof));
      }
      // Blocks after the import update the bulk-built tree, rows, indexes and counts like any other.
      await commitAdminBlock(normal, LATER);
      await commitAdminBlock(imported, LATER);
      assert.equal(toHex(imported.state.stateRoot()), toHex(normal.state.stateRoot()));
      assert.equal(imported.state.accountCount(), normal.state.accountCount());
      assert.equal(
        imported.state.holdersOfDefinition(COIN).length,
        normal.state.holdersOfDefinition(COIN).length,
      );
      await imported.flushState();
    } finally {
      await imported.close();
      await normal.close();
    }
    // Restarted: the stored state opens at its height with the same root.
    const { ledger: again } = await Ledger.open(ledgerOptions(join(node, 'data')));
    try {
      assert.equal(again.height(), 2);
      assert.equal(again.state.accountCount(), ACCOUNTS + 2);
    } finally {
      await again.close();
    }
    // The bookkeeping beside the rows (index entries, the holders ordered by balance, counts, the
    // accumulator) is entry for entry what execution kept.
    const bookkeeping = async (data: string) => {
      const store = await StateStore.open(data, { fsync: false });
      try {
        return new Map([...store.entries(Uint8Array.of(0xf9))].map((e) => [toHex(e.key), toHex(e.value)]));
      } finally {
        await store.close();
      }
    };
    const want = await bookkeeping(join(root, 'normal'));
    const got = await bookkeeping(join(node, 'data'));
    assert.ok(want.size > ACCOUNTS * 3, `${want.size} entries`);
    assert.deepEqual(got, want);
  });

  it('refuses a bad line with its number and why, and a store that holds a state', async () => {
    const head = lines.slice(0, 4);
    const acct = account(0, 'scale');
    const cases: [string[], RegExp][] = [
      [[...head, '{"account": '], /^line 5: not JSON/],
      [[...head, '[1]'], /^line 5: expected a JSON object/],
      [[...head, '{"acount": "x"}'], /^line 5: expected a "domain", "definition" or "account" field/],
      [[...head, JSON.stringify({ domain: 'x', owner: 'y' })], /^line 5: unknown field "owner"/],
      [
        [...head, JSON.stringify({ account: account(1, 'nowhere') })],
        /^line 5: domain nowhere is not declared/,
      ],
      [
        [...head, JSON.stringify({ account: 'alice@scale' })],
        /^line 5: account id "alice@scale" is not canonical/,
      ],
      [
        [...head, '', JSON.stringify({ account: acct }), JSON.stringify({ account: acct })],
        /^line 7: account .* twice/,
      ],
      // Found once the rows are sorted, whatever the balances: the first line that repeats one is named.
      [
        [
          ...head,
          JSON.stringify({ account: account(3, 'scale'), balances: { [COIN]: '5' } }),
          JSON.stringify({ account: acct, balances: { [COIN]: '2' } }),
          JSON.stringify({ account: account(3, 'scale') }),
          JSON.stringify({ account: acct, balances: { [COIN]: '7' } }),
          JSON.stringify({ account: account(3, 'scale') }),
        ],
        /^line 7: account ed0120\w+@scale is listed twice/,
      ],
      [
        [...head, JSON.stringify({ account: acct, balances: { [COIN]: '0' } })],
        /^line 5: .*greater than zero/,
      ],
      [
        [...head, JSON.stringify({ account: acct, balances: { [COIN]: '1.5' } })],
        /^line 5: .*fraction digits/,
      ],
      [
        [...head, JSON.stringify({ account: acct, balances: { [COIN]: 12 } })],
        /^line 5: balance of coin#scale must be a decimal string/,
      ],
      [
        [...head, JSON.stringify({ account: acct, balances: { 'gold#scale': '1' } })],
        /^line 5: asset definition gold#scale is not declared/,
      ],
      [[JSON.stringify({ definition: COIN })], /^line 1: domain scale is not declared/],
      [[...head, JSON.stringify({ domain: 'club' })], /^line 5: domain club is declared twice/],
    ];
    let n = 0;
    for (const [input, message] of cases) {
      const store = await StateStore.open(join(root, `bad-${n++}`), { fsync: false });
      try {
        await assert.rejects(
          importGenesisState(store, input, { authority: admin.id, runBytes: 512 }),
          (e: Error & { code?: string }) => {
            assert.equal(e.code, 'genesis_import_invalid');
            assert.match(e.message, message);
            return true;
          },
        );
      } finally {
        await store.close();
      }
    }
    // A store holding a state is never imported into again.
    const done = await StateStore.open(join(root, 'done'), { fsync: false });
    try {
      await importGenesisState(done, head, { authority: admin.id });
      await assert.rejects(importGenesisState(done, head, { authority: admin.id }), {
        code: 'genesis_import_not_empty',
      });
    } finally {
      await done.close();
    }
    await assert.rejects(
      importGenesisFile(join(root, 'node'), join(root, 'accounts.ndjson'), { authority: admin.id }),
      {
        code: 'genesis_import_not_empty',
      },
    );
    // A file refused part way leaves the node directory without data, ready for a corrected file.
    const bad = join(root, 'bad.ndjson');
    await writeFile(bad, `${lines.slice(0, 750).join('\n')}\n{"account": "alice@scale"}\n`);
    await assert.rejects(importGenesisFile(join(root, 'fresh'), bad, { authority: admin.id, fsync: false }), {
      code: 'genesis_import_invalid',
      message: /^line 751: /,
    });
    await assert.rejects(stat(join(root, 'fresh', 'data')), { code: 'ENOENT' });
    // Lines are streamed from a file as written, empty ones included.
    const seen = [];
    for await (const l of fileLines(join(root, 'accounts.ndjson'))) seen.push(l);
    assert.deepEqual(seen, lines);
    // …and handed to the import a chunk of the file's lines at a time, not one step per line.
    const batches: (readonly string[])[] = [];
    for await (const b of fileLineBatches(join(root, 'accounts.ndjson'))) batches.push(b.lines);
    assert.deepEqual(batches.flat(), lines);
    assert.ok(batches.length < lines.length / 100, `${batches.length} steps for ${lines.length} lines`);
  });
});
