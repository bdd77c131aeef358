// The node-local signal box (docs/conference.md "Signalling"): encrypted offers the host of a call posts
// for its participants, and the encrypted answers participants committed in JoinConference. The box
// stores envelopes as opaque bytes: it never holds a key that opens them.
//
// Bounds (conference.signal_* in the config schema): offers per call (a new offer for the same
// participant replaces the old one), envelope size, a time to live for every record, a quota of offer
// records and bytes per host (the signing account), and two totals of envelope bytes plus a fixed
// per-record charge: one for offers, one for answers, so memory stays bounded whatever clients post.
// An offer that does not fit is refused. An answer (already on the ledger) that does not fit evicts the
// oldest answers of its own call only: one host's traffic never pushes out another call's signals. If
// its call has no answer left to evict, the answer is not kept (it stays readable in its block).
//
// Ids: max(previous + 1, now × 1000). They grow across restarts as long as the clock does, so a client
// resuming with Last-Event-ID after a restart of the node does not skip new signals.

import { EventBatch } from '../../gateway/event-batch.js';
import type { StreamEvent } from '../../gateway/sse-frame.js';
import type { EventFeed } from '../../gateway/sse-session.js';

export interface SignalLimits {
  offersPerCallMax: number;
  answersPerCallMax: number;
  envelopeBytesMax: number;
  ttlMs: number;
  /** Offers: envelope bytes plus RECORD_CHARGE_BYTES per record, over every call. */
  bytesMax: number;
  /** Answers: the same charge, over every call; a budget apart from the offers'. */
  answerBytesMax: number;
  /** Offers one host (signer) may hold over all its calls: charged bytes, and records. */
  hostBytesMax: number;
  hostRecordsMax: number;
}

/** What one stored record is charged on top of its envelope (ids, keys, maps). */
export const RECORD_CHARGE_BYTES = 512;

export type SignalRecordKind = 'offer' | 'answer';

export interface SignalRecord {
  id: number;
  callId: string;
  kind: SignalRecordKind;
  from: string;
  to: string;
  envelope: Uint8Array;
  atMs: number;
  expiresAtMs: number;
  /** Answers: where JoinConference committed. */
  height?: number;
  transactionHash?: string;
}

export interface OfferInput {
  to: string;
  envelope: Uint8Array;
}

export type PostOutcome =
  | { ok: true; records: SignalRecord[] }
  | { ok: false; code: 'conference_signal_offers_full'; limit: number; count: number }
  | { ok: false; code: 'conference_signal_store_full'; bytesMax: number }
  | {
      ok: false;
      code: 'conference_signal_host_quota_exceeded';
      quota: 'bytes' | 'records';
      limit: number;
      wanted: number;
      /** When the host's oldest offer expires (its quota frees without any action of its own). */
      retryAfterMs: number;
    };

interface CallSignals {
  offers: Map<string, number>;
  answers: number[];
}

/** One host's offers: ids in insertion (= id) order, and their charged bytes. */
interface HostOffers {
  ids: Set<number>;
  bytes: number;
}

const cost = (r: { envelope: Uint8Array }) => r.envelope.length + RECORD_CHARGE_BYTES;

export class SignalBox {
  private readonly records = new Map<number, SignalRecord>();
  private readonly calls = new Map<string, CallSignals>();
  private readonly listeners = new Set<(r: SignalRecord) => void>();
  private readonly hosts = new Map<string, HostOffers>();
  private offerBytes = 0;
  private answerBytes = 0;
  private last = 0;

  constructor(
    readonly limits: SignalLimits,
    private readonly now: () => number,
  ) {}

  /** Charged bytes of every record, offers and answers. */
  get storedBytes(): number {
    return this.offerBytes + this.answerBytes;
  }

  /** Charged bytes and records of the offers `host` holds. */
  hostUsage(host: string): { bytes: number; records: number } {
    this.sweep();
    const h = this.hosts.get(host);
    return { bytes: h?.bytes ?? 0, records: h?.ids.size ?? 0 };
  }

  get size(): number {
    return this.records.size;
  }

  lastId(): number {
    return this.last;
  }

