import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import {
  STATE_FIXTURE_KEYS,
  stateChangesFor,
  stateHashFor,
} from '../../test/fixtures/storage/chain-fixture.js';
import type { ChildRun } from '../../test/fixtures/storage/crash-harness.js';
import { lastHeight, runChild, seededRandom } from '../../test/fixtures/storage/crash-harness.js';
import { toHex } from '../util/hex.js';
import { StateStore } from './state-store.js';

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'torana-state-crash-'));
  dirs.push(dir);
  return dir;
}
after(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const dec = (b: Uint8Array) => new TextDecoder().decode(b);

/**
 * Reopens the store and checks it holds exactly the state of one height, with that height's hash:
 * every k/NN = "v<h>" and only del/<h> present. Returns that height.
 */
async function verifyConsistent(dir: string, run: ChildRun): Promise<number> {
  const store = await StateStore.open(dir, { fsync: false });
  try {
    const h = store.appliedHeight();
    const printed = lastHeight(run.durable);
    assert.ok(h === printed || h === printed + 1, `applied ${h}, last printed ${printed}`);
    if (h > 0) assert.equal(toHex(store.appliedBlockHash()!), toHex(stateHashFor(h)));
    const values = [...store.entries('k/')].map((e) => dec(e.value));
    assert.deepEqual(
      values,
      new Array(h === 0 ? 0 : STATE_FIXTURE_KEYS).fill(`v${h}`),
      `mixed state at height ${h}`,
    );
    const dels = [...store.entries('del/')].map((e) => dec(e.key));
    assert.deepEqual(dels, h === 0 ? [] : [`del/${h}`]);
    // The store continues from where it stopped.
    await store.commit(h + 1, stateHashFor(h + 1), stateChangesFor(h + 1));
    return h;
  } finally {
    await store.close();
  }
}

function assertKilled(run: ChildRun): void {
  assert.equal(run.signal, 'SIGKILL', `child was not killed (code ${run.code}): ${run.stderr}`);
}

describe('StateStore under crashes', () => {
  const cases: { point: string; expect: (printed: number, applied: number) => void }[] = [
    { point: 'state.before-commit:3', expect: (p, a) => assert.equal(a, p) },
    {
      point: 'state.mid-transaction:3',
      expect: (p, a) => assert.equal(a, p, 'half a transaction must not survive'),
    },
    { point: 'state.after-commit:3', expect: (p, a) => assert.equal(a, p + 1) },
  ];
  for (const { point, expect } of cases) {
    it(`is all-or-nothing when killed at ${point}`, async () => {
      const dir = await tempDir();
      const run = await runChild('state', dir, { failPoint: point, maxHeight: 100 });
      assertKilled(run);
      assert.equal(lastHeight(run.durable), 2);
      expect(lastHeight(run.durable), await verifyConsistent(dir, run));
    });
  }

  it('keeps every announced commit across random kills', async () => {
    const seed = Date.now() % 1_000_000;
    const random = seededRandom(seed);
    const dir = await tempDir();
    for (let round = 0; round < 3; round++) {
      const run = await runChild('state', dir, { killAfterMs: 30 + Math.floor(random() * 150) });
      assertKilled(run);
      assert.ok(run.durable.size > 0, `seed ${seed} round ${round}: child committed nothing`);
      await verifyConsistent(dir, run).catch((e: unknown) => {
        throw new Error(`seed ${seed} round ${round}: ${String(e)}`);
      });
    }
  });
});
