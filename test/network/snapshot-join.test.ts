// A peer joins from a state snapshot: 3 validators commit transfers; `torana snapshot create` (a real
// CLI process) writes the state of one validator while it runs; `torana snapshot verify`
// checks it against a new observer's own genesis; the observer starts with `--from-snapshot` at the
// snapshot height, block-syncs only the blocks after it, and ends with the validators' state root.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { TestNetwork } from '../helpers/network.js';
import { FAST_CONSENSUS, heightsOf, startLoad, waitUntil } from '../helpers/network-scenario.js';
import { cli } from '../helpers/run-cli.js';

const VALIDATORS = [0, 1, 2];
const OBSERVER = 3;

interface Status {
  blocks: number;
  state_root: string;
}

describe('joining a network from a state snapshot', () => {
  let net: TestNetwork;
  before(async () => {
    net = await TestNetwork.create({ validators: 3, observers: 1, config: FAST_CONSENSUS });
    await net.start(VALIDATORS);
  });
  after(async () => {
    await net?.stop();
  });

  it('an observer restored from a validator snapshot catches up from the snapshot height to the same state', async () => {
    // Transfers run throughout: the snapshot is taken from a validator that keeps committing.
    const load = await startLoad(net, { ratePerSecond: 20, targets: VALIDATORS });
    await waitUntil(
      'a few blocks of transfers',
      120_000,
      async () => Math.min(...(await heightsOf(net, VALIDATORS))) >= 6,
    );
    const file = join(net.dir, 'peer0.snap');
    const created = await cli(['snapshot', 'create', '--dir', net.peer(0).dir, '--out', file, '--json']);
    assert.equal(created.code, 0, created.err);
    const snap = JSON.parse(created.out) as { height: number; rows: number };
    assert.ok(snap.height >= 6 && snap.rows > 10, created.out);

    // The observer checks it against its own genesis, then starts from it (`start --from-snapshot`).
    const observerDir = net.peer(OBSERVER).dir;
    const verified = await cli(['snapshot', 'verify', '--file', file, '--genesis', observerDir, '--json']);
    assert.equal(verified.code, 0, verified.err);
    assert.equal((JSON.parse(verified.out) as { height: number }).height, snap.height);
    net.peer(OBSERVER).startArgs = ['--from-snapshot', file];
    await net.start([OBSERVER]);
    await waitUntil(
      'blocks after the snapshot',
      120_000,
      async () => Math.min(...(await heightsOf(net, VALIDATORS))) >= snap.height + 3,
    );
    await load.stop();
    const tip = Math.max(...(await heightsOf(net, VALIDATORS)));
    assert.ok(tip > snap.height, `the chain grew past the snapshot: ${snap.height} → ${tip}`);
    await waitUntil('every peer at one height', 60_000, async () => {
      const hs = await heightsOf(net);
      return hs.every((h) => h === hs[0]) && hs[0]! >= tip;
    });
    const statuses = await Promise.all(
      [...VALIDATORS, OBSERVER].map((i) => net.peer(i).getJson<Status>('/status')),
    );
    const roots = new Set(statuses.map((s) => s.state_root));
    assert.equal(roots.size, 1, `state roots at the tip: ${JSON.stringify(statuses)}`);
    // Its data directory is in use: a restore into it is refused.
    const again = await cli(['snapshot', 'restore', '--file', file, '--dir', observerDir]);
    assert.equal(again.code, 1);
    assert.match(again.err, /snapshot_target_not_empty/);
    // Synced from the snapshot, not replayed from genesis: the observer holds no block below it.
    const observer = net.peer(OBSERVER);
    const below = await fetch(`${observer.url}/v1/explorer/blocks/${snap.height - 1}`);
    assert.equal(below.status, 404);
    const at = await observer.getJson<{ height: number }>(`/v1/explorer/blocks/${snap.height + 1}`);
    assert.equal(at.height, snap.height + 1);
    process.stdout.write(
      `# snapshot at height ${snap.height} (${snap.rows} rows); observer synced ${statuses[3]!.blocks - snap.height} blocks to ${statuses[3]!.blocks}\n`,
    );
  });
});
