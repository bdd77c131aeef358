// Anchoring the audit chain in the ledger (README "Audit manifest"). Whenever durable entries are not
// yet covered, and no anchor is in flight, the bridge account signs one transaction with a SetKeyValue
// on its own account metadata: `iso20022_audit = {from_seq, to_seq, root, head}`. It runs after every
// block with bridge activity (and after writes that caused no block), so each block's bridge events are
// anchored by a later block. At most one anchor is in flight; it is kept in the store with its signed
// transaction and resubmitted after a restart, exactly like a message's transfer.

import { decode, encode, encodeFrame } from '../../../codec/frame.js';
import { SCHEMA } from '../../../model/schema.js';
import { SignedTransactionCodec, signTransaction, transactionHash } from '../../../model/transaction.js';
import { fromHex, toHex } from '../../../util/hex.js';
import {
  AUDIT_ANCHOR_ENTRIES_MAX,
  AUDIT_METADATA_KEY,
  type AuditAnchor,
  AuditAnchorCodec,
  anchorMetadata,
  rangeRoot,
} from './audit.js';
import type { BridgeLedgerPort, LedgerTxStatus } from './ports.js';
import type { BridgeSigner } from './signer.js';
import { type BridgeStore, META_PENDING_ANCHOR, META_PENDING_ANCHOR_TX } from './store.js';

const LIMITS = { bytesMax: 64 * 1024, itemsMax: 16, depthMax: 8 };

export class AuditAnchorer {
  private inFlight: AuditAnchor | undefined;
  private busy = false;
  /**
   * The newest committed anchor, kept in memory and advanced as soon as a commit is seen, before the
   * store write lands: the next anchor must start after it even if it is planned in between.
   */
  private last: { index: number; toSeq: number };
  /** After a rejected anchor, wait for new entries before trying again (no block-after-block churn). */
  private refusedAtSeq = 0;

  constructor(
    private readonly store: BridgeStore,
    private readonly ledger: BridgeLedgerPort,
    private readonly signer: BridgeSigner,
    private readonly onError: (e: unknown) => void,
    /** Asks the bridge to call maybeAnchor again later (the queue was full). */
    private readonly retryLater: () => void,
  ) {
    const latest = store.latestAnchor();
    this.last = { index: latest?.index ?? 0, toSeq: latest?.toSeq ?? 0 };
    const bytes = store.metaBytes(META_PENDING_ANCHOR);
    const d = bytes === undefined ? undefined : decode(AuditAnchorCodec, bytes, LIMITS);
    this.inFlight = d?.ok === true ? d.value : undefined;
  }

  /** The anchor in flight, if any (its transaction hash is watched by the bridge). */
  pending(): AuditAnchor | undefined {
    return this.inFlight;
  }

  /** After a restart: settle or resubmit the anchor that was in flight. */
  async reconcile(): Promise<void> {
    const a = this.inFlight;
    if (a === undefined) return;
    const status = await this.ledger.status(fromHex(a.transactionHash, 32) ?? new Uint8Array(32));
    if (status.kind === 'unknown') {
      const tx = this.store.metaBytes(META_PENDING_ANCHOR_TX);
      if (tx !== undefined) await this.ledger.submit(tx);
      return;
    }
    await this.settle(a.transactionHash, status);
  }

  /** Called after each block and each store write: anchors what is durable and not yet anchored. */
  maybeAnchor(): void {
    if (this.inFlight !== undefined || this.busy) return;
    const from = this.last.toSeq + 1;
    const durable = this.store.durableHead().seq;
    if (durable < from || durable <= this.refusedAtSeq) return;
    const to = Math.min(durable, from + AUDIT_ANCHOR_ENTRIES_MAX - 1);
    this.busy = true;
    this.anchor(from, to)
      .catch(this.onError)
      .finally(() => {
        this.busy = false;
      });
  }

  private async anchor(fromSeq: number, toSeq: number): Promise<void> {
    const hashes = this.store.entryHashes(fromSeq, toSeq);
    const fields = { fromSeq, toSeq, root: rangeRoot(hashes), head: hashes[hashes.length - 1]! };
    const tx = signTransaction(
      {
        chainId: this.ledger.chainId,
        authority: this.signer.account,
        creationTimeMs: this.ledger.nowMs(),
        instructions: [
          {
            kind: 'SetKeyValue',
            target: { kind: 'Account', id: this.signer.account },
            key: AUDIT_METADATA_KEY,
            value: anchorMetadata(fields),
          },
        ],
        metadata: new Map(),
      },
      this.signer,
    );
    const anchor: AuditAnchor = {
      ...fields,
      index: this.last.index + 1,
      transactionHash: toHex(transactionHash(tx)),
      status: 'Pending',
    };
    const bytes = encodeFrame(SCHEMA, SignedTransactionCodec, tx);
    this.inFlight = anchor;
    await this.store.apply({
      changes: [],
      meta: [
        [META_PENDING_ANCHOR, encode(AuditAnchorCodec, anchor)],
        [META_PENDING_ANCHOR_TX, bytes],
      ],
    });
    const r = await this.ledger.submit(bytes);
    // Refused at admission (never expected: the bridge signs for its own chain) or a full queue: drop it
    // and anchor the same range (and anything newer) later.
    if (r.kind === 'rejected') await this.drop();
    if (r.kind === 'busy') {
      // A full queue is not a refusal: the same range may be anchored as soon as the timer fires.
      this.inFlight = undefined;
      await this.store.apply({
        changes: [],
        meta: [
          [META_PENDING_ANCHOR, undefined],
          [META_PENDING_ANCHOR_TX, undefined],
        ],
      });
      this.retryLater();
    }
  }

  /** The anchor transaction reached a final status. */
  async settle(hashHex: string, status: LedgerTxStatus): Promise<void> {
    const a = this.inFlight;
    if (a === undefined || a.transactionHash !== hashHex) return;
    if (status.kind !== 'committed') return this.drop();
    this.inFlight = undefined;
    this.last = { index: a.index, toSeq: a.toSeq };
    await this.store.apply({
      changes: [],
      committedAnchor: { ...a, status: 'Committed', blockHeight: status.height },
      meta: [
        [META_PENDING_ANCHOR, undefined],
        [META_PENDING_ANCHOR_TX, undefined],
      ],
    });
  }

  private async drop(): Promise<void> {
    this.refusedAtSeq = this.inFlight?.toSeq ?? this.refusedAtSeq;
    this.inFlight = undefined;
    await this.store.apply({
      changes: [],
      meta: [
        [META_PENDING_ANCHOR, undefined],
        [META_PENDING_ANCHOR_TX, undefined],
      ],
    });
  }
}
