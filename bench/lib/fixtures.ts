// What several figures share within one run, built on first use and measured in the same run as the
// figures that compare against it (every figure is reported next to a baseline measured in
// the same run). One instance per run: nothing is kept at module level.

import { rm } from 'node:fs/promises';
import { bareRequestsPerSecond } from './bare-baselines.js';
import { presigned, withBenchNode } from './bench-node.js';
import { type BftPeak, bftPeak } from './bft-load.js';
import { BftNetwork } from './bft-network.js';
import { type BuiltChain, buildChain } from './chain.js';
import { ed25519VerifyPerSecond } from './ed25519-baseline.js';
import { type FanoutResult, measureFanout } from './fanout.js';
import { findServe } from './gateway.js';
import { type HttpPeak, httpPeak, PEAK_WARM_UP_S } from './http-load.js';
import { startHttpNode } from './http-node.js';
import { runLoad } from './inprocess-load.js';
import { type ReadRates, readRates } from './read-load.js';
import { measureScale, type ScaleResult } from './scale.js';

/** Committed transactions in the restart/replay chain (1,000,000; fewer with --quick). */
export const CHAIN_TRANSACTIONS_FULL = 1_000_000;
export const CHAIN_TRANSACTIONS_QUICK = 50_000;

/** Subscribers of the fan-out figures. */
export const FANOUT_SSE = 10_000;
export const FANOUT_WS = 1_000;

/** Validators of the bft4_* figures. */
export const BFT_VALIDATORS = 4;
/** Load before the bft4 peak starts counting (bft-load.ts); the counting window is 10 s with --quick. */
export const BFT_WARMUP_S = 5;

/** Submitted but not yet final during the peak measurement: 8 full blocks. */
const PEAK_IN_FLIGHT_MAX = 4096;

export interface PeakResult {
  txPerS: number;
  seconds: number;
  committed: number;
  refused: number;
  signedOnTheFly: number;
  blockTimeMs: number;
}

export class Fixtures {
  #ed25519: Promise<{ perSecond: number; threads: number }> | undefined;
  #chain: Promise<BuiltChain> | undefined;
  #peak: Promise<PeakResult> | undefined;
  #httpPeak: Promise<HttpPeak & { blockTimeMs: number }> | undefined;
  #gateway: Promise<string | undefined> | undefined;
  #fanout: Promise<FanoutResult> | undefined;
  #bft: Promise<BftNetwork> | undefined;
  #bftPeak: Promise<BftPeak> | undefined;
  #scale: Promise<ScaleResult> | undefined;
  #bare = new Map<'hello' | 'verify', Promise<{ rps: number; p99Ms: number; non2xx: number }>>();
  #read: Promise<ReadRates> | undefined;

  constructor(
    readonly quick: boolean,
    private readonly log: (m: string) => void,
  ) {}

