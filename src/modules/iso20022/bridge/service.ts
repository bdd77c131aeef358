// The bridge service (README): ISO 20022 messages in, signed ledger transactions out, durable records
// whose status follows the pipeline's events, XML reports and the audit manifest. One instance per node;
// all state lives in the instance and its store (two nodes may share a process).
//
// Exactly once: a message is planned and recorded synchronously up to the store write, so a concurrent
// copy sees the first one's record and never signs a second transaction: the same body is answered
// with that record (a replay, idempotency.ts), a different body under the same id is refused (409); the record and its
// signed transaction are durable before the transaction is submitted, so a crash at any point leaves
// either nothing or a record that `reconcile` settles, finds rejected, or resubmits (the ledger
// deduplicates by hash).

import { encodeFrame, FRAME_HEADER_BYTES } from '../../../codec/frame.js';
import { hash } from '../../../crypto/hash.js';
import type { EventEnvelope } from '../../../model/events.js';
import type { Instruction } from '../../../model/instructions.js';
import { SCHEMA } from '../../../model/schema.js';
import { SignedTransactionCodec, signTransaction } from '../../../model/transaction.js';
import { fromHex, toHex } from '../../../util/hex.js';
import type { XmlLimits } from '../limits.js';
import type { ReferenceData } from '../reference-data.js';
import { AuditAnchorer } from './anchor.js';
import { type AuditPage, auditPage } from './audit-page.js';
import { checkDebits, checkInstructingAgent } from './authorise.js';
import { settleCancellations } from './cancellations.js';
import { BridgeError } from './errors.js';
import { requestDigest, sameRequest, withRequestDigest } from './idempotency.js';
import { messageIdOf, parseRouted, planOf } from './kinds.js';
import { notAuthorised, type Participants } from './participants.js';
import type { PlanContext } from './plan.js';
import type { BridgeLedgerPort, LedgerTxStatus } from './ports.js';
import { awaitsLedger, type BridgeRecord, BridgeRecordCodec, isFinal, type Submitted } from './record.js';
import { buildReport } from './reports.js';
import type { ReportKind, RoutedKind } from './routed-kinds.js';
import type { BridgeSigner } from './signer.js';
import { expiredReason, paymentReason } from './status.js';
import type { BridgeStore, RecordChange, StoreWrite } from './store.js';
import { SubmissionBatcher } from './submitter.js';
import { consequences, queued, rejected, settled } from './transitions.js';

export interface BridgeOptions {
  readonly ledger: BridgeLedgerPort;
  readonly signer: BridgeSigner;
  readonly store: BridgeStore;
  readonly reference: ReferenceData;
  /** Who may submit (participants.ts); keyed by account id. */
  readonly participants: Participants;
  readonly xmlLimits: Partial<XmlLimits>;
  /** How long a message the pipeline refused as busy (queue full) waits before it is sent again. */
  readonly retryIntervalMs: number;
  /** Transactions handed to the ledger in one `submitMany` call at most (submitter.ts). */
  readonly submitBatchMax: number;
  /** Store or ledger failures outside a request (event handling, anchoring). */
  readonly onError?: (e: unknown) => void;
}

export class Bridge {
  /** Transaction hash → message id, for records awaiting the ledger. */
  private readonly watched = new Map<string, string>();
  /** Messages whose transaction was handed to the pipeline by this process. */
  private readonly sent = new Set<string>();
  /** Messages refused as busy, sent again by the retry timer. */
  private readonly waiting = new Set<string>();
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private unsubscribe: (() => void) | undefined;
  private closed = false;
  private readonly anchorer: AuditAnchorer;
  private readonly submitter: SubmissionBatcher;

  private constructor(private readonly o: BridgeOptions) {
    this.submitter = new SubmissionBatcher(o.ledger, o.submitBatchMax);
    this.anchorer = new AuditAnchorer(
      o.store,
      o.ledger,
      o.signer,
      (e) => this.fail(e),
      () => this.scheduleRetry(),
    );
  }

  get account(): string {
    return this.o.signer.account;
  }

  /** Opens the bridge: watches pending records, then settles or resubmits them (README "Restarts"). */
  static async start(o: BridgeOptions): Promise<Bridge> {
    const b = new Bridge(o);
    const pending = o.store.pendingIds().flatMap((id) => o.store.get(id) ?? []);
    for (const r of pending)
      if (r.transactionHash !== undefined) b.watched.set(r.transactionHash, r.messageId);
    b.unsubscribe = o.ledger.subscribe((e) => b.onEvent(e));
    await b.reconcile(pending);
    await b.anchorer.reconcile();
    b.anchorer.maybeAnchor();
    return b;
  }

