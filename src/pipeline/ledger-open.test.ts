// Opening a ledger over a data dir checks that the state store belongs to the block log's chain: the
// block the state store recorded as applied must be the log's block at that height.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { commitGenesis, MEMORY_CHAIN_ID } from '../../test/helpers/memory-chain.js';
import { DEFAULT_DECODE_LIMITS } from '../codec/limits.js';
import { StateStore } from '../storage/state-store.js';
import { toHex } from '../util/hex.js';
import { LEDGER_ERROR_CODES, Ledger, LedgerError } from './ledger.js';

function options(dir: string) {
  return {
    dir,
    chainId: MEMORY_CHAIN_ID,
    decodeLimits: DEFAULT_DECODE_LIMITS,
    fsync: false,
    segmentBytesMax: 1 << 20,
    lmdbMapBytes: 64 << 20,
  };
}

describe('Ledger.open: the state store is checked against the block log', () => {
  it('a normal reopen works; a state store naming another block at its height is ledger_state_chain_mismatch', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'torana-ledger-open-'));
    try {
      const { ledger } = await Ledger.open(options(dir));
      await commitGenesis(ledger);
      await ledger.flushState();
      const logHash = toHex(ledger.tipHash());
      const root = toHex(ledger.state.stateRoot());
      await ledger.close();

      const { ledger: again, report } = await Ledger.open(options(dir));
      assert.equal(report.height, 1);
      assert.equal(report.stateHeight, 1);
      assert.equal(report.replayedBlocks, 0);
      assert.equal(toHex(again.state.stateRoot()), root);
      await again.close();

      // The state store now claims another block at height 1 (another chain's store, or damage).
      const store = await StateStore.open(dir, { fsync: false, mapSizeBytes: 64 << 20 });
      await store.clear();
      const otherHash = new Uint8Array(32).fill(0x5a);
      await store.commit(1, otherHash, []);
      await store.close();

      const err = await Ledger.open(options(dir)).then(
        () => assert.fail('opened over a state store of another chain'),
        (e: unknown) => e,
      );
      assert.ok(err instanceof LedgerError, String(err));
      assert.equal(err.code, 'ledger_state_chain_mismatch');
      assert.match(err.message, /height 1\b/);
      assert.ok(err.message.includes(toHex(otherHash)), err.message);
      assert.ok(err.message.includes(logHash), err.message);
      assert.deepEqual(err.details, {
        height: 1,
        state_block_hash: toHex(otherHash),
        log_block_hash: logHash,
      });
      console.log(`refused: ${err.code}: ${err.message}`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('docs/errors.md "Data on disk" lists exactly the ledger error codes', () => {
    const text = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
    const section = text.split(/^## /m).find((s) => s.startsWith('Data on disk'));
    assert.ok(section !== undefined, 'docs/errors.md has no "Data on disk" section');
    const listed = [...section.matchAll(/^\|\s*`(ledger_[a-z_]+)`\s*\|/gm)].map((m) => m[1]);
    assert.deepEqual(listed.sort(), [...LEDGER_ERROR_CODES].sort());
  });
});

/** The VmFlags of this process's mappings of `file` (/proc/self/smaps; Linux). */
function mappingFlags(file: string): string[][] {
  const out: string[][] = [];
  let inFile = false;
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) inFile = line.endsWith(` ${file}`);
    else if (inFile && line.startsWith('VmFlags:')) out.push(line.slice(8).trim().split(/\s+/));
  }
  return out;
}

/** The byte lengths of this process's mappings of `file` (/proc/self/maps; Linux). */
function mappingLengths(file: string): number[] {
  const out: number[] = [];
  for (const line of readFileSync('/proc/self/maps', 'utf8').split('\n')) {
    const m = /^([0-9a-f]+)-([0-9a-f]+) /.exec(line);
    if (m !== null && line.endsWith(` ${file}`))
      out.push(Number.parseInt(m[2]!, 16) - Number.parseInt(m[1]!, 16));
  }
  return out;
}

describe('Ledger.open: storage.map_chunks', () => {
  it('true maps the state store in chunks of 16 pages; the default maps the whole map at once', async (t) => {
    if (process.platform !== 'linux') return t.skip('reads /proc/self/maps');
    for (const mapChunks of [true, undefined]) {
      const dir = await mkdtemp(join(tmpdir(), 'torana-ledger-mapchunks-'));
      try {
        const { ledger } = await Ledger.open({ ...options(dir), ...(mapChunks ? { mapChunks } : {}) });
        await commitGenesis(ledger);
        await ledger.flushState();
        const lengths = mappingLengths(join(dir, 'state', 'data.mdb'));
        await ledger.close();
        assert.ok(lengths.length > 0, 'the state store is mapped');
        if (mapChunks) {
          // MDB_REMAP_CHUNKS: 16 pages of 4 KiB a chunk (more only for a value spanning several pages).
          assert.ok(
            lengths.every((n) => n < options(dir).lmdbMapBytes),
            lengths.join(' '),
          );
          assert.ok(lengths.includes(16 * 4096), lengths.join(' '));
        } else assert.deepEqual(lengths, [options(dir).lmdbMapBytes]);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }
  });
});

describe('Ledger.open: storage.read_ahead', () => {
  it('false maps the state store for random reads (no read-ahead); the default keeps it', async (t) => {
    if (process.platform !== 'linux') return t.skip('reads /proc/self/smaps');
    for (const readAhead of [false, undefined]) {
      const dir = await mkdtemp(join(tmpdir(), 'torana-ledger-readahead-'));
      try {
        const { ledger } = await Ledger.open({
          ...options(dir),
          ...(readAhead === false ? { readAhead } : {}),
        });
        const maps = mappingFlags(join(dir, 'state', 'data.mdb'));
        await ledger.close();
        assert.ok(maps.length > 0, 'the state store is mapped');
        // `rr` is the kernel's mark of MADV_RANDOM, what LMDB's MDB_NORDAHEAD asks for.
        for (const flags of maps) assert.equal(flags.includes('rr'), readAhead === false, flags.join(' '));
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }
  });
});
