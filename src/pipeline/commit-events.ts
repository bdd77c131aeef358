// The events a committed block announces, as one array published at once: each event's id is its
// position in the block (event-id.ts). Block Committed, then per transaction its status (and its data
// events when committed), then each due work run of the block (state/module-host.ts: its data events,
// under the pseudo transaction hash its module gave the run), then Block Applied. Re-executing the block (replay, rebuild, events read back after a crash) gives the same list.

import type { Event } from '../model/events.js';
import { assert } from '../util/assert.js';
import type { ExecutedBlock } from './executed-block.js';

export function committedBlockEvents(executed: ExecutedBlock): {
  events: Event[];
  approved: number;
  rejected: number;
} {
  const { height } = executed.header;
  // Statuses and data events are paired with transactions by position (replay and catch-up rebuild
  // this list from a re-execution, which must line up the same way).
  const n = executed.transactions.length;
  assert(
    executed.results.length === n && executed.hashes.length === n && executed.events.length === n,
    `block ${height}: events for ${n} transactions from ${executed.results.length} results, ${executed.hashes.length} hashes, ${executed.events.length} event lists`,
  );
  let approved = 0;
  let rejected = 0;
  const events: Event[] = [{ kind: 'Block', height, hash: executed.hash, status: { kind: 'Committed' } }];
  for (let i = 0; i < executed.transactions.length; i++) {
    const hash = executed.hashes[i]!;
    const result = executed.results[i]!;
    if (result.kind === 'Committed') {
      approved++;
      events.push({ kind: 'Transaction', hash, status: { kind: 'Committed' }, blockHeight: height });
      for (const data of executed.events[i]!)
        events.push({ kind: 'Data', blockHeight: height, transactionHash: hash, data });
    } else {
      rejected++;
      events.push({
        kind: 'Transaction',
        hash,
        status: { kind: 'Rejected', reason: result.reason },
        blockHeight: height,
      });
    }
  }
  for (const run of executed.dueRuns) {
    const transactionHash = run.hash;
    for (const data of run.events) events.push({ kind: 'Data', blockHeight: height, transactionHash, data });
  }
  events.push({ kind: 'Block', height, hash: executed.hash, status: { kind: 'Applied' } });
  return { events, approved, rejected };
}
