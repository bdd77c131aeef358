// Test helpers: a ledger and pipeline over the in-memory stores, a genesis signed by a deterministic
// admin key, real single-validator BLS certificates and a hand-driven clock.

import { DEFAULT_DECODE_LIMITS } from '../../src/codec/limits.js';
// The ledger modules, installed before any block executes (the tests' composition root).
import '../../src/modules/load.js';
import { aggregateCertificate, voteMessage } from '../../src/consensus/certificate.js';
import { ValidatorSet } from '../../src/consensus/validator-set.js';
import { BlsKeyPair } from '../../src/crypto/bls.js';
import { ed25519Verify } from '../../src/crypto/ed25519.js';
import { publicKeyToText } from '../../src/crypto/keys.js';
import type { CommitCertificate } from '../../src/model/block.js';
import type { Instruction } from '../../src/model/instructions.js';
import { type SignedTransaction, transactionHash } from '../../src/model/transaction.js';
import { Ledger } from '../../src/pipeline/ledger.js';
import { Pipeline, type PipelineOptions } from '../../src/pipeline/pipeline.js';
import { MemoryBlockMedium, MemoryBlockStore } from '../../src/storage/memory-block-store.js';
import type { MemoryFaults } from '../../src/storage/memory-faults.js';
import { MemoryStateBackend, MemoryStateMedium } from '../../src/storage/memory-state-backend.js';
import type { Clock, Timer } from '../../src/util/clock.js';
import { buildTx, newAccount, type TestAccount } from './tx.js';

export const MEMORY_CHAIN_ID = 'torana-test';
export const GENESIS_TIME_MS = 1_700_000_000_000;

/** A clock moved by hand: timers run, in due order, only inside `advance`. */
export class ManualClock implements Clock {
  private timers: { at: number; seq: number; fn: () => void; cancelled: boolean }[] = [];
  private seq = 0;
  constructor(private now = GENESIS_TIME_MS + 1_000) {}
  nowMs(): number {
    return this.now;
  }
  monotonicMs(): number {
    return this.now;
  }
  setTimeout(fn: () => void, ms: number): Timer {
    const t = { at: this.now + ms, seq: this.seq++, fn, cancelled: false };
    this.timers.push(t);
    return { cancel: () => (t.cancelled = true) };
  }
  /** Runs every timer due within `ms` (0: those due now), then sets the time. */
  advance(ms: number): void {
    const until = this.now + ms;
    for (;;) {
      const due = this.timers
        .filter((t) => !t.cancelled && t.at <= until)
        .sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (due === undefined) break;
      due.cancelled = true;
      this.now = Math.max(this.now, due.at);
      due.fn();
    }
    this.timers = this.timers.filter((t) => !t.cancelled);
    this.now = until;
  }
  get pending(): number {
    return this.timers.filter((t) => !t.cancelled).length;
  }
}

export const admin: TestAccount = newAccount('system', 11);
export const validatorKey = BlsKeyPair.fromSeed(new Uint8Array(32).fill(12));
export const validatorPeer = newAccount('system', 13).key.publicKeyText();
export const validatorSet = new ValidatorSet([
  { peer: validatorPeer, blsKey: publicKeyToText(validatorKey.publicKey) },
]);

export function genesisTransaction(): SignedTransaction {
  const empty = new Map();
  const instructions: Instruction[] = [
    { kind: 'RegisterDomain', id: 'system', metadata: empty },
    { kind: 'RegisterAccount', id: admin.id, metadata: empty },
    { kind: 'GrantPermission', account: admin.id, permission: { name: 'Admin', payload: null } },
  ];
  return buildTx(admin, instructions, { chainId: MEMORY_CHAIN_ID, creationTimeMs: GENESIS_TIME_MS });
}

/** A real commit certificate of the one test validator. */
export function certify(height: number, blockHash: Uint8Array, view = 0): CommitCertificate {
  const subject = {
    phase: { kind: 'Commit' as const },
    height,
    view,
    epoch: 0,
    blockHash,
    validatorSetHash: validatorSet.hash,
  };
  const signature = validatorKey.sign(voteMessage(MEMORY_CHAIN_ID, subject));
  return aggregateCertificate(subject, [{ index: 0, signature }], validatorSet);
}

export interface MemoryDisk {
  blocks: MemoryBlockMedium;
  state: MemoryStateMedium;
}

export function newDisk(): MemoryDisk {
  return { blocks: new MemoryBlockMedium(), state: new MemoryStateMedium() };
}

export async function openMemoryLedger(
  disk: MemoryDisk,
  faults: MemoryFaults = {},
  opts: { stateWritesBehindMax?: number } = {},
) {
  const { store, report } = MemoryBlockStore.open(disk.blocks, { faults });
  const state = MemoryStateBackend.open(disk.state, { faults });
  return Ledger.openWith(
    { blocks: store, state, blocksReport: report },
    { chainId: MEMORY_CHAIN_ID, decodeLimits: DEFAULT_DECODE_LIMITS, ...opts },
  );
}

/** Commits the genesis block; `stateRootVersion` 1 builds a block of an older chain (the multiset root). */
export async function commitGenesis(ledger: Ledger, stateRootVersion: 1 | 2 = 2): Promise<void> {
  const tx = genesisTransaction();
  const executed = ledger.execute({
    view: 0,
    creationTimeMs: GENESIS_TIME_MS,
    transactions: [tx],
    hashes: [transactionHash(tx)],
    stateRootVersion,
  });
  await ledger.commit(executed, certify(1, executed.hash));
}

/**
 * Commits the block after the tip: one transaction of `instructions` signed by the admin, a second after
 * the block before; throws unless it is committed. Returns the block's hash.
 */
export async function commitAdminBlock(ledger: Ledger, instructions: Instruction[]): Promise<Uint8Array> {
  const n = ledger.height() + 1;
  const creationTimeMs = GENESIS_TIME_MS + n * 1000;
  const tx = buildTx(admin, instructions, { chainId: MEMORY_CHAIN_ID, creationTimeMs });
  const executed = ledger.execute({
    view: 0,
    creationTimeMs,
    transactions: [tx],
    hashes: [transactionHash(tx)],
  });
  const r = executed.results[0]!;
  if (r.kind !== 'Committed') throw new Error(`block ${n} rejected: ${JSON.stringify(r)}`);
  await ledger.commit(executed, certify(n, executed.hash));
  return executed.hash;
}

export const verifyEd25519 = async (pk: Uint8Array, msg: Uint8Array, sig: Uint8Array) =>
  ed25519Verify(pk, msg, sig);

export function memoryPipeline<Roster = unknown>(
  ledger: Ledger,
  clock: Clock = new ManualClock(),
  overrides: Partial<PipelineOptions<Roster>> = {},
): Pipeline<Roster> {
  return new Pipeline<Roster>(ledger, {
    chainId: MEMORY_CHAIN_ID,
    clock,
    queue: { capacity: 1000, perAccountMax: 1000, expiryMs: 60_000 },
    admission: {
      transactionBytesMax: 1 << 20,
      instructionsMax: 1000,
      metadataBytesMax: 1 << 16,
      maxClockDriftMs: 10_000,
      allowedAlgorithms: new Set(['ed25519']),
      decode: DEFAULT_DECODE_LIMITS,
    },
    verify: verifyEd25519,
    eventHistoryMax: 1000,
    recentStatusesMax: 1000,
    ...overrides,
  });
}
