// The engine (driver) against far numbers and its own assertions: a block-sync request from far above
// the tip is not answered (counted); a peer that claimed a far tip and then gave nothing is not asked
// again for a while, so honest peers' tips get block sync; and a failed assertion in the core stops the
// engine before anything of that step (a vote, a commit) leaves.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  commitGenesis,
  ManualClock,
  MEMORY_CHAIN_ID,
  memoryPipeline,
  newDisk,
  openMemoryLedger,
} from '../../../test/helpers/memory-chain.js';
import { DEFAULT_DECODE_LIMITS } from '../../codec/limits.js';
import { BlsKeyPair } from '../../crypto/bls.js';
import { publicKeyToText } from '../../crypto/keys.js';
import { toHex } from '../../util/hex.js';
import { ValidatorSet } from '../validator-set.js';
import { BlsVoteCrypto } from './bls-vote-crypto.js';
import { BftEngine } from './driver.js';
import { decodePeerMessage, encodePeerMessage, type PeerMessage } from './messages.js';
import { ConsensusInvariantError, DEFAULT_PACEMAKER } from './types.js';

const keys = Array.from({ length: 4 }, (_, i) => BlsKeyPair.fromSeed(new Uint8Array(32).fill(60 + i)));
const peers = keys.map((_, i) => `ed0120${toHex(new Uint8Array(32).fill(0x20 + i)).toUpperCase()}`);
const roster = new ValidatorSet(
  peers.map((peer, i) => ({ peer, blsKey: publicKeyToText(keys[i]!.publicKey) })),
);

async function oneEngine() {
  const clock = new ManualClock();
  const { ledger } = await openMemoryLedger(newDisk());
  await commitGenesis(ledger);
  const pipeline = memoryPipeline<ValidatorSet>(ledger, clock, { validatorSetOf: () => roster });
  const sent: { to: string; msg: PeerMessage }[] = [];
  const fatal: unknown[] = [];
  const engine = new BftEngine(
    pipeline,
    {
      send: (to, bytes) => sent.push({ to, msg: decodePeerMessage(bytes, DEFAULT_DECODE_LIMITS)! }),
      broadcast: (bytes) => sent.push({ to: '*', msg: decodePeerMessage(bytes, DEFAULT_DECODE_LIMITS)! }),
      reportGarbage: () => {},
    },
    { load: async () => undefined, save: async () => {} },
    {
      chainId: MEMORY_CHAIN_ID,
      self: peers[0]!,
      crypto: new BlsVoteCrypto(MEMORY_CHAIN_ID, keys[0]!),
      pacemaker: { ...DEFAULT_PACEMAKER, baseMs: 500, jitterPermille: 0 },
      collectorsK: 2,
      minIntervalMs: 0,
      syncBatchBlocks: 16,
      gossipBatchMax: 64,
      recentCertificatesMax: 16,
      decodeLimits: DEFAULT_DECODE_LIMITS,
      onEvidence: () => {},
      onFatal: (e) => fatal.push(e),
    },
  );
  await engine.open();
  const settle = async (ms: number) => {
    for (let t = 0; t < ms; t += 100) {
      clock.advance(100);
      await new Promise((r) => setImmediate(r));
    }
    for (let k = 0; k < 5; k++) await new Promise((r) => setImmediate(r));
  };
  const from = (peer: string, m: PeerMessage) => engine.onMessage(peer, encodePeerMessage(m));
  const syncRequestsTo = (peer: string) =>
    sent.filter((s) => s.to === peer && s.msg.kind === 'SyncRequest').length;
  return { engine, sent, fatal, settle, from, syncRequestsTo };
}

describe('BFT engine: far numbers at the driver', () => {
  it('does not answer a block-sync request from far above its tip, and counts it', async () => {
    const e = await oneEngine();
    e.from(peers[1]!, { kind: 'SyncRequest', from: 1_000_000, max: 1_000_000 });
    await e.settle(0);
    assert.equal(e.sent.filter((s) => s.msg.kind === 'SyncBlocks').length, 0);
    assert.equal(e.engine.counters.syncFar, 1);
    e.from(peers[1]!, { kind: 'SyncRequest', from: 1, max: 1 });
    await e.settle(0);
    assert.equal(
      e.sent.filter((s) => s.msg.kind === 'SyncBlocks').length,
      1,
      'a request at the tip is served',
    );
    await e.engine.stop();
  });

  it('a peer that claimed a far tip and never answered is not asked again for a while; an honest tip is', async () => {
    const e = await oneEngine();
    const [liar, honest] = [peers[3]!, peers[1]!];
    e.from(liar, { kind: 'Tip', height: 1_000_000 });
    assert.equal(e.syncRequestsTo(liar), 1);
    await e.settle(5100); // the request times out unanswered
    e.from(liar, { kind: 'Tip', height: 1_000_000 });
    assert.equal(e.syncRequestsTo(liar), 1, 'the liar is in its cool-down');
    e.from(honest, { kind: 'Tip', height: 5 });
    assert.equal(e.syncRequestsTo(honest), 1, 'block sync goes to the honest peer');
    await e.engine.stop();
  });

  it('a failed assertion in the core stops the engine: onFatal, and nothing of that step runs', async () => {
    const e = await oneEngine();
    const step = e.engine.core.step.bind(e.engine.core);
    e.engine.core.step = (i) => {
      if (i.kind === 'Message') throw new ConsensusInvariantError('planted');
      return step(i);
    };
    const before = e.sent.length;
    e.from(peers[1]!, { kind: 'NewView', height: 2, view: 1 });
    await e.settle(3000);
    assert.equal(e.fatal.length, 1);
    assert.ok(e.fatal[0] instanceof ConsensusInvariantError);
    assert.equal(
      e.sent.slice(before).filter((s) => s.msg.kind !== 'Ping').length,
      0,
      e.sent
        .slice(before)
        .map((s) => s.msg.kind)
        .join(','),
    );
    await e.engine.stop();
  });
});
