// Coalesced submission (README "Throughput"): the transactions of messages that become durable together
// (one group commit of the record store answers many requests in the same turn of the event loop) are
// handed to the ledger in one `submitMany` call instead of one call each, so the pipeline admits them as
// a batch (one round trip to the signature workers, one pass over the queue). The window is the rest of
// the current turn of the event loop (setImmediate): nothing waits for a timer, so the latency added is
// the time to finish the turn. Order is kept (the ledger sees the transactions in the order they were
// handed over) and every transaction gets its own outcome: a refused one never affects the others.

import { assert } from '../../../util/assert.js';
import { BridgeError } from './errors.js';
import type { BridgeLedgerPort, LedgerSubmitOutcome } from './ports.js';

interface Waiting {
  readonly bytes: Uint8Array;
  resolve(outcome: LedgerSubmitOutcome): void;
  reject(e: unknown): void;
}

export class SubmissionBatcher {
  private batch: Waiting[] = [];
  private scheduled = false;
  private closed = false;

  /** `batchMax`: transactions per `submitMany` call (`iso20022.submit_batch_max`); more wait for the next. */
  constructor(
    private readonly ledger: Pick<BridgeLedgerPort, 'submitMany'>,
    private readonly batchMax: number,
  ) {
    assert(Number.isInteger(batchMax) && batchMax >= 1, 'submit batch size must be a positive integer');
  }

  /** Submits one framed signed transaction with the others handed over in the same turn. */
  submit(bytes: Uint8Array): Promise<LedgerSubmitOutcome> {
    if (this.closed) return Promise.reject(closedError());
    return new Promise((resolve, reject) => {
      this.batch.push({ bytes, resolve, reject });
      if (this.batch.length >= this.batchMax) this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.flush();
        });
      }
    });
  }

  /**
   * Refuses new submissions and fails the ones not handed over yet (503): their records are durable, so
   * the next start resubmits them, exactly as after a crash. Calls already made are left to finish.
   */
  close(): void {
    this.closed = true;
    const batch = this.batch;
    this.batch = [];
    for (const w of batch) w.reject(closedError());
  }

  private flush(): void {
    const batch = this.batch;
    if (batch.length === 0) return;
    this.batch = [];
    this.ledger.submitMany(batch.map((w) => w.bytes)).then(
      (outcomes) => {
        // One outcome per transaction, in order: anything else is a broken port, not an input error.
        assert(outcomes.length === batch.length, 'submitMany answered a different number of outcomes');
        for (const [i, w] of batch.entries()) w.resolve(outcomes[i]!);
      },
      (e: unknown) => {
        for (const w of batch) w.reject(e);
      },
    );
  }
}

function closedError(): BridgeError {
  return new BridgeError('iso_bridge_unavailable', 'the bridge is closed', { reason: 'closed' });
}
