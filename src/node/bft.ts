// Wiring of a networked peer (docs/consensus.md): the PeerNetwork carries the BFT engine's messages, the
// safety state lives in its file, evidence the core finds goes to the evidence store. Only the
// composition root imports this.

import type { Config } from '../config/schema.js';
import { BlsVoteCrypto } from '../consensus/bft/bls-vote-crypto.js';
import { BftEngine } from '../consensus/bft/driver.js';
import { evidenceIdHex, evidenceOf, rosterOfFinding } from '../consensus/bft/evidence-record.js';
import { decodeSafetyState, encodeSafetyState } from '../consensus/bft/messages.js';
import type { BftHost, SafetyStore } from '../consensus/bft/ports.js';
import type { EvidenceFinding } from '../consensus/bft/types.js';
import type { EvidenceStore } from '../consensus/evidence-store.js';
import type { ValidatorSet } from '../consensus/validator-set.js';
import type { BlsKeyPair } from '../crypto/bls.js';
import type { Ed25519KeyPair } from '../crypto/signer.js';
import { PeerNetwork } from '../p2p/network.js';
import type { Clock } from '../util/clock.js';
import { decodeLimitsOf } from './load-config.js';
import { SafetyFile } from './safety-file.js';
import { isTimeMessage, TimeSync } from './time-sync.js';

export interface BftParts {
  network: PeerNetwork;
  engine: BftEngine;
  /** Clock offsets against the peers, for the time routes only (never read by consensus). */
  time: TimeSync;
}

/**
 * Hands the engine every peer message but time samples and the messages a ledger module claims: those
 * share the channel (`TRTS`, time-sync.ts, and each module's magic, its descriptor's `peerMessages`,
 * modules/load.ts `modulePeerMessage`) and go to the time sampler and the module's family
 * (`ModuleRouteEnv.peers`). The engine would take them for garbage and disconnect their sender.
 */
export function routeToEngine(
  network: Pick<PeerNetwork, 'onMessage'>,
  engine: Pick<BftEngine, 'onMessage'>,
  claimed: (bytes: Uint8Array) => boolean,
): void {
  network.onMessage((from, bytes) => {
    if (!claimed(bytes) && !isTimeMessage(bytes)) engine.onMessage(from, bytes);
  });
}

/**
 * Records what the core found in the evidence store, against the validator set of the height the
 * finding is about (the engine's `history`), not the one in force when the effect runs.
 */
export function recordEvidence(
  a: {
    chainId: string;
    host: Pick<BftHost, 'validatorSet' | 'height'>;
    clock: Pick<Clock, 'nowMs'>;
    evidence: Pick<EvidenceStore, 'add'>;
    history: readonly { height: number; set: ValidatorSet }[];
  },
  f: EvidenceFinding,
): void {
  const roster = rosterOfFinding(f, a.history, a.host.validatorSet());
  const { evidence, finding } = evidenceOf(a.chainId, f, roster);
  a.evidence.add({
    id: evidenceIdHex(evidence),
    kind: evidence.kind,
    finding,
    recordedAtMs: a.clock.nowMs(),
    recordedAtHeight: a.host.height(),
    evidence,
  });
}

/** A network is configured when the genesis names several validators or peers are listed. */
export function runsBft(config: Config, validators: ValidatorSet): boolean {
  return validators.size > 1 || config.network.peers.length > 0;
}

export function buildBft(a: {
  config: Config;
  host: BftHost;
  nodeKey: Ed25519KeyPair;
  consensusKey: BlsKeyPair;
  clock: Clock;
  safetyPath: string;
  evidence: EvidenceStore;
  onFatal: (e: unknown) => void;
  /** The peer messages a ledger module claims (modules/load.ts `modulePeerMessage`). */
  claimed: (bytes: Uint8Array) => boolean;
}): BftParts {
  const { config, clock } = a;
  const chainId = config.node.chainId;
  const self = a.nodeKey.publicKeyText();
  const network = new PeerNetwork({ ...config.network, keyPair: a.nodeKey, clock, networkId: chainId });
  const limits = decodeLimitsOf(config);
  const file = new SafetyFile(a.safetyPath, { fsync: config.storage.fsync });
  const safety: SafetyStore = {
    load: async () => {
      const b = await file.read();
      return b === undefined ? undefined : decodeSafetyState(b, limits);
    },
    save: (s) => file.write(encodeSafetyState(s)),
  };
  // A validator-role node votes whenever the roster of a height names it (registered later or in the
  // genesis); an observer-role node never does, even if registered.
  const isValidator = config.network.role === 'validator';
  const c = config.consensus;
  const engine = new BftEngine(
    a.host,
    {
      send: (to, bytes) => void network.send(to, bytes),
      broadcast: (bytes) => void network.broadcast(bytes),
      reportGarbage: (peer) => network.reportGarbage(peer, 'undecodable peer message'),
    },
    safety,
    {
      chainId,
      // An observer-role node runs the core under an id no roster can name.
      self: isValidator ? self : `observer:${self}`,
      crypto: new BlsVoteCrypto(chainId, isValidator ? a.consensusKey : undefined),
      pacemaker: {
        baseMs: c.viewTimeoutMs,
        multiplierPermille: c.timeoutMultiplierPermille,
        maxMs: c.viewTimeoutMaxMs,
        rttFloorMultiplier: c.rttFloorMultiplier,
        roundFloorMultiplier: c.roundFloorMultiplier,
        extendWhileChecking: c.extendViewWhileChecking,
        jitterPermille: c.jitterPermille,
      },
      collectorsK: c.collectorsK,
      minIntervalMs: config.block.minIntervalMs,
      syncBatchBlocks: c.syncBatchBlocks,
      gossipBatchMax: c.gossipBatchMax,
      recentCertificatesMax: 128,
      decodeLimits: { ...limits, bytesMax: config.network.frameBytesMax },
      // The engine exists by the time the core finds anything (the effect runs after `open`).
      onEvidence: (f) => recordEvidence({ ...a, chainId, history: engine.history }, f),
      onFatal: a.onFatal,
    },
  );
  routeToEngine(network, engine, a.claimed);
  network.onPeerState((e) => {
    if (e.connected) engine.peerConnected(e.peerId);
  });
  const time = new TimeSync({
    clock,
    send: (to, bytes) => void network.send(to, bytes),
    connected: () => network.peers().flatMap((p) => (p.connected ? [p.peerId] : [])),
  });
  network.onMessage((from, bytes) => {
    if (isTimeMessage(bytes)) time.onMessage(from, bytes);
  });
  return { network, engine, time };
}
