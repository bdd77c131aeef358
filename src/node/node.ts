// The composition root (docs/design/architecture.md): the only module that knows every concrete class. It
// builds a peer from its configuration and directory, applies genesis on first start, and starts and
// stops the parts in order.

import { join } from 'node:path';
import type { Config } from '../config/schema.js';
import type { BftEngine } from '../consensus/bft/driver.js';
import { genesisCertificate } from '../consensus/certificate.js';
import type { ConsensusEngine } from '../consensus/engine.js';
import { EVIDENCE_RECORDS_MAX, EvidenceStore } from '../consensus/evidence-store.js';
import { rosterHistory, validatorSetAt } from '../consensus/membership.js';
import { SinglePeerEngine } from '../consensus/single-peer.js';
import { ValidatorSet } from '../consensus/validator-set.js';
import type { BlsKeyPair } from '../crypto/bls.js';
import { loadKeyFile } from '../crypto/keyfile.js';
import type { Algorithm } from '../crypto/keys.js';
import type { Ed25519KeyPair } from '../crypto/signer.js';
import { VerifyPool } from '../crypto/verify-pool.js';
import { installAccountTexts } from '../model/account-texts.js';
import type { CommitCertificate } from '../model/block.js';
import { blockCertificate } from '../model/block-certificate.js';
import { transactionHash } from '../model/transaction.js';
// The composition root of a node: installs the ledger modules before any block executes (and keeps the
// peer messages they claim from the consensus engine).
import { modulePeerMessage } from '../modules/load.js';
import type { PeerNetwork } from '../p2p/network.js';
import { Ledger, type LedgerOpenReport } from '../pipeline/ledger.js';
import { Pipeline } from '../pipeline/pipeline.js';
import type { WorldState } from '../state/world-state.js';
import type { StateWarmUp } from '../storage/state-warm.js';
import { type Clock, systemClock, type Timer } from '../util/clock.js';
import { type FailPoints, noFailPoints } from '../util/failpoints.js';
import { ProofVerifyPool } from '../zk/proof-pool.js';
import { followMembership } from './admission.js';
import { buildBft, runsBft } from './bft.js';
import { loadConsensusKey } from './consensus-key.js';
import { nodeFiles } from './files.js';
import { type Genesis, genesisRoster, loadGenesis } from './genesis.js';
import { decodeLimitsOf } from './load-config.js';
import { loadProofPins } from './proof-pins.js';
import type { TimeSync } from './time-sync.js';

export interface NodeOptions {
  dir: string;
  config: Config;
  clock?: Clock;
  failPoints?: FailPoints;
  /** Called when the node hits an unrecoverable error (e.g. the disk refuses a write). */
  onFatal?: (error: unknown) => void;
}

/**
 * The pipeline's `validatorSetOf`: `validatorSetAt(state, height + 1)`, the genesis set before block 1.
 * Consensus asks on every round and every synced block, so the set is kept until the height or the
 * state's version changes (both are checked: the block log's height moves before the state is applied).
 */
function nextValidatorSet(ledger: Ledger, genesisSet: ValidatorSet): (state: WorldState) => ValidatorSet {
  let memo: { height: number; version: number; set: ValidatorSet } | undefined;
  return (state) => {
    const height = ledger.height();
    if (height === 0) return genesisSet;
    if (memo?.height !== height || memo.version !== state.version)
      memo = { height, version: state.version, set: validatorSetAt(state, height + 1) };
    return memo.set;
  };
}

export class Node {
  private sweepTimer: Timer | undefined;
  /** The peer transport when this node runs in a network (undefined for a lone single-peer node). */
  network: PeerNetwork | undefined;
  /** Clock offsets against the peers (networked nodes; the time routes only). */
  timeSync: TimeSync | undefined;
  private stopped = false;
  fatalError: unknown;
  /** The background warm-up of the state store (`storage.warm_up`), once started. */
  warmUp: { readonly task: StateWarmUp; done: boolean } | undefined;
  private constructor(
    readonly config: Config,
    readonly genesis: Genesis,
    readonly nodeKey: Ed25519KeyPair,
    readonly consensusKey: BlsKeyPair,
    readonly validatorSet: ValidatorSet,
    readonly ledger: Ledger,
    readonly pipeline: Pipeline<ValidatorSet>,
    readonly engine: ConsensusEngine,
    readonly verifyPool: VerifyPool,
    /** Groth16 proofs verified at admission (src/zk/proof-pool.ts), beside the signatures' pool. */
    readonly proofPool: ProofVerifyPool,
    readonly openReport: LedgerOpenReport,
    readonly startedAtMs: number,
    readonly clock: Clock,
    /** Consensus evidence (bounded, deduplicated, in `data/evidence.log`; consensus/evidence-store.ts). */
    readonly evidence: EvidenceStore,
  ) {}