  /**
   * Submits a message on behalf of the participant that signed the request (`signer`, an account id).
   * `undefined` skips the participant checks: only for tests that show the ledger's own limit (the
   * executor refuses debits nobody granted the bridge account).
   */
  async submit(kind: RoutedKind, body: string | object, signer: string | undefined): Promise<Submitted> {
    if (this.closed)
      throw new BridgeError('iso_bridge_unavailable', 'the bridge is closed', { reason: 'closed' });
    const participant = signer === undefined ? undefined : this.participant(signer);
    const ctx = this.context(body);
    const message = parseRouted(kind, body, ctx);
    if (participant !== undefined) checkInstructingAgent(message, participant);
    const id = messageIdOf(message, body);
    const digest = requestDigest(body);
    const existing = this.o.store.get(id);
    if (existing !== undefined) {
      await this.o.store.whenDurable(id);
      if (existing.kind !== kind || !sameRequest(existing, digest)) throw duplicate(existing);
      return { record: this.o.store.get(id) ?? existing, replayed: true };
    }
    const plan = planOf(message, ctx);
    if (participant !== undefined) checkDebits(plan.instructions, participant, this.o.reference);
    const signed = plan.instructions.length === 0 ? undefined : this.sign(id, kind, plan.instructions);
    const planned = withRequestDigest(plan.record, digest);
    const record = signed === undefined ? planned : { ...planned, transactionHash: signed.hashHex };
    const write: StoreWrite = {
      changes: [{ record, event: 'received' }, ...plan.linked],
      ...(signed === undefined ? {} : { transactions: [[id, signed.bytes] as const] }),
    };
    if (signed !== undefined) this.watched.set(signed.hashHex, id);
    await this.o.store.apply(write);
    this.anchorer.maybeAnchor();
    if (signed !== undefined) await this.send(id, signed.bytes);
    return { record: this.o.store.get(id) ?? record, replayed: false };
  }

  /** The participant signing as `account`, or 403 `iso_participant_not_authorised`. */
  participant(account: string) {
    const p = this.o.participants.get(account);
    if (p === undefined) throw notAuthorised('not_a_participant', `${account} is not a bridge participant`);
    return p;
  }

  /** The record of a message, or 404 `iso_message_not_found`. */
  record(messageId: string): BridgeRecord {
    const r = this.o.store.get(messageId);
    if (r === undefined) {
      throw new BridgeError('iso_message_not_found', `no bridge message ${messageId}`, {
        message_id: messageId,
      });
    }
    return r;
  }

  report(messageId: string, report: ReportKind): string {
    return buildReport(this.record(messageId), report, (id) => this.o.store.get(id));
  }

  audit(offset: number, limit: number): AuditPage {
    return auditPage(this.o.store, offset, limit, this.anchorer.pending());
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.submitter.close();
    this.unsubscribe?.();
    if (this.retryTimer !== undefined) clearTimeout(this.retryTimer);
    await this.o.store.close();
  }

  private context(body: string | object): PlanContext {
    return {
      chainId: this.o.ledger.chainId,
      bridgeAccount: this.o.signer.account,
      reference: this.o.reference,
      nowMs: this.o.ledger.nowMs(),
      xmlLimits: this.o.xmlLimits,
      body,
      assetScale: (d) => this.o.ledger.assetScale(d),
      record: (id) => this.o.store.get(id),
      inPipeline: (id) => this.sent.has(id),
    };
  }

  private sign(id: string, kind: string, instructions: readonly Instruction[]) {
    const tx = signTransaction(
      {
        chainId: this.o.ledger.chainId,
        authority: this.o.signer.account,
        creationTimeMs: this.o.ledger.nowMs(),
        instructions: [...instructions],
        // The message id makes each message's transaction unique, and ties it to its record on the ledger.
        metadata: new Map([
          ['iso20022_message_id', id],
          ['iso20022_kind', kind],
        ]),
      },
      this.o.signer,
    );
    const bytes = encodeFrame(SCHEMA, SignedTransactionCodec, tx);
    // The transaction hash is over the frame's payload (model/transaction.ts transactionHash): no second encoding.
    return { bytes, hashHex: toHex(hash(bytes.subarray(FRAME_HEADER_BYTES))) };
  }

  /** Hands a recorded transaction to the pipeline (first time, busy retry, or after a restart). */
  private async send(id: string, bytes: Uint8Array): Promise<void> {
    const r = this.o.store.get(id);
    if (r === undefined || !awaitsLedger(r) || r.pacs002Code === 'RJCT') return;
    this.sent.add(id);
    this.waiting.delete(id);
    const outcome = await this.submitter.submit(bytes);
    if (this.closed) return; // the store is closing: the next start settles the record from the ledger
    switch (outcome.kind) {
      case 'queued':
        return this.update(id, 'queued', (x) => queued(x, this.o.ledger.nowMs()));
      case 'duplicate': {
        const status = await this.o.ledger.status(fromHex(r.transactionHash!, 32)!);
        if (status.kind !== 'unknown') return this.applyStatus(id, status);
        return this.update(id, 'queued', (x) => queued(x, this.o.ledger.nowMs()));
      }
      case 'rejected':
        return this.applyStatus(id, {
          kind: 'rejected',
          height: -1,
          code: outcome.code,
          message: outcome.message,
        });
      case 'busy':
        this.sent.delete(id);
        this.waiting.add(id);
        this.scheduleRetry();
    }
  }

