// The node-local signal box (docs/conference.md "Signalling"): encrypted offers the host of a call posts
// for its participants, and the encrypted answers participants committed in JoinConference. The box
// stores envelopes as opaque bytes: it never holds a key that opens them.
//
// Bounds (conference.signal_* in the config schema): offers per call (a new offer for the same
// participant replaces the old one), envelope size, a time to live for every record, and a total of
// envelope bytes plus a fixed per-record charge, so memory stays bounded whatever clients post. An offer
// that does not fit is refused; an answer (already on the ledger) evicts the oldest records instead.
//
// Ids: max(previous + 1, now × 1000). They grow across restarts as long as the clock does, so a client
// resuming with Last-Event-ID after a restart of the node does not skip new signals.

import type { StreamEvent } from '../gateway/sse-frame.js';
import type { EventFeed } from '../gateway/sse-session.js';

export interface SignalLimits {
  offersPerCallMax: number;
  answersPerCallMax: number;
  envelopeBytesMax: number;
  ttlMs: number;
  /** Envelope bytes plus RECORD_CHARGE_BYTES per record, over every call. */
  bytesMax: number;
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
  | { ok: false; code: 'conference_signal_store_full'; bytesMax: number };

interface CallSignals {
  offers: Map<string, number>;
  answers: number[];
}

const cost = (r: { envelope: Uint8Array }) => r.envelope.length + RECORD_CHARGE_BYTES;

export class SignalBox {
  private readonly records = new Map<number, SignalRecord>();
  private readonly calls = new Map<string, CallSignals>();
  private readonly listeners = new Set<(r: SignalRecord) => void>();
  private bytes = 0;
  private last = 0;

  constructor(
    readonly limits: SignalLimits,
    private readonly now: () => number,
  ) {}

  get storedBytes(): number {
    return this.bytes;
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
    const freed = replaced.reduce((n, o) => n + cost(this.records.get(call!.offers.get(o.to)!)!), 0);
    const added = offers.reduce((n, o) => n + cost(o), 0);
    if (this.bytes - freed + added > this.limits.bytesMax)
      return { ok: false, code: 'conference_signal_store_full', bytesMax: this.limits.bytesMax };
    const records = offers.map((o) => this.store({ callId, kind: 'offer', from: host, ...o }));
    return { ok: true, records };
  }

  /**
   * Stores a committed answer, evicting the oldest records if the box is full. `atMs`: when it was
   * committed (block time), for answers read back from blocks after a restart; already expired ones are
   * not stored.
   */
  addAnswer(
    a: Omit<SignalRecord, 'id' | 'kind' | 'atMs' | 'expiresAtMs'>,
    atMs?: number,
  ): SignalRecord | undefined {
    this.sweep();
    if (cost(a) > this.limits.bytesMax) return undefined;
    if (atMs !== undefined && atMs + this.limits.ttlMs <= this.now()) return undefined;
    while (this.bytes + cost(a) > this.limits.bytesMax) this.remove(this.records.keys().next().value!);
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
      subscribe: (fn) => {
        const listener = (r: SignalRecord) => {
          if (r.callId === callId && visible(r)) fn(toEvent(r));
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
    } else {
      call.answers.push(record.id);
      if (call.answers.length > this.limits.answersPerCallMax) this.remove(call.answers[0]!);
    }
    // remove() may have dropped the call's entry when it emptied it: set it again.
    this.calls.set(r.callId, call);
    this.records.set(record.id, record);
    this.bytes += cost(record);
    for (const fn of this.listeners) fn(record);
    return record;
  }

  private remove(id: number): void {
    const r = this.records.get(id);
    if (r === undefined) return;
    this.records.delete(id);
    this.bytes -= cost(r);
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
