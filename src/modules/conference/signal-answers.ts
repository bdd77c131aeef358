// Answers come from the ledger (docs/conference.md "Signalling"): a participant joins with
// JoinConference carrying its encrypted answer, and once that transaction commits the signal box offers
// the answer to the host. The follower reads each applied block once, in height order, and also forgets
// the signals of calls an EndConference closed.

import type { ChainReader, EventsPort } from '../../gateway/ports.js';
import type { Block } from '../../model/block.js';
import { transactionHash } from '../../model/transaction.js';
import { toHex } from '../../util/hex.js';
import type { SignalBox } from './signal-box.js';
import type { SignalCallPort } from './signal-routes.js';

export interface CommittedAnswer {
  callId: string;
  from: string;
  to: string;
  envelope: Uint8Array;
  height: number;
  transactionHash: string;
  /** Block time of the commit. */
  atMs: number;
}

/** The answers a block committed, and the calls it ended; rejected transactions count for nothing. */
export function signalsOfBlock(
  block: Block,
  calls: SignalCallPort,
): { answers: CommittedAnswer[]; ended: string[] } {
  const answers: CommittedAnswer[] = [];
  const ended: string[] = [];
  block.transactions.forEach((tx, i) => {
    if (block.results[i]?.kind !== 'Committed') return;
    let hash: string | undefined;
    for (const ix of tx.payload.instructions) {
      if (ix.kind === 'EndConference') ended.push(ix.call);
      if (ix.kind !== 'JoinConference' || ix.answer === undefined) continue;
      const host = calls.call(ix.call)?.host;
      if (host === undefined) continue;
      hash ??= toHex(transactionHash(tx));
      answers.push({
        callId: ix.call,
        from: ix.participant ?? tx.payload.authority,
        to: host,
        envelope: ix.answer,
        height: block.header.height,
        transactionHash: hash,
        atMs: block.header.creationTimeMs,
      });
    }
  });
  return { answers, ended };
}

/**
 * Feeds the box from every block applied from now on, after reading back the last `backfillBlocks`
 * committed blocks (the box lives in memory: after a restart, answers still within their time to live
 * come back from the chain). Returns the function that stops it. Blocks are read one after another (a
 * promise chain), so answers enter the box in chain order.
 */
export function followCommittedAnswers(
  events: Pick<EventsPort, 'subscribe'>,
  chain: Pick<ChainReader, 'block' | 'height'>,
  calls: SignalCallPort,
  box: SignalBox,
  opts: { backfillBlocks: number; onError: (e: unknown) => void },
): () => void {
  let queue: Promise<void> = Promise.resolve();
  let stopped = false;
  const apply = (height: number) => {
    queue = queue
      .then(async () => {
        const block = stopped ? undefined : await chain.block(height);
        if (block === undefined || stopped) return;
        const { answers, ended } = signalsOfBlock(block, calls);
        for (const { atMs, ...a } of answers) box.addAnswer(a, atMs);
        for (const c of ended) box.dropCall(c);
      })
      .catch(opts.onError);
  };
  const tip = chain.height();
  for (let h = Math.max(1, tip - opts.backfillBlocks + 1); h <= tip; h++) apply(h);
  const unsubscribe = events.subscribe(({ event }) => {
    if (event.kind === 'Block' && event.status.kind === 'Applied' && event.height > tip) apply(event.height);
  });
  return () => {
    stopped = true;
    unsubscribe();
  };
}
