// Four BftEngines over real pipelines (memory stores), real BLS votes and an in-process transport on a
// hand-driven clock: a transaction submitted to one peer commits on all with one block hash; a silent
// leader is replaced by a view change; a peer that missed blocks catches up by block sync.

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
import { toHex } from '../../util/hex.js';
import { ValidatorSet } from '../validator-set.js';
import { BlsVoteCrypto } from './bls-vote-crypto.js';
import { BftEngine } from './driver.js';
import type { BftTransport, SafetyStore } from './ports.js';
import { DEFAULT_PACEMAKER, type EvidenceFinding, type SafetyState } from './types.js';

const N = 4;
const keys = Array.from({ length: N }, (_, i) => BlsKeyPair.fromSeed(new Uint8Array(32).fill(40 + i)));
const peers = keys.map((_, i) => `ed0120${toHex(new Uint8Array(32).fill(0x10 + i)).toUpperCase()}`);
const roster = new ValidatorSet(
  peers.map((peer, i) => ({ peer, blsKey: publicKeyToText(keys[i]!.publicKey) })),
);

async function cluster() {
  const clock = new ManualClock();
  const down = new Set<number>();
  const engines: BftEngine[] = [];
  const pipelines = [];
  const evidence: EvidenceFinding[][] = [];
  for (let i = 0; i < N; i++) {
    const { ledger } = await openMemoryLedger(newDisk());
    await commitGenesis(ledger);
    const pipeline = memoryPipeline<ValidatorSet>(ledger, clock, { validatorSetOf: () => roster });
    const deliver = (to: number, bytes: Uint8Array) => {
      if (down.has(i) || down.has(to)) return;
      clock.setTimeout(() => engines[to]!.onMessage(peers[i]!, bytes), 1);
    };
    const transport: BftTransport = {
      send: (to, bytes) => deliver(peers.indexOf(to), bytes),
      broadcast: (bytes) => {
        for (let j = 0; j < N; j++) if (j !== i) deliver(j, bytes);
      },
      reportGarbage: () => assert.fail('garbage between honest peers'),
    };
    let saved: SafetyState | undefined;
    const safety: SafetyStore = {
      load: async () => saved,
      save: async (s) => {
        saved = s;
      },
    };
    evidence.push([]);
    const engine = new BftEngine(pipeline, transport, safety, {
      chainId: MEMORY_CHAIN_ID,
      self: peers[i]!,
      crypto: new BlsVoteCrypto(MEMORY_CHAIN_ID, keys[roster.indexOf(peers[i]!)]!),
      pacemaker: { ...DEFAULT_PACEMAKER, baseMs: 500, jitterPermille: 0 },
      collectorsK: 2,
      minIntervalMs: 0,
      syncBatchBlocks: 16,
      gossipBatchMax: 64,
      recentCertificatesMax: 16,
      decodeLimits: DEFAULT_DECODE_LIMITS,
      onEvidence: (f) => evidence[i]!.push(f),
      onFatal: (e) => assert.fail(e as Error),
    });
    pipeline.attach(engine);
    pipeline.onAdmitted((q, source) => engine.admitted(q, source));
    engines.push(engine);
    pipelines.push(pipeline);
  }
  for (const e of engines) await e.open();
  const run = async (ms: number) => {
    for (let t = 0; t < ms; t++) {
      clock.advance(1);
      for (let k = 0; k < 3; k++) await new Promise((r) => setImmediate(r));
    }
  };
  return { clock, engines, pipelines, down, run, evidence };
}

let nonce = 0;
function tx() {
  const name = `d${nonce++}`;
  return buildTx(admin, [{ kind: 'RegisterDomain', id: name, metadata: new Map() }], {
    chainId: MEMORY_CHAIN_ID,
    creationTimeMs: 1_700_000_001_000,
    nonce,
  });
}

describe('BFT engine, 4 peers in process', () => {
  it('commits a transaction submitted to one peer on every peer, with one block hash', async () => {
    const c = await cluster();
    const r = await c.pipelines[1]!.submit(frameTx(tx()));
    assert.equal(r.ok, true, JSON.stringify(r));
    await c.run(200);
    const hashes = c.pipelines.map((p) => toHex(p.tipHash()));
    assert.deepEqual(
      c.pipelines.map((p) => p.height()),
      [2, 2, 2, 2],
    );
    assert.equal(new Set(hashes).size, 1);
    // Pings every 2 s measure the round trip (1 ms each way here) that floors the view timeout.
    await c.run(2100);
    const p = c.engines[0]!.snapshot().round!.pacemaker;
    assert.equal(p.rttMs, 2);
    assert.equal(p.rttFloorMs, 2 * p.rttFloorMultiplier);
    for (const e of c.engines) await e.stop();
  });

  it('replaces a silent leader by a view change, then catches the silent peer up by block sync', async () => {
    const c = await cluster();
    const leader = c.engines[0]!.core.report().leaderIndex;
    const li = peers.indexOf(roster.validators[leader]!.peer);
    c.down.add(li);
    const other = (li + 1) % N;
    await c.pipelines[other]!.submit(frameTx(tx()));
    await c.run(3000);
    const live = c.pipelines.filter((_, i) => i !== li);
    assert.deepEqual(
      live.map((p) => p.height()),
      [2, 2, 2],
    );
    const snap = c.engines[other]!.snapshot();
    assert.ok(snap.viewChanges >= 1);
    assert.ok((snap.viewChangeCauses.no_proposal ?? 0) >= 1, JSON.stringify(snap.viewChangeCauses));
    c.down.delete(li);
    await c.pipelines[other]!.submit(frameTx(tx()));
    assert.equal(c.engines[li]!.snapshot().catchingUp, false, 'behind, but no peer told it yet');
    // GET /status `catching_up`: true while its block sync request is out, false once caught up.
    let caughtUpAt: number | undefined;
    let catchingUpSeen = 0;
    for (let ms = 0; ms < 3000; ms++) {
      await c.run(1);
      if (c.engines[li]!.snapshot().catchingUp) catchingUpSeen++;
      else if (catchingUpSeen > 0) caughtUpAt ??= ms;
    }
    assert.ok(catchingUpSeen > 0, 'the silent peer reported catching up while it synced');
    assert.ok(caughtUpAt !== undefined && c.engines[li]!.snapshot().catchingUp === false);
    assert.deepEqual(
      c.pipelines.map((p) => p.height()),
      [3, 3, 3, 3],
    );
    assert.equal(new Set(c.pipelines.map((p) => toHex(p.tipHash()))).size, 1);
    for (const e of c.engines) await e.stop();
  });
});