  static async start(opts: NodeOptions): Promise<Node> {
    // The node's own codec paths (model/account-texts.ts), left out of the SDK: before any block is read.
    installAccountTexts();
    const { config } = opts;
    const clock = opts.clock ?? systemClock;
    const files = nodeFiles(opts.dir);
    const genesis = await loadGenesis(join(files.dir, config.node.genesisFile), config.node.chainId);
    const nodeKey = await loadKeyFile(join(files.dir, config.node.keyFile));
    const consensusKey = await loadConsensusKey(files.consensusKey);
    const validatorSet = new ValidatorSet(genesisRoster(genesis));
    const peerId = nodeKey.publicKeyText();
    const networked = runsBft(config, validatorSet);
    if (!networked && validatorSet.indexOf(peerId) < 0)
      throw new Error(
        `this node (${peerId}) is not a validator in the genesis; list its peers in network.peers to run it as an observer`,
      );

    const { ledger, report } = await Ledger.open({
      dir: files.data,
      chainId: config.node.chainId,
      fsync: config.storage.fsync,
      segmentBytesMax: config.storage.segmentBytesMax,
      lmdbMapBytes: config.storage.lmdbMapBytes,
      readAhead: config.storage.readAhead,
      mapChunks: config.storage.mapChunks,
      stateTreeCacheNodes: config.storage.stateTreeCacheNodes,
      stateRowCacheRows: config.storage.stateRowCacheRows,
      stateTreeVersionsKept: config.storage.stateTreeVersionsKept,
      proofRetention: await loadProofPins(files.data),
      decodeLimits: decodeLimitsOf(config),
      failPoints: opts.failPoints ?? noFailPoints,
    });
    let node: Node | undefined;
    const evidence = await EvidenceStore.open(files.evidence, {
      capacity: EVIDENCE_RECORDS_MAX,
      fsync: config.storage.fsync,
      onError: (e) => node?.fatal(e),
    }).catch(async (e: unknown) => {
      await ledger.close();
      throw e;
    });
    const verifyPool = new VerifyPool({ threads: config.verify.threads });
    const proofPool = new ProofVerifyPool({ threads: config.verify.threads });
    const pipeline = new Pipeline<ValidatorSet>(ledger, {
      chainId: config.node.chainId,
      clock,
      queue: {
        capacity: config.queue.capacity,
        perAccountMax: config.queue.perAccountMax,
        perKeyMax: config.queue.perKeyMax,
        perSourceMax: config.queue.perSourceMax,
        expiryMs: config.queue.expiryMs,
      },
      admission: {
        transactionBytesMax: config.transaction.bytesMax,
        instructionsMax: config.transaction.instructionsMax,
        metadataBytesMax: config.transaction.metadataBytesMax,
        maxClockDriftMs: config.transaction.maxClockDriftMs,
        allowedAlgorithms: new Set(config.transaction.allowedAlgorithms as Algorithm[]),
        decode: decodeLimitsOf(config),
      },
      verify: async (publicKey, message, signature) =>
        (await verifyPool.verify([{ publicKey, message, signature }]))[0] === true,
      verifyMany: (items) => verifyPool.verify(items),
      verifyProofs: (claims) => proofPool.verify(claims),
      eventHistoryMax: config.streams.eventHistoryMax,
      recentStatusesMax: 100_000,
      // Membership (consensus/membership.ts): the set of the next height from the committed peer rows.
      // Before block 1 the state has no peers yet: the genesis file's set, which block 1 registers.
      validatorSetOf: nextValidatorSet(ledger, validatorSet),
    });
    const onFatal = (e: unknown) => node?.fatal(e);
    const bft = networked
      ? buildBft({
          config,
          host: pipeline,
          nodeKey,
          consensusKey,
          clock,
          safetyPath: files.safety,
          evidence,
          onFatal,
          claimed: modulePeerMessage,
        })
      : undefined;
    const engine: SinglePeerEngine | BftEngine =
      bft?.engine ??
      new SinglePeerEngine(pipeline, {
        signer: consensusKey,
        peerId,
        validatorSet,
        recentCertificatesMax: 128,
        minIntervalMs: config.block.minIntervalMs,
        onFatal,
      });
    node = new Node(
      config,
      genesis,
      nodeKey,
      consensusKey,
      validatorSet,
      ledger,
      pipeline,
      engine,
      verifyPool,
      proofPool,
      report,
      clock.nowMs(),
      clock,
      evidence,
    );
    node.network = bft?.network;
    node.timeSync = bft?.time;
    pipeline.attach(engine);
    if (bft !== undefined) {
      // Registered peers are admitted from the height they become active (admission.ts).
      followMembership({
        network: bft.network,
        configured: config.network.peers,
        state: ledger.state,
        height: () => ledger.height(),
        onCommit: (l) => pipeline.onCommit(l),
      });
    }
    if (ledger.height() === 0) await node.applyGenesis(engine);
    await node.restoreCertificates(engine);
    if (bft !== undefined) {
      const b = bft;
      pipeline.onAdmitted((q, source) => b.engine.admitted(q, source));
      b.engine.seedRosterHistory(rosterHistory(ledger.state, ledger.height() + 1));
      await b.engine.open();
      await b.network.start().catch(async (e: unknown) => {
        await node?.stop();
        throw e;
      });
    }
    engine.start();
    node.timeSync?.start();
    node.scheduleSweep();
    if (opts.onFatal) node.fatalListeners.push(opts.onFatal);
    return node;
  }