  private scheduleRetry(): void {
    if (this.retryTimer !== undefined || this.closed) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.anchorer.maybeAnchor();
      for (const id of [...this.waiting]) {
        const bytes = this.o.store.signedTransaction(id);
        if (bytes !== undefined) this.send(id, bytes).catch((e) => this.fail(e));
      }
    }, this.o.retryIntervalMs);
    this.retryTimer.unref?.();
  }

  private onEvent(env: EventEnvelope): void {
    const e = env.event;
    if (e.kind === 'Block') {
      if (e.status.kind === 'Applied') this.anchorer.maybeAnchor();
      return;
    }
    if (e.kind !== 'Transaction') return;
    const s = e.status;
    let status: LedgerTxStatus;
    if (s.kind === 'Committed') status = { kind: 'committed', height: e.blockHeight ?? 0 };
    else if (s.kind === 'Rejected') {
      const index = s.reason.instructionIndex;
      status = {
        kind: 'rejected',
        height: e.blockHeight ?? -1,
        code: s.reason.code,
        message: s.reason.message,
        ...(index === undefined ? {} : { instructionIndex: index }),
      };
    } else if (s.kind === 'Expired') status = { kind: 'expired' };
    else return;
    const hex = toHex(e.hash);
    if (this.anchorer.pending()?.transactionHash === hex) {
      this.anchorer.settle(hex, status).then(
        () => this.anchorer.maybeAnchor(),
        (err) => this.fail(err),
      );
      return;
    }
    const id = this.watched.get(hex);
    if (id !== undefined) this.applyStatus(id, status);
  }

  private applyStatus(id: string, s: LedgerTxStatus): void {
    const now = this.o.ledger.nowMs();
    if (s.kind === 'committed') {
      const at = this.o.ledger.blockTimeMs(s.height) ?? now;
      this.update(id, 'settled', (r) => settled(r, s.height, at, now));
    } else if (s.kind === 'rejected') {
      const reason = paymentReason(s.code, s.message);
      const rejection = { code: s.code, instructionIndex: s.instructionIndex };
      this.update(id, 'rejected', (r) =>
        rejected(r, reason, rejection, s.height < 0 ? undefined : s.height, now),
      );
    } else if (s.kind === 'expired') {
      this.update(id, 'rejected', (r) => rejected(r, expiredReason(), undefined, undefined, now));
    }
  }

  /** Applies one transition and, when it is final, what follows from it, in one store write. */
  private update(id: string, event: string, change: (r: BridgeRecord) => BridgeRecord | undefined): void {
    const current = this.o.store.get(id);
    const next = current === undefined ? undefined : change(current);
    if (next === undefined) return;
    const changes: RecordChange[] = [{ record: next, event }];
    if (isFinal(next)) {
      if (next.transactionHash !== undefined) this.watched.delete(next.transactionHash);
      this.sent.delete(id);
      this.waiting.delete(id);
      changes.push(...consequences(next, (x) => this.o.store.get(x), this.o.ledger.nowMs()));
    }
    this.write({ changes });
  }

  private write(w: StoreWrite): void {
    try {
      this.o.store.apply(w).then(
        () => this.anchorer.maybeAnchor(),
        (e) => this.fail(e),
      );
    } catch (e) {
      this.fail(e);
    }
  }

  private async reconcile(pending: readonly BridgeRecord[]): Promise<void> {
    for (const r of pending) {
      if (!awaitsLedger(r) || r.transactionHash === undefined) continue;
      const status = await this.o.ledger.status(fromHex(r.transactionHash, 32)!);
      if (status.kind !== 'unknown') this.applyStatus(r.messageId, status);
      else {
        const bytes = this.o.store.signedTransaction(r.messageId);
        if (bytes !== undefined) await this.send(r.messageId, bytes);
      }
    }
    // Cancellations still pending whose original reached its final status while the node was down.
    for (const r of pending) {
      if (r.kind !== 'camt056' || r.resolution !== 'PECR' || r.originalMessageId === undefined) continue;
      const original = this.o.store.get(r.originalMessageId);
      if (original === undefined || !isFinal(original)) continue;
      const changes = settleCancellations(original, (x) => this.o.store.get(x), this.o.ledger.nowMs());
      this.write({
        changes: changes.map((c) => ({
          record: c,
          event: c.resolution === 'CNCL' ? 'cancelled' : 'cancellation_rejected',
        })),
      });
    }
  }

  private fail(e: unknown): void {
    this.o.onError?.(e);
  }
}

function duplicate(existing: BridgeRecord): BridgeError {
  const what = `message ${existing.messageId} was already received with a different body`;
  return new BridgeError('iso_duplicate_message', what, {
    message_id: existing.messageId,
    record: BridgeRecordCodec.toJson(existing),
  });
}
