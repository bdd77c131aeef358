// State snapshots end to end on one node's real data directory: create while the node runs, verify
// against the genesis it trusts, restore into a new directory that opens at the snapshot height; and
// every forgery refused with its stable code (docs/errors.md "Snapshots").

import assert from 'node:assert/strict';
import { mkdir, mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { decode, encode } from '../../src/codec/frame.js';
import { BlockCodec, blockHash } from '../../src/model/block.js';
import { TABLE_TAGS } from '../../src/model/tags.js';
import { createBackup, restoreBackup } from '../../src/node/backup.js';
import { nodeFiles } from '../../src/node/files.js';
import { initNodeDir } from '../../src/node/init.js';
import { createSnapshot, STORED_BLOCK_LIMITS } from '../../src/node/snapshot-create.js';
import {
  rowsOf,
  SECTION,
  SNAPSHOT_ERROR_CODES,
  SnapshotError,
  type SnapshotManifest,
  SnapshotReader,
  SnapshotWriter,
} from '../../src/node/snapshot-format.js';
import { restoreSnapshot } from '../../src/node/snapshot-restore.js';
import { loadTrust, type SnapshotTrust, verifySnapshot } from '../../src/node/snapshot-verify.js';
import { Ledger } from '../../src/pipeline/ledger.js';
import { writeBlockLogBase } from '../../src/storage/block-log-base.js';
import { toHex } from '../../src/util/hex.js';
import { account, registerAccounts, startTestNode, type TestNode } from '../helpers/node.js';
import { newAccount } from '../helpers/tx.js';

interface Parts {
  manifest: SnapshotManifest;
  block: Uint8Array;
  counters: Uint8Array;
  rows: { key: Uint8Array; value: Uint8Array }[];
}

async function readParts(file: string): Promise<Parts> {
  const fh = await open(file, 'r');
  try {
    const r = new SnapshotReader(fh, (await fh.stat()).size);
    await r.start();
    const parts: Partial<Parts> = { rows: [] };
    for (let s = await r.next(); s !== undefined; s = await r.next()) {
      if (s.kind === SECTION.manifest) parts.manifest = JSON.parse(new TextDecoder().decode(s.payload));
      else if (s.kind === SECTION.block) parts.block = s.payload;
      else if (s.kind === SECTION.counters) parts.counters = s.payload;
      else if (s.kind === SECTION.rows)
        for (const row of rowsOf(s.payload))
          parts.rows!.push({ key: row.key.slice(), value: row.value.slice() });
    }
    return parts as Parts;
  } finally {
    await fh.close();
  }
}

/** A forger's snapshot: the parts as given, with every checksum recomputed. */
async function writeParts(file: string, p: Parts): Promise<void> {
  const fh = await open(file, 'w');
  try {
    const w = new SnapshotWriter(fh);
    await w.start();
    await w.section(SECTION.manifest, new TextEncoder().encode(JSON.stringify(p.manifest)));
    await w.section(SECTION.block, p.block);
    await w.section(SECTION.counters, p.counters);
    for (const r of p.rows) await w.row(r.key, r.value);
    await w.finish();
  } finally {
    await fh.close();
  }
}

async function refusal(file: string, trust: SnapshotTrust): Promise<string> {
  try {
    await verifySnapshot(file, trust);
  } catch (e) {
    if (e instanceof SnapshotError) return e.code;
    throw e;
  }
  return 'accepted';
}

describe('snapshot error codes', () => {
  it('docs/errors.md "Snapshots" lists exactly the snapshot error codes', async () => {
    const text = await readFile(new URL('../../docs/errors.md', import.meta.url), 'utf8');
    const section = text.split(/^## /m).find((s) => s.startsWith('Snapshots'));
    assert.ok(section !== undefined, 'docs/errors.md has no "Snapshots" section');
    const listed = [...section.matchAll(/^\|\s*`(snapshot_[a-z_]+)`\s*\|/gm)].map((m) => m[1]);
    assert.deepEqual(listed.sort(), [...SNAPSHOT_ERROR_CODES].sort());
  });
});

describe('state snapshots of a node', () => {
  let t: TestNode;
  let tmp: string;
  let file: string;
  let trust: SnapshotTrust;
  let parts: Parts;

  before(async () => {
    t = await startTestNode({ 'log.level': 'silent' });
    tmp = await mkdtemp(join(tmpdir(), 'torana-snap-'));
    for (let i = 0; i < 3; i++) await registerAccounts(t, [newAccount(`snap${i}`, 40 + i)]);
    await t.node.ledger.flushState();
    file = join(tmp, 'a.snap');
    await createSnapshot(t.dir, file, t.chainId);
    trust = await loadTrust(t.dir);
    parts = await readParts(file);
  });

  after(async () => {
    await t.cleanup();
    await rm(tmp, { recursive: true, force: true });
  });

  it('verifies against the genesis of the node, and restores into a directory that opens at its height', async () => {
    const v = await verifySnapshot(file, trust);
    const height = v.manifest.height;
    assert.ok(height >= 4, `height ${height}`);
    assert.equal(v.manifest.block_hash, toHex(blockHash((await t.node.ledger.block(height))!.header)));
    assert.equal(v.rows, parts.rows.length);
    const dir = join(tmp, 'restored');
    await restoreSnapshot(file, dir, trust, { fsync: false });
    for (let open = 0; open < 2; open++) {
      const { ledger, report } = await Ledger.open({
        dir: nodeFiles(dir).data,
        chainId: t.chainId,
        fsync: false,
        segmentBytesMax: 1 << 20,
        lmdbMapBytes: 1 << 26,
        decodeLimits: STORED_BLOCK_LIMITS,
      });
      try {
        assert.equal(report.height, height);
        assert.equal(report.replayedBlocks, 0);
        assert.equal(toHex(ledger.state.stateRoot()), v.manifest.state_root);
        assert.equal((await ledger.block(height))?.header.height, height);
        assert.equal(await ledger.block(height - 1), undefined, 'no block below the snapshot');
        assert.deepEqual(ledger.counters(), t.node.ledger.counters());
        for (let i = 0; i < 3; i++) {
          const id = account(`snap${i}`, newAccount(`snap${i}`, 40 + i).key);
          assert.ok(ledger.state.account(id) !== undefined, `${id} restored`);
        }
      } finally {
        await ledger.close();
      }
    }
    await assert.rejects(restoreSnapshot(file, dir, trust), { code: 'snapshot_target_not_empty' });
    // A backup of the restored directory carries the log's base: its copy opens at the same height.
    const backup = join(tmp, 'backup');
    await createBackup(dir, backup, t.chainId);
    const copy = join(tmp, 'from-backup');
    await restoreBackup(backup, copy);
    const { ledger } = await Ledger.open({
      dir: nodeFiles(copy).data,
      chainId: t.chainId,
      fsync: false,
      segmentBytesMax: 1 << 20,
      lmdbMapBytes: 1 << 26,
      decodeLimits: STORED_BLOCK_LIMITS,
    });
    assert.equal(ledger.height(), height);
    assert.equal(toHex(ledger.state.stateRoot()), v.manifest.state_root);
    await ledger.close();
  });

  it('a restore cut short after the log base is refused at open with ledger_state_behind_base', async () => {
    const data = nodeFiles(join(tmp, 'cut-short')).data;
    await mkdir(join(data, 'blocks'), { recursive: true });
    await writeBlockLogBase(join(data, 'blocks'), { height: 5, prevHash: new Uint8Array(32).fill(7) });
    await assert.rejects(
      Ledger.open({
        dir: data,
        chainId: t.chainId,
        fsync: false,
        segmentBytesMax: 1 << 20,
        lmdbMapBytes: 1 << 26,
        decodeLimits: STORED_BLOCK_LIMITS,
      }),
      { code: 'ledger_state_behind_base' },
    );
  });

  it('refuses forgeries with stable codes, and a failed restore leaves no data directory', async () => {
    const forged = join(tmp, 'forged.snap');
    const victim = parts.rows.findIndex((r) => r.key[0] === TABLE_TAGS.account);
    assert.ok(victim >= 0);
    const cases: [string, (p: Parts) => Parts, string][] = [
      [
        'one account row changed',
        (p) => ({
          ...p,
          rows: p.rows.map((r, i) =>
            i === victim ? { key: r.key, value: Uint8Array.of(...r.value, 0) } : r,
          ),
        }),
        'snapshot_state_root_mismatch',
      ],
      [
        'one row dropped',
        (p) => ({ ...p, rows: p.rows.filter((_, i) => i !== victim) }),
        'snapshot_state_root_mismatch',
      ],
      [
        'a header with another state root',
        (p) => {
          const b = decode(BlockCodec, p.block, STORED_BLOCK_LIMITS);
          assert.ok(b.ok);
          const stateRoot = b.value.header.stateRoot.slice();
          stateRoot[0]! ^= 1;
          const block = { ...b.value, header: { ...b.value.header, stateRoot } };
          return {
            ...p,
            block: encode(BlockCodec, block),
            manifest: {
              ...p.manifest,
              state_root: toHex(stateRoot),
              block_hash: toHex(blockHash(block.header)),
            },
          };
        },
        'snapshot_certificate_invalid',
      ],
      [
        'a certificate with a bad signature',
        (p) => {
          const b = decode(BlockCodec, p.block, STORED_BLOCK_LIMITS);
          assert.ok(b.ok);
          // A flipped bit of the aggregate signature (the header and its hash untouched).
          const signature = b.value.certificate.signature.slice();
          signature[40]! ^= 0x01;
          return {
            ...p,
            block: encode(BlockCodec, { ...b.value, certificate: { ...b.value.certificate, signature } }),
          };
        },
        'snapshot_certificate_invalid',
      ],
      [
        'the manifest of another chain',
        (p) => ({ ...p, manifest: { ...p.manifest, chain_id: 'other' } }),
        'snapshot_chain_mismatch',
      ],
    ];
    for (const [what, forge, code] of cases) {
      await rm(forged, { force: true });
      await writeParts(forged, forge(parts));
      assert.equal(await refusal(forged, trust), code, what);
    }
    // A byte flipped inside the rows, checksums left alone.
    const bytes = new Uint8Array(await readFile(file));
    bytes[bytes.length - 200]! ^= 0x10;
    await writeFile(forged, bytes);
    assert.equal(await refusal(forged, trust), 'snapshot_damaged', 'a flipped byte');
    // A genuine snapshot, but the user trusts another genesis of the same chain id.
    const stranger = join(tmp, 'stranger');
    await initNodeDir({ dir: stranger, overrides: { 'node.chain_id': t.chainId } });
    assert.equal(
      await refusal(file, await loadTrust(stranger)),
      'snapshot_validator_set_untrusted',
      'another genesis',
    );
    // A restore of a forgery fails and removes the directory it made.
    await writeParts(forged, cases[0]![1](parts));
    const dir = join(tmp, 'refused');
    await assert.rejects(restoreSnapshot(forged, dir, trust, { fsync: false }), {
      code: 'snapshot_state_root_mismatch',
    });
    await assert.rejects(readFile(join(nodeFiles(dir).data, 'blocks', 'base.json')), { code: 'ENOENT' });
  });
});
