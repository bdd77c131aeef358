// An overloaded network, simulated: four BftEngines over real pipelines (memory stores) and real BLS
// votes on a hand-driven clock, where checking a proposal takes longer than the base view timeout (as on
// a machine whose cores are oversubscribed). Without the pacemaker's round floor every height timed out
// view after view until the grown timeout covered the check, and each new leader's fresh block had to be
// checked again; with it, the heights after the first decide in view 0. The first height (no round measured
// yet, as the first full block after a small one) still timed out; a view kept open while its proposal,
// received in time, is being checked (progress-extended views) decides it in view 0 too. The figures are
// simulated time.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  admin,
  commitGenesis,
  ManualClock,
  MEMORY_CHAIN_ID,
  memoryPipeline,
  newDisk,
  openMemoryLedger,
} from '../../../test/helpers/memory-chain.js';
import { buildTx, frameTx } from '../../../test/helpers/tx.js';
import { DEFAULT_DECODE_LIMITS } from '../../codec/limits.js';
import { BlsKeyPair } from '../../crypto/bls.js';
import { publicKeyToText } from '../../crypto/keys.js';
import type { Pipeline } from '../../pipeline/pipeline.js';
import { toHex } from '../../util/hex.js';
import { ValidatorSet } from '../validator-set.js';
import { BlsVoteCrypto } from './bls-vote-crypto.js';
import { BftEngine } from './driver.js';
import type { BftHost, BftTransport } from './ports.js';
import { DEFAULT_PACEMAKER, type SafetyState } from './types.js';

const N = 4;
const keys = Array.from({ length: N }, (_, i) => BlsKeyPair.fromSeed(new Uint8Array(32).fill(90 + i)));
const peers = keys.map((_, i) => `ed0120${toHex(new Uint8Array(32).fill(0x50 + i)).toUpperCase()}`);
const roster = new ValidatorSet(
  peers.map((peer, i) => ({ peer, blsKey: publicKeyToText(keys[i]!.publicKey) })),
);

/** Simulated: one message between peers, and checking one proposed block (the base timeout is 500 ms). */
const MESSAGE_MS = 20;
const CHECK_MS = 1500;
const BASE_MS = 500;
const STEP_MS = 4;

