// The durable webhook state (README "Durability"): one LMDB environment under `<data>/webhooks/`, with
// registrations, pending deliveries, recent deliveries, dead letters and the intake cursor. Every change
// is applied to the in-memory mirror at once (so readers see their own writes) and queued; queued changes
// reach the disk together in the next LMDB transaction (group commit, fsync with `storage.fsync`), and
// `write()` resolves only once its changes are durable. The mirror is loaded whole at open: it is bounded
// by the webhook and queue limits (webhooks.*_max), never by the history of the chain.

import { mkdir } from 'node:fs/promises';
import { type Database, open as openLmdb, type RootDatabase } from 'lmdb';
import { closeLmdb, LMDB_WRITE_OPTIONS, settleCommitError } from '../../util/lmdb-writes.js';

export interface WebhookRecord {
  id: string;
  url: string;
  /** Write-only: never answered (`has_secret` instead). */
  secret?: string;
  /** The secret a rotation replaced, also signed with until `previousSecretUntilMs` (then dropped). */
  previousSecret?: string;
  previousSecretUntilMs?: number;
  /** When the secret was last rotated (POST /v1/webhooks/{id}/secret). */
  secretRotatedMs?: number;
  active: boolean;
  /** The filter expression as registered (event-filter.ts), null for every event. */
  filter: unknown;
  /** The signing account, or `operator` for a registration with operator credentials. */
  owner: string;
  createdMs: number;
  /** Events with ids above this one and matching the filter are delivered. */
  fromEventId: number;
  /** The id of the newest event delivered (the per-webhook cursor). */
  lastDeliveredEventId: number;
  lastError?: string;
  /** Events not queued because a queue was full (webhooks.queue_*_max). */
  dropped: number;
}

export type DeliveryState = 'pending' | 'delivered' | 'dead';

export interface Delivery {
  /** The idempotency key (`x-ledger-delivery-id`), unique per delivery; a replay keeps it. */
  id: string;
  webhookId: string;
  /** Order of deliveries within the node (ascending: delivery order of each webhook). */
  seq: number;
  eventId: number;
  /** The JSON body, built once at intake. */
  body: string;
  attempts: number;
  nextAtMs: number;
  createdMs: number;
  state: DeliveryState;
  lastError?: string;
  lastStatus?: number;
  doneMs?: number;
}

type Db = Database<unknown, string>;
type Op = { db: Db; key: string; value: unknown | undefined };

export class WebhookStore {
  private ops: Op[] = [];
  private waiters: Array<{ resolve(): void; reject(e: unknown): void }> = [];
  private flushing = false;
  private failure: unknown;
  private closed = false;

  private constructor(
    private readonly root: RootDatabase,
    private readonly hooksDb: Db,
    private readonly deliveriesDb: Db,
    private readonly metaDb: Db,
    private readonly fsync: boolean,
  ) {}

  static async open(dir: string, opts: { fsync: boolean }): Promise<WebhookStore> {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const root = openLmdb({
      path: dir,
      compression: false,
      noSync: !opts.fsync,
      maxDbs: 4,
      ...LMDB_WRITE_OPTIONS,
    });
    const db = (name: string) => root.openDB<unknown, string>({ name, encoding: 'json', compression: false });
    return new WebhookStore(root, db('hooks'), db('deliveries'), db('meta'), opts.fsync);
  }

  get healthy(): boolean {
    return this.failure === undefined && !this.closed;
  }

  loadHooks(): WebhookRecord[] {
    return [...this.hooksDb.getRange()].map((e) => e.value as WebhookRecord);
  }

  /** Every stored delivery (pending, recent delivered, dead), in no particular order. */
  loadDeliveries(): Delivery[] {
    return [...this.deliveriesDb.getRange()].map((e) => e.value as Delivery);
  }

  meta<T>(key: string): T | undefined {
    return this.metaDb.get(key) as T | undefined;
  }

  putHook(h: WebhookRecord): void {
    this.ops.push({ db: this.hooksDb, key: h.id, value: { ...h } });
  }

  removeHook(id: string): void {
    this.ops.push({ db: this.hooksDb, key: id, value: undefined });
  }

  putDelivery(d: Delivery): void {
    this.ops.push({ db: this.deliveriesDb, key: d.id, value: { ...d } });
  }

  removeDelivery(id: string): void {
    this.ops.push({ db: this.deliveriesDb, key: id, value: undefined });
  }

  putMeta(key: string, value: unknown): void {
    this.ops.push({ db: this.metaDb, key, value });
  }

  /** Resolves once every change queued so far is durable; rejects when the store failed or is closed. */
  write(): Promise<void> {
    if (this.failure !== undefined || this.closed)
      return Promise.reject(new Error(this.closed ? 'closed' : String(this.failure)));
    return new Promise((resolve, reject) => {
      this.waiters.push({ resolve, reject });
      if (!this.flushing) {
        this.flushing = true;
        void this.drain();
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.waiters.length > 0) {
      const ops = this.ops;
      const waiters = this.waiters;
      this.ops = [];
      this.waiters = [];
      try {
        if (this.failure !== undefined) throw this.failure;
        await this.root.transaction(() => {
          for (const op of ops) {
            if (op.value === undefined) op.db.removeSync(op.key);
            else op.db.putSync(op.key, op.value);
          }
        });
        if (this.fsync) await this.root.flushed;
        for (const w of waiters) w.resolve();
      } catch (e) {
        // A failed transaction (a full disk) fails the store; its second rejection is handled here.
        settleCommitError(e);
        this.failure ??= e;
        for (const w of waiters) w.reject(e);
      }
    }
    this.flushing = false;
  }

  /** Writes what is queued, then closes LMDB. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    if (this.ops.length > 0) await this.write().catch(() => undefined);
    while (this.flushing) await new Promise((r) => setImmediate(r));
    this.closed = true;
    await closeLmdb(this.root, this.failure !== undefined);
  }
}