  /** Stores all of `offers` from the host of `callId`, or none of them. */
  postOffers(callId: string, host: string, offers: readonly OfferInput[]): PostOutcome {
    this.sweep();
    const call = this.calls.get(callId);
    const replaced = offers.filter((o) => call?.offers.has(o.to) === true);
    const recipients = new Set(offers.map((o) => o.to));
    const count = (call?.offers.size ?? 0) + recipients.size - new Set(replaced.map((o) => o.to)).size;
    if (count > this.limits.offersPerCallMax)
      return { ok: false, code: 'conference_signal_offers_full', limit: this.limits.offersPerCallMax, count };
    const replacedRecords = [...new Set(replaced.map((o) => call!.offers.get(o.to)!))].map(
      (id) => this.records.get(id)!,
    );
    const freed = replacedRecords.reduce((n, r) => n + cost(r), 0);
    const added = offers.reduce((n, o) => n + cost(o), 0);
    const quota = this.hostQuota(host, replacedRecords, added, recipients.size);
    if (quota !== undefined) return quota;
    if (this.offerBytes - freed + added > this.limits.bytesMax)
      return { ok: false, code: 'conference_signal_store_full', bytesMax: this.limits.bytesMax };
    const records = offers.map((o) => this.store({ callId, kind: 'offer', from: host, ...o }));
    return { ok: true, records };
  }

  /**
   * Stores a committed answer. Over the answer budget it evicts the oldest answers of its own call, and
   * only those; when they are not enough the answer is not kept (undefined). `atMs`: when it was
   * committed (block time), for answers read back from blocks after a restart; expired ones are not kept.
   */
  addAnswer(
    a: Omit<SignalRecord, 'id' | 'kind' | 'atMs' | 'expiresAtMs'>,
    atMs?: number,
  ): SignalRecord | undefined {
    this.sweep();
    if (cost(a) > this.limits.answerBytesMax) return undefined;
    if (atMs !== undefined && atMs + this.limits.ttlMs <= this.now()) return undefined;
    const own = this.calls.get(a.callId)?.answers ?? [];
    const evict: number[] = [];
    let bytes = this.answerBytes;
    for (const id of own) {
      if (bytes + cost(a) <= this.limits.answerBytesMax) break;
      bytes -= cost(this.records.get(id)!);
      evict.push(id);
    }
    if (bytes + cost(a) > this.limits.answerBytesMax) return undefined;
    for (const id of evict) this.remove(id);
    return this.store({ ...a, kind: 'answer' }, atMs);
  }

  /** The current offer of `callId` for `to`. */
  offer(callId: string, to: string): SignalRecord | undefined {
    this.sweep();
    const id = this.calls.get(callId)?.offers.get(to);
    const r = id === undefined ? undefined : this.records.get(id);
    return r !== undefined && r.expiresAtMs > this.now() ? r : undefined;
  }

  /** The call's records with id > afterId that `viewer` may see, in id order. */
  signals(callId: string, afterId: number, visible: (r: SignalRecord) => boolean): SignalRecord[] {
    this.sweep();
    const call = this.calls.get(callId);
    if (call === undefined) return [];
    const ids = [...call.offers.values(), ...call.answers].filter((id) => id > afterId).sort((a, b) => a - b);
    // Answers read back from blocks may expire before records stored after them: the sweep stops at
    // the first live record, so expiry is checked here too.
    const now = this.now();
    return ids.map((id) => this.records.get(id)!).filter((r) => r.expiresAtMs > now && visible(r));
  }

  /** A feed of one call's signals for an SSE session (sse-session.ts), as `toEvent` renders them. */
  feed(
    callId: string,
    visible: (r: SignalRecord) => boolean,
    toEvent: (r: SignalRecord) => StreamEvent,
  ): EventFeed {
    return {
      since: (lastId) => this.signals(callId, lastId, visible).map(toEvent),
      subscribe: (fn, filter) => {
        const listener = (r: SignalRecord) => {
          if (r.callId !== callId || !visible(r)) return;
          const e = toEvent(r);
          if (filter === undefined || filter.keep(e)) fn(new EventBatch([e]));
        };
        this.listeners.add(listener);
        return () => this.listeners.delete(listener);
      },
      lastId: () => this.last,
    };
  }

