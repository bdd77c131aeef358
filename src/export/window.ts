// Bounded in-flight publishes: up to `max` acknowledgements awaited at once, settled in the order the
// messages were sent. `admit` waits for the oldest one while the window is full, so a slow or stalled
// JetStream stops the exporter from reading further events (which then wait on the node's side) instead
// of piling up unacknowledged messages. The first failure (in sending order) is kept and rethrown by the next `admit` or
// `settle`; the later acknowledgements are still awaited, so none is left unobserved.

import { assert } from '../util/assert.js';

export class PublishWindow<T> {
  private readonly pending: Promise<void>[] = [];
  private failure: { error: unknown } | undefined;

  constructor(
    readonly max: number,
    /** Called with each acknowledgement, in sending order. */
    private readonly onAck: (ack: T) => void,
  ) {
    assert(Number.isSafeInteger(max) && max >= 1, `publish window of ${max}`);
  }

  get size(): number {
    return this.pending.length;
  }

  /** Waits for room (and throws the first failure seen), then sends with `send`. */
  async admit(send: () => Promise<T>): Promise<void> {
    while (this.pending.length >= this.max) await this.pending.shift();
    this.throwFailure();
    // Observed at once (a rejection must never go unhandled), handed over in sending order: each
    // message's outcome waits for its predecessor's.
    const outcome = send().then(
      (ack) => ({ ok: true as const, ack }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    const previous = this.pending.at(-1) ?? Promise.resolve();
    this.pending.push(
      previous
        .then(() => outcome)
        .then((r) => {
          if (!r.ok) this.failure ??= { error: r.error };
          else if (this.failure === undefined) this.onAck(r.ack);
        }),
    );
  }

  /** Waits for every message sent; throws the first failure. */
  async settle(): Promise<void> {
    while (this.pending.length > 0) await this.pending.shift();
    this.throwFailure();
  }

  private throwFailure(): void {
    if (this.failure !== undefined) throw this.failure.error;
  }
}
