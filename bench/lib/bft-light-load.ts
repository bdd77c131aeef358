// Light steady load for the view-change figure: one signed transfer every 1000 / rate ms to the
// gateways of the target peers in turn. It can be paused (nothing is sent, nothing is owed on resume)
// and retargeted (a killed peer's gateway gets nothing more).

import { BFT_CHAIN_ID, type BftNetwork } from './bft-network.js';
import { SUBMIT_HEADERS } from './http-load.js';
import { signedTransferSource } from './transfers.js';

const REQUEST_TIMEOUT_MS = 5_000;

export class LightLoad {
  readonly #net: BftNetwork;
  readonly #source: () => { bytes: Uint8Array; hashHex: string };
  readonly #intervalMs: number;
  #targets: number[];
  #next = 0;
  #timer: NodeJS.Timeout | undefined;
  readonly #pending = new Set<Promise<void>>();
  sent = 0;
  accepted = 0;
  /** Answers other than 202 and requests without an answer (a peer killed under them). */
  refused = 0;

  constructor(net: BftNetwork, ratePerS: number) {
    this.#net = net;
    this.#source = signedTransferSource(net.accounts, BFT_CHAIN_ID);
    this.#intervalMs = 1000 / ratePerS;
    this.#targets = net.urls.map((_, i) => i);
  }

  set targets(peers: number[]) {
    this.#targets = [...peers];
  }

  /** Sends one transaction now, then one every interval. */
  resume(): void {
    if (this.#timer !== undefined) return;
    this.#sendOne();
    this.#timer = setInterval(() => this.#sendOne(), this.#intervalMs);
  }

  /** Stops sending and waits for the answers of what is in flight. */
  async pause(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await Promise.all([...this.#pending]);
  }

  #sendOne(): void {
    const peer = this.#targets[this.#next++ % this.#targets.length];
    if (peer === undefined) return;
    this.sent++;
    const p = fetch(`${this.#net.urls[peer]}/transaction`, {
      method: 'POST',
      headers: SUBMIT_HEADERS,
      body: this.#source().bytes,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    }).then(
      async (r) => {
        await r.arrayBuffer();
        if (r.status === 202) this.accepted++;
        else this.refused++;
      },
      () => {
        this.refused++;
      },
    );
    this.#pending.add(p);
    void p.finally(() => this.#pending.delete(p));
  }
}