  /** Ed25519 verifications per second on all cores (the node's VerifyPool, one worker per core). */
  ed25519(): Promise<{ perSecond: number; threads: number }> {
    this.#ed25519 ??= (async () => {
      this.log('measuring Ed25519 verifications per second on all cores');
      return ed25519VerifyPerSecond(this.quick ? 2000 : 5000);
    })();
    return this.#ed25519;
  }

  /** A stopped node directory with many committed transfers. */
  chain(): Promise<BuiltChain> {
    this.#chain ??= (async () => {
      const n = this.quick ? CHAIN_TRANSACTIONS_QUICK : CHAIN_TRANSACTIONS_FULL;
      this.log(`building a chain of ${n} transactions (fsync off, blocks of 512)`);
      return buildChain(n, this.log);
    })();
    return this.#chain;
  }

  /** Durations of the load figures. */
  loadSeconds(): number {
    return this.quick ? 5 : 20;
  }

  /** Requests per second of a bare Fastify route in its own process, loaded by autocannon. */
  bare(route: 'hello' | 'verify') {
    let p = this.#bare.get(route);
    if (p === undefined) {
      this.log(`measuring the bare Fastify ${route} route`);
      p = bareRequestsPerSecond(route, this.loadSeconds());
      this.#bare.set(route, p);
    }
    return p;
  }

  /**
   * The node's read routes and the two bare hello servers (Fastify, node:http), each in its own process,
   * loaded in alternating rounds (read-load.ts); shared by the read figures of one run.
   */
  readRates(): Promise<ReadRates> {
    this.#read ??= readRates(this.loadSeconds(), this.log);
    return this.#read;
  }

  /** Why the HTTP gateway cannot be used, or undefined when it can. */
  gatewayMissing(): Promise<string | undefined> {
    this.#gateway ??= findServe().then((f) => ('missing' in f ? f.missing : undefined));
    return this.#gateway;
  }

  /** Transfers signed before an HTTP load starts (more are signed on the fly, and counted). */
  presignCount(): number {
    return this.quick ? 30_000 : 120_000;
  }

  /** Peak committed transactions per second of a fresh node in its own process, over HTTP. */
  httpPeak(): Promise<HttpPeak & { blockTimeMs: number }> {
    this.#httpPeak ??= (async () => {
      const node = await startHttpNode({ announce: false });
      try {
        const seconds = this.loadSeconds();
        this.log(
          `${PEAK_WARM_UP_S} s warm-up, then ${seconds} s of POST /transaction at full speed (autocannon)`,
        );
        // The warm-up takes transfers from the same presigned set: more of them, in proportion.
        const presign = Math.ceil((this.presignCount() * (seconds + PEAK_WARM_UP_S)) / seconds);
        const peak = await httpPeak(node, seconds, presign, PEAK_WARM_UP_S);
        return { ...peak, blockTimeMs: node.blockTimeMs };
      } finally {
        await node.stop();
      }
    })();
    return this.#httpPeak;
  }

  /**
   * Event fan-out: 10,000 SSE + 1,000 WebSocket subscribers, a tenth of that with --quick.
   */
  fanout(): Promise<FanoutResult> {
    const scale = this.quick ? 10 : 1;
    this.#fanout ??= measureFanout({
      sse: FANOUT_SSE / scale,
      ws: FANOUT_WS / scale,
      seconds: this.loadSeconds(),
      presign: this.presignCount(),
      log: this.log,
    });
    return this.#fanout;
  }

  /**
   * Peak committed transactions per second of a fresh node (default configuration, fsync on), fed
   * through `node.pipeline.submit` in this process: the load generator shares the node's event loop.
   */
  inProcessPeak(): Promise<PeakResult> {
    this.#peak ??= withBenchNode({}, async (b) => {
      const seconds = this.loadSeconds();
      this.log(`signing transfers, then ${seconds} s of in-process submissions at full speed`);
      const source = presigned(b.accounts, this.quick ? 40_000 : 160_000);
      const r = await runLoad(b.node, {
        next: source.next,
        durationMs: seconds * 1000,
        inFlightMax: PEAK_IN_FLIGHT_MAX,
      });
      return {
        txPerS: r.committedInWindow / r.windowSeconds,
        seconds: r.windowSeconds,
        committed: r.committedInWindow,
        refused: r.refused,
        signedOnTheFly: source.stats.onTheFly,
        blockTimeMs: b.config.block.timeMs,
      };
    });
    return this.#peak;
  }

  /**
   * A 4-validator network in 4 processes with the node's consensus defaults, funded, shared by the
   * throughput and latency figures (started once; stopped by closeBftNetwork or dispose).
   */
  bftNetwork(): Promise<BftNetwork> {
    this.#bft ??= (async () => {
      this.log(`starting ${BFT_VALIDATORS} validators, one process each`);
      return BftNetwork.start({ validators: BFT_VALIDATORS, log: this.log });
    })();
    return this.#bft;
  }

  /** Peak committed-at-every-peer transactions per second of that network, over HTTP (autocannon). */
  bftPeak(): Promise<BftPeak> {
    this.#bftPeak ??= (async () => {
      const net = await this.bftNetwork();
      const seconds = this.quick ? 10 : this.loadSeconds();
      this.log(
        `${BFT_WARMUP_S} + ${seconds} s of POST /transaction at full speed over ${BFT_VALIDATORS} gateways`,
      );
      return bftPeak(net, { seconds, warmupS: BFT_WARMUP_S, presign: this.quick ? 10_000 : 20_000 });
    })();
    return this.#bftPeak;
  }

  /**
   * The peak of a network of `validators` peers other than the shared one (`bft7_*`): the shared network
   * is stopped first so that this one has the machine, then this one is started, funded, loaded as
   * bftPeak loads the shared one (the same warm-up and window) and stopped.
   */
  async bftPeakOf(validators: number): Promise<BftPeak> {
    await this.closeBftNetwork();
    this.log(`starting ${validators} validators, one process each`);
    const net = await BftNetwork.start({ validators, log: this.log });
    try {
      const seconds = this.quick ? 10 : this.loadSeconds();
      this.log(
        `${BFT_WARMUP_S} + ${seconds} s of POST /transaction at full speed over ${validators} gateways`,
      );
      return await bftPeak(net, { seconds, warmupS: BFT_WARMUP_S, presign: this.quick ? 10_000 : 20_000 });
    } finally {
      await net.stop();
    }
  }

  /**
   * The `state_1m_*` measurement: states of 1,000 and 1,000,000 accounts (100,000
   * with --quick) built, reopened and loaded side by side; shared by the four figures.
   */
  scale(): Promise<ScaleResult> {
    this.#scale ??= measureScale({ quick: this.quick, log: this.log });
    return this.#scale;
  }

  /** Stops the shared network, so that a figure running its own has the machine to itself. */
  async closeBftNetwork(): Promise<void> {
    const net = await this.#bft?.catch(() => undefined);
    this.#bft = undefined;
    await net?.stop();
  }

  async dispose(): Promise<void> {
    await this.closeBftNetwork();
    const chain = await this.#chain?.catch(() => undefined);
    if (chain !== undefined) await rm(chain.dir, { recursive: true, force: true });
  }
}