  /** Forgets every record of a call (it ended). */
  dropCall(callId: string): void {
    const call = this.calls.get(callId);
    if (call === undefined) return;
    for (const id of [...call.offers.values(), ...call.answers]) this.remove(id);
  }

  /** The refusal when `host`'s offers, with `replaced` gone and `added` bytes in `count` records, exceed its quota. */
  private hostQuota(
    host: string,
    replaced: readonly SignalRecord[],
    added: number,
    count: number,
  ): PostOutcome | undefined {
    const h = this.hosts.get(host);
    const own = replaced.filter((r) => r.from === host);
    const records = (h?.ids.size ?? 0) - own.length + count;
    const bytes = (h?.bytes ?? 0) - own.reduce((n, r) => n + cost(r), 0) + added;
    const over: ['bytes' | 'records', number, number] | undefined =
      bytes > this.limits.hostBytesMax
        ? ['bytes', this.limits.hostBytesMax, bytes]
        : records > this.limits.hostRecordsMax
          ? ['records', this.limits.hostRecordsMax, records]
          : undefined;
    if (over === undefined) return undefined;
    const oldest = h === undefined ? undefined : this.records.get(h.ids.values().next().value!);
    // With nothing stored, the request alone is over the quota: waiting will not help, but the header
    // still says "not before a TTL".
    const retryAfterMs = Math.max(1, (oldest?.expiresAtMs ?? this.now() + this.limits.ttlMs) - this.now());
    const [quota, limit, wanted] = over;
    return { ok: false, code: 'conference_signal_host_quota_exceeded', quota, limit, wanted, retryAfterMs };
  }

  private store(r: Omit<SignalRecord, 'id' | 'atMs' | 'expiresAtMs'>, at?: number): SignalRecord {
    const atMs = Math.min(at ?? this.now(), this.now());
    this.last = Math.max(this.last + 1, atMs * 1000);
    const record: SignalRecord = { ...r, id: this.last, atMs, expiresAtMs: atMs + this.limits.ttlMs };
    let call = this.calls.get(r.callId);
    if (call === undefined) {
      call = { offers: new Map(), answers: [] };
      this.calls.set(r.callId, call);
    }
    if (r.kind === 'offer') {
      const old = call.offers.get(r.to);
      if (old !== undefined) this.remove(old);
      call.offers.set(r.to, record.id);
      const host = this.hosts.get(r.from) ?? { ids: new Set<number>(), bytes: 0 };
      host.ids.add(record.id);
      host.bytes += cost(record);
      this.hosts.set(r.from, host);
      this.offerBytes += cost(record);
    } else {
      this.answerBytes += cost(record);
      call.answers.push(record.id);
      if (call.answers.length > this.limits.answersPerCallMax) this.remove(call.answers[0]!);
    }
    // remove() may have dropped the call's entry when it emptied it: set it again.
    this.calls.set(r.callId, call);
    this.records.set(record.id, record);
    for (const fn of this.listeners) fn(record);
    return record;
  }

  private remove(id: number): void {
    const r = this.records.get(id);
    if (r === undefined) return;
    this.records.delete(id);
    if (r.kind === 'offer') {
      this.offerBytes -= cost(r);
      const host = this.hosts.get(r.from);
      host?.ids.delete(id);
      if (host !== undefined) host.bytes -= cost(r);
      if (host?.ids.size === 0) this.hosts.delete(r.from);
    } else this.answerBytes -= cost(r);
    const call = this.calls.get(r.callId);
    if (call === undefined) return;
    if (r.kind === 'offer' && call.offers.get(r.to) === id) call.offers.delete(r.to);
    if (r.kind === 'answer') call.answers = call.answers.filter((a) => a !== id);
    if (call.offers.size === 0 && call.answers.length === 0) this.calls.delete(r.callId);
  }

  /** Drops expired records: every record has the same TTL, so they expire in id (insertion) order. */
  private sweep(): void {
    const now = this.now();
    for (const [id, r] of this.records) {
      if (r.expiresAtMs > now) break;
      this.remove(id);
    }
  }
}
