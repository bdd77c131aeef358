// One simulated peer: the real Ledger over the memory stores of its SimDisk, the real Pipeline and the
// real BftEngine, wired as the node wires them, with the simulator's clock, transport and vote crypto.
// Every peer starts from the same block 1 (the genesis transaction, under a certificate with no
// signers: no vote exists before the chain does). A restart builds all of it again from the disk.

import { DEFAULT_DECODE_LIMITS } from '../codec/limits.js';
import { BftEngine } from '../consensus/bft/driver.js';
import type { BftTransport, SafetyStore } from '../consensus/bft/ports.js';
import { DEFAULT_PACEMAKER, type EvidenceFinding, type PlantedBug } from '../consensus/bft/types.js';
import { signersBitmap } from '../consensus/certificate.js';
import type { ValidatorSet } from '../consensus/validator-set.js';
import { transactionHash } from '../model/transaction.js';
// The simulator is a composition root: it installs the ledger modules before any block executes.
import '../modules/load.js';
import { Ledger } from '../pipeline/ledger.js';
import { Pipeline } from '../pipeline/pipeline.js';
import { MemoryBlockStore } from '../storage/memory-block-store.js';
import { MemoryStateBackend } from '../storage/memory-state-backend.js';
import type { SimClock } from './clock.js';
import type { SimDisk } from './disk.js';
import { SIM_CHAIN_ID, SIM_GENESIS_MS, type SimFixtures } from './fixtures.js';
import { HashVoteCrypto } from './hash-vote-crypto.js';

export interface NodeSettings {
  fx: SimFixtures;
  clock: SimClock;
  pacemakerBaseMs: number;
  minIntervalMs: number;
  /** Collectors per view (the plan's k). */
  collectorsK: number;
  plantedBug?: PlantedBug;
  /** The safety store (default: the disk's own; the world wraps it to watch the records). */
  safety?: SafetyStore;
  onEvidence(f: EvidenceFinding): void;
  onFatal(e: unknown): void;
}

export interface SimPeer {
  ledger: Ledger;
  pipeline: Pipeline<ValidatorSet>;
  engine: BftEngine;
  crypto: HashVoteCrypto;
}

async function openLedger(disk: SimDisk, fx: SimFixtures): Promise<Ledger> {
  const faults = disk.memoryFaults();
  const { store, report } = MemoryBlockStore.open(disk.blocks, { faults });
  const state = MemoryStateBackend.open(disk.state, { faults });
  const { ledger } = await Ledger.openWith(
    { blocks: store, state, blocksReport: report },
    { chainId: SIM_CHAIN_ID, decodeLimits: DEFAULT_DECODE_LIMITS },
  );
  if (ledger.height() > 0) return ledger;
  const g = fx.genesis;
  const executed = ledger.execute({
    view: 0,
    creationTimeMs: SIM_GENESIS_MS,
    transactions: [g],
    hashes: [transactionHash(g)],
  });
  disk.quiet = true;
  try {
    await ledger.commit(executed, {
      phase: { kind: 'Commit' },
      height: 1,
      view: 0,
      epoch: 0,
      blockHash: executed.hash,
      validatorSetHash: fx.roster.hash,
      signers: signersBitmap([], fx.roster.size),
      signature: new Uint8Array(96),
    });
    await ledger.flushState();
  } finally {
    disk.quiet = false;
  }
  return ledger;
}

/** Opens (or reopens after a crash) peer `self` from its disk; the engine is open when this resolves. */
export async function openPeer(
  self: string,
  disk: SimDisk,
  transport: BftTransport,
  s: NodeSettings,
): Promise<SimPeer> {
  const ledger = await openLedger(disk, s.fx);
  const pipeline = new Pipeline<ValidatorSet>(ledger, {
    chainId: SIM_CHAIN_ID,
    clock: s.clock,
    queue: { capacity: 1000, perAccountMax: 1000, expiryMs: 24 * 3600_000 },
    admission: {
      transactionBytesMax: 1 << 20,
      instructionsMax: 1000,
      metadataBytesMax: 1 << 16,
      maxClockDriftMs: 24 * 3600_000,
      allowedAlgorithms: new Set(['ed25519']),
      decode: DEFAULT_DECODE_LIMITS,
    },
    verify: s.fx.verify,
    eventHistoryMax: 64,
    recentStatusesMax: 256,
    validatorSetOf: () => s.fx.roster,
  });
  const crypto = new HashVoteCrypto(SIM_CHAIN_ID, s.fx.roster.indexOf(self) >= 0 ? self : undefined);
  const engine = new BftEngine(pipeline, transport, s.safety ?? disk.safetyStore(), {
    chainId: SIM_CHAIN_ID,
    self,
    crypto,
    // The node's pacemaker, round floor included (DEFAULT_PACEMAKER), with the simulation's base timeout.
    pacemaker: {
      ...DEFAULT_PACEMAKER,
      baseMs: s.pacemakerBaseMs,
      maxMs: s.pacemakerBaseMs * 20,
    },
    collectorsK: s.collectorsK,
    ...(s.plantedBug === undefined ? {} : { plantedBug: s.plantedBug }),
    minIntervalMs: s.minIntervalMs,
    syncBatchBlocks: 16,
    gossipBatchMax: 64,
    recentCertificatesMax: 16,
    decodeLimits: DEFAULT_DECODE_LIMITS,
    onEvidence: s.onEvidence,
    onFatal: s.onFatal,
  });
  pipeline.attach(engine);
  pipeline.onAdmitted((q, source) => engine.admitted(q, source));
  await engine.open();
  return { ledger, pipeline, engine, crypto };
}
