// The consensus status snapshot and its SSE feed (`status/sse`).

import type { Infer } from '../../codec/codec.js';
import type { QcSummary } from '../../consensus/engine.js';
import { toHex } from '../../util/hex.js';
import type { RouteDeps } from '../deps.js';
import { EventBatch } from '../event-batch.js';
import type { EventFeed, StreamEvent } from '../sse.js';
import { ConsensusStatusView } from '../views/consensus.js';
import { signaturesTotal } from './consensus-shared.js';

export type ConsensusStatus = Infer<typeof ConsensusStatusView>;

function qc(q: QcSummary | undefined) {
  return q === undefined
    ? undefined
    : { height: q.height, view: q.view, subjectBlockHash: q.subjectBlockHash };
}

/** `{[key]: value}` when value is defined, else `{}`: optional codec fields must be absent, not undefined. */
function opt<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

export function consensusStatus(d: RouteDeps): ConsensusStatus {
  const snap = d.ports.consensus.snapshot();
  const s = d.ports.consensus.settings();
  const depth = d.ports.transactions.queueDepth();
  const capacity = d.ports.transactions.queueCapacity();
  const last = snap.lastCertificate;
  const signed = last === undefined ? 0 : signaturesTotal(last);
  return {
    mode: snap.mode,
    height: snap.height,
    view: snap.view,
    epoch: snap.epoch,
    blockTimeMs: s.blockTimeMs,
    commitTimeMs: s.commitTimeMs,
    collectorsK: s.collectorsK,
    collectorsR: s.collectorsR,
    leaderIndex: snap.leaderIndex,
    viewChangeIndex: snap.view,
    viewChanges: snap.viewChanges,
    viewChangeCauses: new Map(Object.entries(snap.viewChangeCauses)),
    ...opt('highestQc', qc(snap.highestQc)),
    ...opt('lockedQc', qc(snap.lockedQc)),
    ...opt(
      'commitQc',
      last && {
        height: last.height,
        view: last.view,
        epoch: last.epoch,
        blockHash: toHex(last.blockHash),
        validatorSetHash: toHex(last.validatorSetHash),
        validatorSetLen: snap.validatorSet.size,
        signaturesTotal: signed,
      },
    ),
    // The quorum that committed the newest block: every present signature is counted (a certificate holds
    // only verified votes), and `required` is the set's quorum (validator-set.ts).
    ...opt(
      'commitQuorum',
      last && {
        height: last.height,
        view: last.view,
        blockHash: toHex(last.blockHash),
        signaturesPresent: signed,
        signaturesCounted: signed,
        signaturesRequired: snap.validatorSet.quorum,
      },
    ),
    txQueue: { depth, capacity, saturated: depth >= capacity },
    blocksProduced: snap.blocksProduced,
    peers: d.ports.node.peers(),
  };
}

/**
 * A feed of status snapshots for serveSse: one at once, then one every `statusIntervalMs`. A snapshot has
 * no history, so resuming just continues with the current one. Event ids are the node clock in ms, forced
 * to grow strictly, so an id sent before a reconnect is always below the ids sent after it.
 */
export function statusFeed(d: RouteDeps): EventFeed {
  let last = 0;
  const next = (after: number): StreamEvent => {
    last = Math.max(last + 1, after + 1, Math.floor(d.ports.node.nowMs()));
    return { id: last, name: 'consensus_status', data: ConsensusStatusView.toJson(consensusStatus(d)) };
  };
  return {
    lastId: () => last,
    since: (lastId) => [next(lastId)],
    subscribe(fn, filter) {
      const tick = () => {
        const e = next(0);
        if (filter === undefined || filter.keep(e)) fn(new EventBatch([e]));
      };
      const timer = setInterval(tick, d.ports.consensus.settings().statusIntervalMs);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
}
