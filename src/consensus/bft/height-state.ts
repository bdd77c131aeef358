// Everything the core knows about the height being decided; replaced as a whole when a height commits.

import { toHex } from '../../util/hex.js';
import type { ValidatorSet } from '../validator-set.js';
import { Plan } from './plan.js';
import { type BftMessage, invariant, type Qc, type VoteCrypto } from './types.js';
import { VoteBox } from './votes.js';

export type Execution = 'unknown' | 'running' | 'ok' | 'bad';

export interface KnownBlock {
  bytes: Uint8Array;
  execution: Execution;
  headerView?: number;
  reason?: string;
}

/** Payloads kept per height (proposals of different views, payloads fetched): a bound, not a goal. */
export const BLOCKS_KEPT_MAX = 16;
/** Messages for the next height kept until this one commits. */
export const NEXT_HEIGHT_BUFFER_MAX = 256;

export class HeightState {
  readonly plan: Plan;
  readonly votes: VoteBox;
  readonly blocks = new Map<string, KnownBlock>();
  /**
   * The first proposal seen per view: block hash hex and the message (later ones are equivocation), with
   * when it was taken and when its view began (input times: the phases of the block it commits).
   */
  readonly proposals = new Map<
    number,
    { hex: string; msg: Extract<BftMessage, { kind: 'Proposal' }>; atMs: number; viewStartedAtMs: number }
  >();
  /** Proposals for views this peer has not reached yet (one per view). */
  readonly futureProposals = new Map<
    number,
    { from: string; msg: Extract<BftMessage, { kind: 'Proposal' }> }
  >();
  /** Latest NEW_VIEW view per roster index. */
  readonly newViews = new Map<number, number>();
  /** Views this peer (as leader) has proposed in or asked the host to build for. */
  readonly led = new Set<number>();
  readonly payloadAsked = new Set<string>();
  /** Peers already recorded for sending an invalid certificate at this height. */
  readonly invalidQcFrom = new Set<string>();
  /** Prepare QCs by view seen at this height (the view's QC decides the Commit vote). */
  readonly prepareQcs = new Map<number, Qc>();
  commitQc: Qc | undefined;
  committing = false;
  timerView = -1;
  /** Telemetry of the round in progress (input times): when the current view began. */
  startedAtMs: number;
  prepareQcAtMs: number | undefined;
  commitQcAtMs: number | undefined;

  constructor(
    chainId: string,
    readonly height: number,
    readonly roster: ValidatorSet,
    crypto: VoteCrypto,
    nowMs: number,
  ) {
    invariant(Number.isSafeInteger(height) && height >= 1, `height state for height ${height}`);
    this.plan = new Plan(chainId, height, roster.size);
    this.votes = new VoteBox(roster, crypto);
    this.startedAtMs = nowMs;
  }

  block(hash: Uint8Array): KnownBlock | undefined {
    return this.blocks.get(toHex(hash));
  }

  /** Records a payload (first copy wins); false when the bound is reached. */
  rememberBlock(hash: Uint8Array, bytes: Uint8Array): KnownBlock | undefined {
    const hex = toHex(hash);
    const known = this.blocks.get(hex);
    if (known !== undefined) return known;
    if (this.blocks.size >= BLOCKS_KEPT_MAX) return undefined;
    invariant(hash.length === 32, `a payload kept under a ${hash.length}-byte hash`);
    const b: KnownBlock = { bytes, execution: 'unknown' };
    this.blocks.set(hex, b);
    invariant(
      this.blocks.size <= BLOCKS_KEPT_MAX,
      `${this.blocks.size} payloads kept at height ${this.height}`,
    );
    return b;
  }
}
