// Scenario 1: 4 validators and 1 observer under steady load
// sent to the validators. Every peer ends with the same chain (hash, prev_hash, state root per height);
// every accepted transaction committed anywhere is committed everywhere; the observer serves reads and
// its SSE stream delivers new blocks, and it never signs: it is absent from every roster, so no commit
// certificate can name it. Then a multisig proposal and a repeating trigger run on the same network: every
// peer records the same execution (same state root at every height, same proposal and trigger reads).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Instruction } from '../../src/model/instructions.js';
import { instructions, ToranaClient } from '../../src/sdk/index.js';
import { TestNetwork } from '../helpers/network.js';
import { LoadGenerator } from '../helpers/network-load.js';
import {
  certificates,
  consensusStatus,
  presenceFromBlocks,
  readSse,
  rosters,
  signerPeers,
} from '../helpers/network-observe.js';
import { FAST_CONSENSUS, sleep, waitUntil } from '../helpers/network-scenario.js';
import { checkWave3Agreement } from '../helpers/network-wave3.js';

const VALIDATORS = [0, 1, 2, 3];
const OBSERVER = 4;
const LOAD_MS = 15_000;

describe('steady load on 4 validators and 1 observer', () => {
  let net: TestNetwork;
  before(async () => {
    net = await TestNetwork.create({ validators: 4, observers: 1, config: FAST_CONSENSUS });
    await net.start();
  });
  after(async () => {
    await net?.stop();
  });

  it('keeps one chain, commits every accepted transaction everywhere, and the observer follows', async () => {
    const observer = net.peer(OBSERVER);
    const blocks = await readSse(observer.url, '/v1/events/sse');
    const load = new LoadGenerator({
      urls: net.manifest.peers.map((p) => p.gatewayUrl),
      chainId: net.manifest.chainId,
      admin: await net.admin(),
      targets: VALIDATORS,
      ratePerSecond: 50,
    });
    try {
      await load.setup();
      await registerTriggers(net);
      const startHeight = Math.min(...((await net.heights()) as number[]));
      load.start();
      await sleep(LOAD_MS);
      const report = await load.stop();
      assert.ok(report.accepted >= (LOAD_MS / 1000) * 50 * 0.8, `load: ${JSON.stringify(report)}`);

      // Everything accepted commits (the queue drains), on every peer.
      const hashes = load.accepted.map((a) => a.hash);
      let presence = await presenceFromBlocks(net, hashes);
      await waitUntil('the accepted transactions commit', 20_000, async () => {
        presence = await presenceFromBlocks(net, hashes);
        return presence.notCommitted === 0 && presence.missing.length === 0;
      });
      assert.equal(presence.committed, report.accepted);
      assert.deepEqual(presence.missing, []);
      // The observer answers the per-transaction route too (a sample, one request each).
      for (const a of load.accepted.slice(-20))
        assert.ok(await load.committedOn(OBSERVER, a.hash), `${a.hash} readable on the observer`);

      const heights = (await net.heights()) as number[];
      assert.ok(Math.min(...heights) > startHeight + 3, `the chain grew: ${startHeight} → ${heights}`);
      const compared = await net.assertSameChains();
      assert.ok(compared >= Math.min(...heights));

      // The observer's event stream delivered the blocks committed meanwhile, in height order.
      const seen = blocks.events.filter((e) => e.name === 'block').map((e) => e.data.height as number);
      assert.ok(seen.length >= 3, `block events on the observer: ${seen}`);
      assert.ok(seen.every(Number.isSafeInteger), `block events carry their height: ${seen}`);
      assert.deepEqual(
        seen,
        [...seen].sort((a, b) => a - b),
        'block events arrive in height order',
      );
    } finally {
      blocks.close();
      await load.stop();
    }
    await checkObserverReads(net);
    await checkObserverNeverSigns(net);
    await checkTriggers(net);
  });

  it('multisig and time-trigger executions agree on every peer', async () => {
    await checkWave3Agreement(net);
  });
});

/**
 * Two repeating triggers: one every block, one every second of block time. They run inside
 * block execution on every peer, so assertSameChains (state roots per height) covers their agreement; here
 * each peer also reports runs of both.
 */
async function registerTriggers(net: TestNetwork): Promise<void> {
  const admin = await net.admin();
  const client = new ToranaClient({ url: net.peer(0).url, account: admin.id, signer: admin.key });
  const log: Instruction = { kind: 'Log', level: { kind: 'Info' }, message: 'trigger' };
  const tx = await client.build([
    instructions.registerTrigger('net-every-block', { height: 1 }, [log], { everyBlocks: 1 }),
    instructions.registerTrigger('net-every-second', { timeMs: Date.now() }, [log], { everyMs: 1000 }),
  ]);
  await client.submitAndWait(tx);
}

async function checkTriggers(net: TestNetwork): Promise<void> {
  for (const i of [0, OBSERVER]) {
    for (const id of ['net-every-block', 'net-every-second']) {
      const t = await net.peer(i).getJson<{ runs: number }>(`/v1/triggers/${id}`);
      assert.ok(t.runs >= 3, `peer ${i}: ${id} ran ${t.runs} times`);
    }
  }
}

async function checkObserverReads(net: TestNetwork): Promise<void> {
  const admin = await net.admin();
  const path = `/v1/accounts/${encodeURIComponent(admin.id)}`;
  const [fromObserver, fromValidator] = await Promise.all([
    net.peer(OBSERVER).getJson(path),
    net.peer(0).getJson(path),
  ]);
  assert.deepEqual(fromObserver, fromValidator, 'the observer serves the same account');
  const domains = await net.peer(OBSERVER).getJson<{ items: { id: string }[] }>('/v1/domains?limit=500');
  assert.ok(
    domains.items.some((d) => d.id.startsWith('load-')),
    'the observer lists domains registered under load',
  );
}

async function checkObserverNeverSigns(net: TestNetwork): Promise<void> {
  const observerId = net.manifest.peers[OBSERVER]!.peerId.toLowerCase();
  const validatorIds = VALIDATORS.map((i) => net.manifest.peers[i]!.peerId.toLowerCase()).sort();
  for (const i of [0, OBSERVER]) {
    const roster = await rosters(net.peer(i));
    assert.ok(roster.size >= 1, 'a validator set is reported');
    for (const set of roster.values()) {
      assert.deepEqual(
        set.map((p) => p.toLowerCase()).sort(),
        validatorIds,
        'the roster is the 4 validators',
      );
    }
    const certs = await certificates(net.peer(i));
    let signed = 0;
    for (const c of certs.filter((c) => c.height > 1)) {
      const signers = signerPeers(c, roster).map((p) => p.toLowerCase());
      assert.ok(signers.length >= 3, `height ${c.height}: a quorum of 3 signed (${signers.length})`);
      assert.ok(!signers.includes(observerId), `height ${c.height}: the observer never signs`);
      signed++;
    }
    assert.ok(signed >= 3, `certificates checked on peer ${i}: ${signed}`);
  }
  const status = await consensusStatus(net.peer(OBSERVER));
  assert.equal(status.mode, 'bft');
}
