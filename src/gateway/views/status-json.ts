// The JSON answer of `GET /status` (`StatusView`, docs/codec.md §5 JSON mapping) written directly as
// text: the status moves with the clock and the queue, so it is built on every request, and walking
// the view's codec to build an object for JSON.stringify cost more than reading the status itself.
// Strings go through JSON.stringify and numbers print as JSON.stringify prints them, so the text is
// exactly what the codec's JSON form gives (status-json.test.ts checks it against `StatusView.toJson`).

import type { Infer } from '../../codec/codec.js';
import type { StatusView } from './common.js';

export type Status = Infer<typeof StatusView>;

/** A number as JSON.stringify writes it (`null` for NaN and the infinities). */
export function num(n: number): string {
  return Number.isFinite(n) ? `${n}` : 'null';
}

/** A string as JSON.stringify writes it. */
export const str: (s: string) => string = JSON.stringify;

export function statusJson(s: Status): string {
  const c = s.consensus;
  return (
    `{"peers":${num(s.peers)},"blocks":${num(s.blocks)},"blocks_non_empty":${num(s.blocksNonEmpty)},` +
    `"commit_time_ms":${num(s.commitTimeMs)},"txs_approved":${num(s.txsApproved)},` +
    `"txs_rejected":${num(s.txsRejected)},"txs_expired":${num(s.txsExpired)},` +
    `"uptime":{"secs":${num(s.uptime.secs)},"nanos":${num(s.uptime.nanos)}},` +
    `"view_changes":${num(s.viewChanges)},"queue_size":${num(s.queueSize)},` +
    `"queue_capacity":${num(s.queueCapacity)},"state_root":${str(s.stateRoot)},` +
    `"consensus":{"mode":${str(c.mode)},"height":${num(c.height)},"view":${num(c.view)},` +
    `"leader_index":${num(c.leaderIndex)},"validators":${num(c.validators)}},` +
    `"chain_id":${str(s.chainId)},"node_id":${str(s.nodeId)},"role":${str(s.role)},` +
    `"version":${str(s.version)},"latest_block_height":${num(s.latestBlockHeight)},` +
    `"latest_block_hash":${str(s.latestBlockHash)},"latest_block_time_ms":${num(s.latestBlockTimeMs)},` +
    `"catching_up":${s.catchingUp ? 'true' : 'false'},"validators_reachable":${num(s.validatorsReachable)},` +
    `"validators_total":${num(s.validatorsTotal)},"quorum_needed":${num(s.quorumNeeded)},` +
    `"quorum_reachable":${s.quorumReachable ? 'true' : 'false'}}`
  );
}
