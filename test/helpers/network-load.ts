// Steady load for multi-process network tests: signed transfers and domain registrations sent through
// the SDK to the peers round-robin at a target rate. Every transaction a peer accepts (202) is
// recorded, and `checkCommittedEverywhere` then shows that each one reported committed by any peer is
// present on every peer (every transaction acknowledged with 202 and then reported committed must be
// present on every peer).

import { ToranaClient } from '../../src/sdk/client.js';
import { ToranaApiError } from '../../src/sdk/errors.js';
import { instructions as ix } from '../../src/sdk/instructions.js';
import { accountOf, type Ed25519KeyPair, generateKeyPair } from '../../src/sdk/keys.js';

export interface LoadAccount {
  id: string;
  key: Ed25519KeyPair;
}

export interface LoadOptions {
  /** Gateway URL of every peer the load may go to (indexes below are into this list). */
  urls: string[];
  chainId: string;
  /** An account holding `Admin` (the testnet's admin, TestNetwork.admin()). */
  admin: LoadAccount;
  /** Peers to send to, round-robin (default all). */
  targets?: number[];
  /** Transactions per second (default 20). */
  ratePerSecond?: number;
  /** Share of domain registrations among the transactions, 0..1 (default 0.2; the rest are transfers). */
  domainShare?: number;
  /** Transactions in flight at most; past it the generator falls behind its rate (default 64). */
  inFlightMax?: number;
  /** Senders of transfers (default 4), so no single account's queue cap limits the rate. */
  senders?: number;
}

export interface AcceptedTx {
  hash: string;
  peer: number;
  kind: 'transfer' | 'domain';
  sentAtMs: number;
}

export interface LoadReport {
  sent: number;
  accepted: number;
  /** Answers that were not 202, by error code (`transport` for no answer). */
  refused: Record<string, number>;
}

export interface PresenceReport {
  /** Accepted transactions committed on at least one peer. */
  committed: number;
  /** Accepted transactions committed nowhere (yet). */
  notCommitted: number;
  /** Committed somewhere but absent from these peers. */
  missing: { hash: string; peers: number[] }[];
}

const ASSET = 'load#system';

export class LoadGenerator {
  readonly accepted: AcceptedTx[] = [];
  private readonly refused: Record<string, number> = {};
  private readonly clients: ToranaClient[];
  private readonly senders: LoadAccount[] = [];
  private sent = 0;
  private nonce = 0;
  private next = 0;
  private inFlight = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly opts: LoadOptions) {
    this.clients = opts.urls.map((url) => new ToranaClient({ url, chainId: opts.chainId, retries: 0 }));
  }

  private adminClient(peer: number): ToranaClient {
    const { admin, chainId } = this.opts;
    return new ToranaClient({ url: this.opts.urls[peer]!, chainId, account: admin.id, signer: admin.key });
  }

  /** Registers the asset and the senders and funds them (committed before it resolves). */
  async setup(peer = this.opts.targets?.[0] ?? 0): Promise<void> {
    const admin = this.adminClient(peer);
    const n = this.opts.senders ?? 4;
    for (let i = 0; i < n; i++) {
      const key = generateKeyPair();
      this.senders.push({ id: accountOf(key, 'system'), key });
    }
    const setup = [
      ix.registerAssetDefinition(ASSET),
      ...this.senders.map((s) => ix.registerAccount(s.id)),
      ...this.senders.map((s) => ix.mintAsset(ASSET, s.id, '1000000000')),
    ];
    await admin.submitAndWait(await admin.build(setup), { timeoutMs: 30_000 });
  }

  /** Starts sending at the target rate until stop(). */
  start(): void {
    if (this.senders.length === 0) throw new Error('LoadGenerator: call setup() first');
    const rate = this.opts.ratePerSecond ?? 20;
    const started = Date.now();
    this.timer = setInterval(() => {
      const due = Math.floor(((Date.now() - started) * rate) / 1000) - this.sent;
      const room = (this.opts.inFlightMax ?? 64) - this.inFlight;
      for (let k = 0; k < Math.min(due, room); k++) this.track(this.sendOne());
    }, 20);
  }

  private track(p: Promise<void>): void {
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p));
  }

  private async sendOne(): Promise<void> {
    const targets = this.opts.targets ?? this.opts.urls.map((_, i) => i);
    const peer = targets[this.next++ % targets.length]!;
    const n = this.sent++;
    this.inFlight++;
    const isDomain = Math.random() < (this.opts.domainShare ?? 0.2);
    const sender = isDomain ? this.opts.admin : this.senders[n % this.senders.length]!;
    const to = this.senders[(n + 1) % this.senders.length]!;
    const instruction = isDomain
      ? ix.registerDomain(`load-${n}-${Date.now()}`)
      : ix.transferAsset(ASSET, sender.id, to.id, '1');
    const client = new ToranaClient({
      url: this.opts.urls[peer]!,
      chainId: this.opts.chainId,
      account: sender.id,
      signer: sender.key,
      retries: 0,
    });
    try {
      const tx = await client.build([instruction], { nonce: this.nonce++ });
      const sentAtMs = Date.now();
      await client.submit(tx);
      this.accepted.push({ hash: tx.hash, peer, kind: isDomain ? 'domain' : 'transfer', sentAtMs });
    } catch (e) {
      const code = e instanceof ToranaApiError ? e.code : 'transport';
      this.refused[code] = (this.refused[code] ?? 0) + 1;
    } finally {
      this.inFlight--;
    }
  }

  /** Stops sending and waits for the answers of what is in flight. */
  async stop(): Promise<LoadReport> {
    clearInterval(this.timer);
    await Promise.all([...this.pending]);
    return { sent: this.sent, accepted: this.accepted.length, refused: { ...this.refused } };
  }

  /** Whether `hash` is committed on `peer` (GET /v1/explorer/transactions/:hash answers it). */
  async committedOn(peer: number, hash: string): Promise<boolean> {
    try {
      await this.clients[peer]!.get(`/v1/explorer/transactions/${hash}`);
      return true;
    } catch (e) {
      if (e instanceof ToranaApiError && e.code === 'not_found') return false;
      throw e;
    }
  }

  /**
   * Every accepted transaction committed on any of `peers` must be on all of them: `missing` lists the
   * ones that are not. Looks up 16 transactions at a time.
   */
  async checkCommittedEverywhere(peers: number[] = this.opts.urls.map((_, i) => i)): Promise<PresenceReport> {
    const report: PresenceReport = { committed: 0, notCommitted: 0, missing: [] };
    const txs = [...this.accepted];
    for (let k = 0; k < txs.length; k += 16) {
      const batch = txs.slice(k, k + 16);
      const found = await Promise.all(
        batch.map((tx) => Promise.all(peers.map((p) => this.committedOn(p, tx.hash)))),
      );
      batch.forEach((tx, b) => {
        const on = found[b]!;
        if (!on.some(Boolean)) {
          report.notCommitted++;
          return;
        }
        report.committed++;
        const absent = peers.filter((_, q) => !on[q]);
        if (absent.length > 0) report.missing.push({ hash: tx.hash, peers: absent });
      });
    }
    return report;
  }

  /**
   * Polls checkCommittedEverywhere until every accepted transaction is committed on every one of
   * `peers` (or the time is up) and returns the last report.
   */
  async waitCommittedEverywhere(
    peers: number[] = this.opts.urls.map((_, i) => i),
    timeoutMs = 30_000,
  ): Promise<PresenceReport> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const r = await this.checkCommittedEverywhere(peers);
      if ((r.notCommitted === 0 && r.missing.length === 0) || Date.now() > deadline) return r;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}
