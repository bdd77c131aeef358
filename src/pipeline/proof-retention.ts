// The ledger's side of proof pins (state/merkle/pins.ts, docs/ledger-proofs.md "Retention and pins"):
// the pinned heights its state tree keeps, the old values each block must keep for them, the
// clean-up an unpin leaves for the next block, and the old values a proof at a pinned height reads
// (those of blocks not yet durable from memory, the rest from the state store).

import { archiveKey, archiveWrites, type EntryReader, retentionGc, TreePins } from '../state/merkle/pins.js';
import type { StateTree, TreeWrite } from '../state/merkle/tree.js';
import { assert } from '../util/assert.js';

export interface ArchiveReader extends EntryReader {
  get(key: Uint8Array): Uint8Array | undefined;
}

/** A pinned height; `complete`: every value of that height is kept (pinned at or above the state's height). */
export interface ProofPin {
  height: number;
  complete: boolean;
}

export class ProofRetention {
  readonly pins: TreePins;
  private readonly complete = new Map<number, boolean>();
  /** An unpin happened: the next block drops what no pin needs any more. */
  private gcDue = false;
  /** Old values written by blocks whose state write is not durable yet, by height. */
  private readonly pending: { height: number; values: Map<string, Uint8Array> }[] = [];
  private saving: Promise<void> = Promise.resolve();

  /** `persist` records the pin list durably (node/proof-pins.ts); called after every change, in order. */
  constructor(
    pinned: readonly ProofPin[] = [],
    private readonly persist?: (pins: ProofPin[]) => Promise<void>,
  ) {
    this.pins = new TreePins(pinned.map((p) => p.height));
    for (const p of pinned) this.complete.set(p.height, p.complete);
    assert(this.pins.size === pinned.length, 'proof retention: a height pinned twice in the pin list');
  }

  /** The pins, lowest height first. */
  list(): ProofPin[] {
    assert(this.complete.size === this.pins.size, 'proof retention: a pin without its completeness');
    return this.pins.list().map((height) => ({ height, complete: this.complete.get(height) ?? false }));
  }

  /**
   * Pins `height` now (the next block's prune keeps it), then records it; resolves once recorded
   * (a failed record takes the pin back).
   */
  async pin(height: number, complete: boolean): Promise<void> {
    assert(Number.isSafeInteger(height) && height >= 1, `proof retention: pin at ${height}`);
    if (this.pins.has(height)) return this.save();
    this.pins.add(height);
    this.complete.set(height, complete);
    try {
      await this.save();
    } catch (e) {
      this.unpinNow(height);
      throw e;
    }
  }

  /** Removes a pin; what only it needed goes with the next block's state write. False when not pinned. */
  async unpin(height: number): Promise<boolean> {
    assert(Number.isSafeInteger(height), `proof retention: unpin at ${height}`);
    if (!this.unpinNow(height)) return false;
    await this.save();
    return true;
  }

  private unpinNow(height: number): boolean {
    const had = this.pins.delete(height);
    this.complete.delete(height);
    if (had) this.gcDue = true;
    assert(!this.pins.has(height) && !this.complete.has(height), `proof retention: ${height} still pinned`);
    return had;
  }

  private save(): Promise<void> {
    const persist = this.persist;
    if (persist === undefined) return Promise.resolve();
    const list = this.list();
    assert(list.length === this.pins.size, 'proof retention: the recorded list is not the pins');
    const next = this.saving.then(() => persist(list));
    this.saving = next.catch(() => undefined);
    return next;
  }

  /**
   * The retention writes of the block that makes `height` current, computed on `tree` before it
   * applies the block (version height − 1): the clean-up an unpin left, then the old values to keep.
   */
  blockWrites(
    overwritten: readonly { key: Uint8Array; before: Uint8Array }[],
    tree: StateTree,
    store: EntryReader,
    height: number,
  ): TreeWrite[] {
    assert(tree.version === height - 1, `proof retention: block ${height} on tree version ${tree.version}`);
    const out: TreeWrite[] = [];
    if (this.gcDue) {
      this.gcDue = false;
      out.push(...retentionGc(store, tree, this.pins, height, tree.versionsKept));
    }
    const kept = archiveWrites(overwritten, tree, this.pins);
    assert(
      (this.pending.at(-1)?.height ?? 0) < height,
      `proof retention: block ${height} after pending block ${this.pending.at(-1)?.height}`,
    );
    if (kept.length > 0) {
      const values = new Map<string, Uint8Array>();
      for (const w of kept) values.set(hexKey(w.key), w.value!);
      this.pending.push({ height, values });
    }
    out.push(...kept);
    return out;
  }

  /** The state store holds the writes of every block up to `height`. */
  durable(height: number): void {
    assert(Number.isSafeInteger(height) && height >= 1, `proof retention: durable at ${height}`);
    while (this.pending.length > 0 && this.pending[0]!.height <= height) this.pending.shift();
  }

  /** The kept old value of `key` whose hash is `vh`; undefined when none is kept. */
  archived(store: ArchiveReader, key: Uint8Array, vh: Uint8Array): Uint8Array | undefined {
    assert(vh.length === 32 && key.length > 0, 'proof retention: an old value asked by a malformed key');
    const k = archiveKey(vh, key);
    const hk = hexKey(k);
    for (let i = this.pending.length - 1; i >= 0; i--) {
      const v = this.pending[i]!.values.get(hk);
      if (v !== undefined) return v;
    }
    return store.get(k);
  }
}

function hexKey(b: Uint8Array): string {
  assert(b.length > 2, 'proof retention: an empty store key');
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');
}