/** The pipeline as the engine's host, with `executeProposed` answering CHECK_MS later on the clock. */
function slowHost(pipeline: Pipeline<ValidatorSet>, clock: ManualClock): BftHost {
  return new Proxy(pipeline, {
    get(target, key) {
      if (key === 'executeProposed')
        return async (bytes: Uint8Array) => {
          const verdict = await target.executeProposed(bytes);
          await new Promise<void>((r) => clock.setTimeout(r, CHECK_MS));
          return verdict;
        };
      const v = Reflect.get(target, key, target);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  }) as unknown as BftHost;
}

async function overloaded(roundFloorMultiplier: number, extendWhileChecking: boolean) {
  const clock = new ManualClock();
  const engines: BftEngine[] = [];
  const pipelines: Pipeline<ValidatorSet>[] = [];
  for (let i = 0; i < N; i++) {
    const { ledger } = await openMemoryLedger(newDisk());
    await commitGenesis(ledger);
    const pipeline = memoryPipeline<ValidatorSet>(ledger, clock, { validatorSetOf: () => roster });
    const deliver = (to: number, bytes: Uint8Array) =>
      clock.setTimeout(() => engines[to]!.onMessage(peers[i]!, bytes), MESSAGE_MS);
    const transport: BftTransport = {
      send: (to, bytes) => deliver(peers.indexOf(to), bytes),
      broadcast: (bytes) => {
        for (let j = 0; j < N; j++) if (j !== i) deliver(j, bytes);
      },
      reportGarbage: () => assert.fail('garbage between honest peers'),
    };
    let saved: SafetyState | undefined;
    const engine = new BftEngine(
      slowHost(pipeline, clock),
      transport,
      {
        load: async () => saved,
        save: async (s) => {
          saved = s;
        },
      },
      {
        chainId: MEMORY_CHAIN_ID,
        self: peers[i]!,
        crypto: new BlsVoteCrypto(MEMORY_CHAIN_ID, keys[roster.indexOf(peers[i]!)]!),
        pacemaker: {
          ...DEFAULT_PACEMAKER,
          baseMs: BASE_MS,
          jitterPermille: 0,
          roundFloorMultiplier,
          extendWhileChecking,
        },
        collectorsK: 2,
        minIntervalMs: 0,
        syncBatchBlocks: 16,
        gossipBatchMax: 64,
        recentCertificatesMax: 16,
        decodeLimits: DEFAULT_DECODE_LIMITS,
        onEvidence: () => {},
        onFatal: (e) => assert.fail(e as Error),
      },
    );
    pipeline.attach(engine);
    pipeline.onAdmitted((q, source) => engine.admitted(q, source));
    engines.push(engine);
    pipelines.push(pipeline);
  }
  for (const e of engines) await e.open();
  return { clock, engines, pipelines };
}

let nonce = 0;
function tx() {
  nonce++;
  return buildTx(admin, [{ kind: 'RegisterDomain', id: `o${nonce}`, metadata: new Map() }], {
    chainId: MEMORY_CHAIN_ID,
    creationTimeMs: 1_700_000_001_000,
    nonce,
  });
}

/** Submits a transaction every 200 ms (round-robin over the peers) for `ms` simulated milliseconds. */
/** Answers the view changes peer 0 had counted when it committed its first block (of the load). */
async function load(c: Awaited<ReturnType<typeof overloaded>>, ms: number): Promise<number | undefined> {
  let atFirstBlock: number | undefined;
  // 4 ms steps: a timer still fires at its own time within a step; the promise chains it starts are
  // drained at the end of the step (the same blocks and view changes as with 1 ms steps, a quarter of the turns).
  for (let t = 0; t < ms; t += STEP_MS) {
    if (t % 200 === 0) await c.pipelines[(t / 200) % N]!.submit(frameTx(tx()));
    c.clock.advance(STEP_MS);
    for (let k = 0; k < 3; k++) await new Promise((r) => setImmediate(r));
    if (atFirstBlock === undefined && c.pipelines[0]!.height() >= 2)
      atFirstBlock = c.engines[0]!.snapshot().viewChanges;
  }
  return atFirstBlock;
}

async function measure(roundFloorMultiplier: number, extendWhileChecking = false) {
  const c = await overloaded(roundFloorMultiplier, extendWhileChecking);
  const atFirstBlock = await load(c, 20_000);
  const heights = c.pipelines.map((p) => p.height());
  const committed = Math.min(...heights) - 1; // the genesis block is height 1
  const viewChanges = c.engines[0]!.snapshot().viewChanges;
  // View changes after the first block: the first height runs before any round was measured.
  const later = viewChanges - (atFirstBlock ?? 0);
  assert.equal(new Set(c.pipelines.map((p) => toHex(p.tipHash()))).size <= 2, true);
  // A check still waiting on the clock holds `stop` until it answers: keep the clock going meanwhile.
  let stopped = false;
  const stopping = Promise.all(c.engines.map((e) => e.stop())).then(() => (stopped = true));
  while (!stopped) {
    c.clock.advance(CHECK_MS);
    await new Promise((r) => setImmediate(r));
  }
  await stopping;
  const extended = c.engines.reduce((n, e) => n + e.core.stats.viewsExtended, 0);
  return { committed, viewChanges, later, extended };
}

describe('BFT engine under overload (simulated: a proposal check takes 3x the base view timeout)', () => {
  // The round floor alone (views not extended), then both, as the node runs by default.
  let floor: Awaited<ReturnType<typeof measure>> | undefined;

  it('decides in view 0 after the first height once the round floor covers the measured round', async (t) => {
    floor = await measure(DEFAULT_PACEMAKER.roundFloorMultiplier);
    const none = await measure(0);
    t.diagnostic(
      `20 s simulated: with the round floor (x${DEFAULT_PACEMAKER.roundFloorMultiplier}) ${floor.committed} ` +
        `blocks, ${floor.viewChanges} view changes (${floor.later} after the first block); without it ` +
        `${none.committed} blocks, ${none.viewChanges} view changes (${none.later} after the first block)`,
    );
    // Only the first height (no round measured yet) changes view; the rest decide in view 0.
    assert.equal(floor.later, 0, `with the floor: ${floor.later} view changes after the first block`);
    // A round here is ~1.6 s (check + 5 message hops): 20 s hold ten or more of them.
    assert.ok(floor.committed >= 8, `with the floor: ${floor.committed} blocks committed`);
    // The comparison the floor is for: far more blocks, far fewer view changes than without it.
    assert.ok(floor.committed >= 2 * none.committed, `${floor.committed} vs ${none.committed} blocks`);
    assert.ok(none.later >= 3, `without the floor: ${none.later} view changes after the first block`);
  });

  it('decides the first height in view 0 too when a view is kept open while its proposal is checked', async (t) => {
    assert.ok(DEFAULT_PACEMAKER.extendWhileChecking, 'the node extends views by default');
    const both = await measure(DEFAULT_PACEMAKER.roundFloorMultiplier, true);
    const before = floor ?? (await measure(DEFAULT_PACEMAKER.roundFloorMultiplier));
    t.diagnostic(
      `20 s simulated: views extended while checking: ${both.committed} blocks, ${both.viewChanges} view ` +
        `changes (${both.extended} timers re-armed over the 4 peers); round floor alone: ${before.committed} ` +
        `blocks, ${before.viewChanges} view changes (all at the first height)`,
    );
    // Without the extension the first height times out (no round measured yet); with it no height does.
    assert.ok(before.viewChanges >= 1, `the floor alone: ${before.viewChanges} view changes`);
    assert.equal(both.viewChanges, 0, `with views extended: ${both.viewChanges} view changes`);
    assert.ok(both.extended >= 1, 'the check outlasted a view timer, which was armed again');
    assert.ok(both.committed >= before.committed, `${both.committed} vs ${before.committed} blocks`);
  });
});
