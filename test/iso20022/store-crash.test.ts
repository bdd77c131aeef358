// Group commit of the bridge record store (src/modules/iso20022/bridge/README.md "Throughput"): many writes in
// flight share one LMDB transaction and fsync, and each is acknowledged only once its record is on disk.
// A writer process is killed (SIGKILL) while writes are in flight; every record it acknowledged must be
// in the reopened store, with an intact audit chain.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { AUDIT_GENESIS_HASH, verifyChain } from '../../src/modules/iso20022/bridge/audit.js';
import { BridgeStore } from '../../src/modules/iso20022/bridge/store.js';
import { tsEntryArgs } from '../helpers/ts-entry.js';

const WRITER = fileURLToPath(new URL('../fixtures/iso20022/store-writer-child.ts', import.meta.url));
const ACKS_BEFORE_KILL = 300;

/** Runs the writer until it has acknowledged `acks` records, kills it, and returns what it acknowledged. */
function killAfter(dir: string, acks: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...tsEntryArgs(WRITER), dir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const acked: string[] = [];
    let pending = '';
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      err += d;
    });
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      pending += d;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const l of lines) if (l.startsWith('ACK ')) acked.push(l.slice(4));
      if (acked.length >= acks) child.kill('SIGKILL');
    });
    child.once('close', (_code, signal) => {
      if (signal === 'SIGKILL') resolve(acked);
      else reject(new Error(`writer exited before it was killed: ${err}`));
    });
  });
}

describe('bridge store: group commit under a crash', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bridge-crash-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('every record acknowledged before a SIGKILL is in the reopened store, the chain intact', async () => {
    const acked = await killAfter(dir, ACKS_BEFORE_KILL);
    assert.ok(acked.length >= ACKS_BEFORE_KILL);
    const store = await BridgeStore.open(dir, { fsync: true, nowMs: () => 1 });
    try {
      const missing = acked.filter((id) => store.get(id) === undefined);
      assert.deepEqual(missing, [], 'acknowledged records lost');
      const head = store.chainHead();
      assert.ok(head.seq >= acked.length);
      const entries = store.entries(1, head.seq);
      assert.equal(entries.length, head.seq);
      assert.deepEqual(verifyChain(entries, AUDIT_GENESIS_HASH), { ok: true });
    } finally {
      await store.close();
    }
  });
});