  private readonly fatalListeners: ((e: unknown) => void)[] = [];

  private fatal(e: unknown): void {
    this.fatalError ??= e;
    for (const l of this.fatalListeners) l(e);
  }

  get healthy(): boolean {
    return this.fatalError === undefined && !this.stopped;
  }

  /** Block 1: the genesis transaction, executed without permission checks, certified like any block. */
  private async applyGenesis(engine: SinglePeerEngine | BftEngine): Promise<void> {
    const tx = this.genesis.transaction;
    const hash = transactionHash(tx);
    const executed = this.ledger.execute({
      view: 0,
      creationTimeMs: tx.payload.creationTimeMs,
      transactions: [tx],
      hashes: [hash],
    });
    if (executed.results[0]?.kind !== 'Committed') {
      throw new Error(`genesis transaction rejected: ${JSON.stringify(executed.results[0])}`);
    }
    const certificate =
      engine instanceof SinglePeerEngine
        ? engine.certify(1, executed.hash)
        : genesisCertificate(executed.hash, this.validatorSet);
    await this.pipeline.commit(executed, certificate);
  }

  /**
   * Seeds consensus with the certificates of the newest 128 blocks. Each is taken from the block's
   * bytes without decoding its transactions and results (model/block-certificate.ts); a block the
   * shortcut does not fit is decoded whole.
   */
  private async restoreCertificates(engine: SinglePeerEngine | BftEngine): Promise<void> {
    const certs: CommitCertificate[] = [];
    // The limits the ledger decodes its own stored blocks with (they were checked when committed).
    const limits = {
      ...decodeLimitsOf(this.config),
      bytesMax: Number.MAX_SAFE_INTEGER,
      itemsMax: Number.MAX_SAFE_INTEGER,
    };
    for (let h = this.ledger.height(); h >= 1 && certs.length < 128; h--) {
      const bytes = await this.ledger.blockBytes(h);
      const cert =
        bytes === undefined
          ? undefined
          : (blockCertificate(bytes, limits) ?? (await this.ledger.block(h))?.certificate);
      if (cert !== undefined) certs.push(cert);
    }
    engine.restoreCertificates(certs);
  }

  /**
   * Starts the background warm-up of the world state (`storage.warm_up`; Ledger.warmUpWorldState) when
   * configured: not awaited, so it never delays readiness; it logs its progress every 30 s and its end.
   */
  startWarmUp(log: { info(msg: string): void; warn(msg: string): void }): void {
    if (!this.config.storage.warmUp || this.warmUp !== undefined || this.stopped) return;
    const t0 = performance.now();
    let logged = t0;
    const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
    const task = this.ledger.warmUpWorldState((p) => {
      const now = performance.now();
      if (now - logged < 30_000) return;
      logged = now;
      log.info(
        `state warm-up: ${p.keys} keys, ${mib(p.bytes)} MiB read in ${((now - t0) / 1000).toFixed(0)} s`,
      );
    });
    if (task === undefined) return;
    const warm = { task, done: false };
    this.warmUp = warm;
    log.info('state warm-up: reading the rows and their indexes in the background');
    task.done.then(
      (r) => {
        warm.done = true;
        const s = ((performance.now() - t0) / 1000).toFixed(1);
        log.info(
          `state warm-up ${r.stopped ? 'stopped' : 'done'}: ${r.keys} keys, ${mib(r.bytes)} MiB in ${s} s`,
        );
      },
      (e: unknown) => log.warn(`state warm-up failed: ${e instanceof Error ? e.message : String(e)}`),
    );
  }

  private scheduleSweep(): void {
    this.sweepTimer = this.clock.setTimeout(() => {
      if (this.stopped) return;
      this.pipeline.sweepExpired();
      this.scheduleSweep();
    }, 1000);
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.sweepTimer?.cancel();
    this.timeSync?.stop();
    await this.warmUp?.task.stop();
    await this.engine.stop();
    await this.network?.stop();
    try {
      // After the engine, which may still record evidence while it stops.
      await this.evidence.close();
    } finally {
      await this.ledger.close();
      await this.verifyPool.close();
      await this.proofPool.close();
    }
  }
}
