// The explorer's live streams: one follower of the event bus per server
// that reads each newly applied block once (from the ledger's block cache) and hands every subscriber of
// the blocks, transactions and instructions streams the items of that block its filter keeps, as one
// batch, in order. The SSE session (gateway/sse-session.ts) does the rest: heartbeat, bounded queue,
// lagged / gone endings.
//
// Event ids. On the wire (`id:`): blocks `height`, transactions `height:tx_index`, instructions
// `height:tx_index:instruction_index`. The session orders events by a number: height × 2^24 + the item's
// position in its block (0 for a block, the transaction index, or the instruction's ordinal among the
// block's instructions); `stream-resume.ts` turns a Last-Event-ID into it. Heights stay below 2^29.

import { EventBatch } from '../../gateway/event-batch.js';
import type { StreamEvent } from '../../gateway/sse.js';
import type { EventFeed, FeedFilter } from '../../gateway/sse-session.js';
import type { Block } from '../../model/block.js';
import { transactionHash } from '../../model/transaction.js';
import { toHex } from '../../util/hex.js';
import { blockSummary, instructionItem, transactionSummary } from './items.js';
import type { ExplorerPort } from './port.js';
import type { ChainTotals } from './totals.js';
import { ExplorerBlockView, ExplorerTransactionView } from './views.js';
import { ExplorerInstructionView } from './views-more.js';

export type StreamKind = 'blocks' | 'transactions' | 'instructions';
export const ID_SPAN = 2 ** 24;

/** One stream item: its place in the chain rides along so filters can look at the block. */
export interface ExplorerEvent extends StreamEvent {
  block: Block;
  tx: number;
  ins: number;
}

const EVENT_NAMES: Record<StreamKind, string> = {
  blocks: 'block',
  transactions: 'transaction',
  instructions: 'instruction',
};

function event(
  kind: StreamKind,
  b: Block,
  tx: number,
  ins: number,
  ordinal: number,
  data: unknown,
): ExplorerEvent {
  const h = b.header.height;
  const wire = kind === 'blocks' ? `${h}` : kind === 'transactions' ? `${h}:${tx}` : `${h}:${tx}:${ins}`;
  const name = EVENT_NAMES[kind];
  const frame = `id: ${wire}\nevent: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
  return { id: h * ID_SPAN + ordinal, name, data, frame, block: b, tx, ins };
}

/** The stream items of one block, in order, with their JSON (the list items' JSON). */
export function blockEvents(kind: StreamKind, b: Block): ExplorerEvent[] {
  if (kind === 'blocks') return [event(kind, b, 0, 0, 0, ExplorerBlockView.toJson(blockSummary(b)))];
  const out: ExplorerEvent[] = [];
  let ordinal = 0;
  b.transactions.forEach((t, tx) => {
    if (kind === 'transactions') {
      out.push(event(kind, b, tx, 0, tx, ExplorerTransactionView.toJson(transactionSummary(b, tx)!)));
      return;
    }
    const hash = toHex(transactionHash(t));
    t.payload.instructions.forEach((_, ins) => {
      out.push(
        event(
          kind,
          b,
          tx,
          ins,
          ordinal++,
          ExplorerInstructionView.toJson(instructionItem(b, tx, ins, hash)!),
        ),
      );
    });
  });
  return out;
}

interface Subscriber {
  kind: StreamKind;
  fn: (batch: EventBatch) => void;
  filter: FeedFilter | undefined;
}

export class ExplorerFeed {
  /** Height of the last block handed to subscribers. */
  published: number;
  private readonly subscribers = new Set<Subscriber>();
  private running = false;
  private unsubscribe: () => void = () => {};

  constructor(
    private readonly port: ExplorerPort,
    private readonly totals: ChainTotals,
    private readonly onError: (e: unknown) => void,
  ) {
    this.published = port.chain.height();
  }

  start(): void {
    this.unsubscribe = this.port.events.subscribe((env) => {
      const e = env.event;
      if (e.kind === 'Block' && e.status.kind === 'Applied') this.wake();
    });
  }

  close(): void {
    this.unsubscribe();
    this.subscribers.clear();
  }

  /** The feed one stream's SSE session reads: live items of `kind`, history from `replay`. */
  of(kind: StreamKind, replay: ExplorerEvent[]): EventFeed {
    return {
      since: () => replay,
      lastId: () => (this.published + 1) * ID_SPAN - 1,
      subscribe: (fn, filter) => {
        const s: Subscriber = { kind, fn, filter };
        this.subscribers.add(s);
        return () => this.subscribers.delete(s);
      },
    };
  }

  private wake(): void {
    if (this.running) return;
    this.running = true;
    this.pump()
      .catch(this.onError)
      .finally(() => {
        this.running = false;
        if (this.published < this.port.chain.height()) this.wake();
      });
  }

  private async pump(): Promise<void> {
    while (this.published < this.port.chain.height()) {
      const b = await this.port.chain.block(this.published + 1);
      if (b === undefined) return;
      this.totals.applied(b, this.port.nowMs());
      this.published = b.header.height;
      this.publish(b);
    }
  }

  private publish(b: Block): void {
    const byKind = new Map<StreamKind, ExplorerEvent[]>();
    for (const s of this.subscribers) {
      let events = byKind.get(s.kind);
      if (events === undefined) {
        events = blockEvents(s.kind, b);
        byKind.set(s.kind, events);
      }
      const kept = s.filter === undefined ? events : events.filter((e) => s.filter!.keep(e));
      if (kept.length > 0) s.fn(new EventBatch(kept));
    }
  }
}
