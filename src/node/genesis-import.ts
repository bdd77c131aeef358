// A bulk genesis import (docs/operations.md "Importing a large genesis state"): the rows of a genesis
// state file (genesis-import-lines.ts) written straight into a new node's state store, before block 1,
// as the state of version 0; block 1 (the genesis transaction) then executes on top of it as usual.
// The store ends up exactly as if the file's instructions had been executed: the same rows, index
// entries, table counts, multiset accumulator and state tree (so the same state root).
//
// Bounded memory, whatever the number of accounts: lines are streamed; each row's leaf (key hash → value
// hash) goes to an external merge sort (merkle/leaf-sort.ts: sorted runs of a fixed size in a scratch file
// beside the data directory), and the row with its index entries to another, by store key
// (storage/kv-sort.ts); the tree is then built bottom-up in one pass over the merged leaves
// (merkle/sorted-build.ts), which hands out each depth's nodes in key order: they are spooled by depth
// (merkle/node-spool.ts) and read back depth after depth, in key order without a sort. Everything
// reaches the store in key order, appended in batches (LMDB's append mode): no random insert into a
// large file, no read per account. The heap holds the declared domains and definitions (with their
// running totals), one batch, the sorts' run buffers and the spool's depth buffers.

import { createReadStream } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { Writer } from '../codec/writer.js';
import { assetId } from '../model/ids.js';
import { checkedAdd } from '../state/amounts.js';
import { parseStateKey } from '../state/keys.js';
import { keyHash, valueHash } from '../state/merkle/hash.js';
import { LeafSorter } from '../state/merkle/leaf-sort.js';
import { NodeSpool } from '../state/merkle/node-spool.js';
import { SortedTreeBuilder } from '../state/merkle/sorted-build.js';
import { LeafSum } from '../state/root.js';
import {
  childCountKey,
  EMPTY_VALUE,
  encodeCount,
  encodeIndexMeta,
  ORDER_KEY_BYTES,
  STATE_INDEX_META_KEY,
  STATE_INDEX_PREFIX,
  tableCountKey,
} from '../state/state-index-keys.js';
import { BaseTable } from '../state/table.js';
import { type IndexLink, TABLES, type TableDef } from '../state/tables.js';
import { KeyValueSorter, type SortedKeyValue } from '../storage/kv-sort.js';
import { RowStream, type StreamedRow } from '../storage/row-pack.js';
import { StateStore } from '../storage/state-store.js';
import { assert } from '../util/assert.js';
import { toHex } from '../util/hex.js';
import { nodeFiles } from './files.js';
import { CeremonyError } from './genesis-entry.js';
import { balanceAt, importLineError, parseImportLine } from './genesis-import-lines.js';

/** Store writes per write transaction while importing. */
export const IMPORT_BATCH_WRITES = 100_000;
/** The version (applied height) of an imported state: before block 1. */
const IMPORT_VERSION = 0;

/** Consecutive lines of a genesis state file, handed over together (fileLineBatches). */
export interface LineBatch {
  readonly lines: readonly string[];
}

/** The lines of a genesis state file, in order: one by one, or in batches. */
export type ImportLines = AsyncIterable<string | LineBatch> | Iterable<string>;

/** What the import needs of the state store (StateStore). */
export type ImportStore = Pick<StateStore, 'appliedHeight' | 'entries' | 'get' | 'restorePacked'>;

export interface GenesisImportReport {
  lines: number;
  domains: number;
  definitions: number;
  accounts: number;
  assets: number;
  /** State rows written (each is one leaf of the state tree). */
  rows: number;
  /** Nodes of the state tree written, and its root record. */
  treeWrites: number;
  /** The state root of the imported state (version 0, before block 1), lower-case hex. */
  stateRoot: string;
}

/**
 * The keys and values of one row, built in buffers reused from row to row (the import hands each to the
 * sorts and hashes before the next row): a row's key as `stateKey` gives it, its value as the table's
 * codec encodes it (`encode`), its index entry keys as `indexEntryKey` and `orderedEntryKey` give them.
 * No buffer is allocated per row: at millions of rows, small buffers (each its own backing store) and
 * the collections they cause were a large part of the import's CPU.
 */
class RowBytes {
  private keyBuf = Buffer.allocUnsafe(1024);
  private entryBuf = Buffer.allocUnsafe(1024);
  private readonly writer = new Writer(1024);

  /** `tag ‖ utf8(id)`: a view valid until the next call. */
  key(tag: number, id: string): Uint8Array {
    const need = 1 + 3 * id.length;
    if (need > this.keyBuf.length) this.keyBuf = Buffer.allocUnsafe(need);
    const b = this.keyBuf;
    b[0] = tag;
    return b.subarray(0, 1 + b.write(id, 1, 'utf8'));
  }

  /** The row's value bytes: a view valid until the next call. */
  value<V>(def: TableDef<V>, v: V): Uint8Array {
    const w = this.writer;
    w.pos = 0;
    def.codec.encode(w, v);
    return w.finish();
  }

  /**
   * An index entry key: `0xF9 ‖ tag ‖ utf8(index) ‖ 0 ‖ u16 BE parent length ‖ utf8(parent)`, then the
   * order key when given, then `utf8(child)`. A view valid until the next call.
   */
  entry(tag: number, index: string, parent: string, child: string, order?: Uint8Array): Uint8Array {
    const need = 2 + 3 * index.length + 3 + 3 * parent.length + (order?.length ?? 0) + 3 * child.length;
    if (need > this.entryBuf.length) this.entryBuf = Buffer.allocUnsafe(need);
    const b = this.entryBuf;
    b[0] = STATE_INDEX_PREFIX;
    b[1] = tag;
    let at = 2 + b.write(index, 2, 'utf8');
    b[at] = 0;
    const p = b.write(parent, at + 3, 'utf8');
    assert(p <= 0xffff, 'an index parent of more than 65,535 bytes'); // constant: checked per entry
    b[at + 1] = p >>> 8;
    b[at + 2] = p & 0xff;
    at += 3 + p;
    if (order !== undefined) {
      b.set(order, at);
      at += order.length;
    }
    at += b.write(child, at, 'utf8');
    return b.subarray(0, at);
  }
}

/**
 * Writes a sorted stream into `store` in transactions of at most `max` writes, appended in key order
 * (every key is above the ones before and above the store's: MDB_APPEND). Each transaction pulls its
 * rows from the stream as it puts them (storage/row-pack.ts's RowStream): no copy into a pack between
 * the sort and LMDB.
 */
async function appendSorted(
  store: ImportStore,
  next: () => StreamedRow | undefined,
  max: number,
): Promise<void> {
  for (;;) {
    const rows = new RowStream(next, max);
    await store.restorePacked(rows, { append: true });
    if (rows.ended) return;
  }
}

/**
 * Imports the genesis state of `lines` (the file's lines, in order) into `store`, which must be empty.
 * `authority` is the genesis transaction's authority: it owns every domain and definition imported.
 * Throws `genesis_import_invalid` naming the first bad line (the store may then hold part of the
 * import: importGenesisFile removes it) and `genesis_import_not_empty`.
 */
export async function importGenesisState(
  store: ImportStore,
  lines: ImportLines,
  opts: {
    authority: string;
    batchWrites?: number;
    /** Where the leaf sort may write its scratch file (default: a new directory under the OS's). */
    scratchDir?: string;
    /** Leaves per sorted run (LEAF_RUN_RECORDS). */
    runLeaves?: number;
    /** Bytes of rows per sorted run (KV_RUN_BYTES). */
    runBytes?: number;
    /** Bytes of tree nodes buffered per depth before they go to the scratch file (SPOOL_DEPTH_BYTES). */
    spoolBytes?: number;
  },
): Promise<GenesisImportReport> {
  if (store.appliedHeight() !== 0 || !storeIsEmpty(store))
    throw new CeremonyError('genesis_import_not_empty', 'the state store already holds a state');
  const own = opts.scratchDir === undefined ? await mkdtemp(join(tmpdir(), 'torana-import-')) : undefined;
  const dir = own ?? opts.scratchDir!;
  const sorts: Sorts = {
    leaves: new LeafSorter(dir, opts.runLeaves),
    rows: new KeyValueSorter(dir, opts.runBytes),
    nodes: new NodeSpool(dir, opts.spoolBytes),
  };
  try {
    return await importInto(store, lines, opts, sorts);
  } finally {
    sorts.leaves.close();
    sorts.rows.close();
    sorts.nodes.close();
    if (own !== undefined) await rm(own, { recursive: true, force: true });
  }
}

/**
 * The import's three external sorts: the tree's leaves by key hash; the rows, index entries and
 * bookkeeping by store key (each tagged with its line, to name the line of a key written twice); the
 * tree's nodes by store key (all above the rows': the 0xFA space), spooled by depth: the build hands
 * out each depth's nodes in key order, so they need no sort.
 */
interface Sorts {
  leaves: LeafSorter;
  rows: KeyValueSorter;
  nodes: NodeSpool;
}

async function importInto(
  store: ImportStore,
  lines: ImportLines,
  opts: { authority: string; batchWrites?: number },
  sorts: Sorts,
): Promise<GenesisImportReport> {
  const tables = {
    domain: new BaseTable(TABLES.domain),
    account: new BaseTable(TABLES.account),
    assetDefinition: new BaseTable(TABLES.assetDefinition),
    asset: new BaseTable(TABLES.asset),
  };
  const bytes = new RowBytes();
  const pending = sorts.rows;
  /** Children of each parent of a counted index (`TableDef.counted`: a definition's holders). */
  const childCounts = new Map<string, { tag: number; link: IndexLink; n: number }>();
  const sum = new LeafSum();
  let rows = 0;
  let line = 0;
  const row = <V>(t: BaseTable<V>, id: string, v: V): void => {
    const def = t.def;
    const key = bytes.key(def.tag, id);
    const value = bytes.value(def, v);
    pending.add(key, value, line);
    for (const link of t.linksOf(id, v)) {
      const [index, parent] = link;
      pending.add(bytes.entry(def.tag, index, parent, id), EMPTY_VALUE, line);
      if (def.counted?.includes(index) !== true) continue;
      const k = `${t.def.tag}\u0000${index}\u0000${parent}`;
      const c = childCounts.get(k);
      if (c === undefined) childCounts.set(k, { tag: def.tag, link, n: 1 });
      else c.n++;
    }
    // The ordered index (a definition's holders by balance), as a commit writes it.
    const order = def.order;
    if (order !== undefined) {
      const e = order.of(id, v);
      assert(e.key.length === ORDER_KEY_BYTES, 'an order key of the wrong size'); // constant: per row
      pending.add(bytes.entry(def.tag, order.index, e.parent, id, e.key), EMPTY_VALUE, line);
    }
    sorts.leaves.add(keyHash(key), valueHash(value));
    sum.add(key, value);
    rows++;
  };
  const domains = new Set<string>();
  const definitions = new Map<string, { scale: number; total: bigint }>();
  const report = { lines: 0, domains: 0, definitions: 0, accounts: 0, assets: 0 };
  const empty = new Map();
  const take = (text: string): void => {
    const n = ++report.lines;
    line = n;
    const l = parseImportLine(text, n);
    if (l === undefined) return;
    if (l.kind === 'domain') {
      if (domains.has(l.id)) throw importLineError(n, `domain ${l.id} is declared twice`);
      domains.add(l.id);
      row(tables.domain, l.id, { id: l.id, ownedBy: opts.authority, metadata: empty });
      report.domains++;
    } else if (l.kind === 'definition') {
      const domain = l.id.slice(l.id.indexOf('#') + 1);
      if (!domains.has(domain))
        throw importLineError(n, `domain ${domain} is not declared on an earlier line`);
      if (definitions.has(l.id)) throw importLineError(n, `asset definition ${l.id} is declared twice`);
      definitions.set(l.id, { scale: l.scale, total: 0n });
      report.definitions++;
    } else {
      const domain = l.domain;
      if (!domains.has(domain))
        throw importLineError(n, `domain ${domain} is not declared on an earlier line`);
      // An account listed twice is found once the rows are sorted (writeRows).
      row(tables.account, l.id, { id: l.id, metadata: empty });
      report.accounts++;
      for (const b of l.balances) {
        const d = definitions.get(b.definition);
        if (d === undefined)
          throw importLineError(n, `asset definition ${b.definition} is not declared on an earlier line`);
        const m = balanceAt(b.amount, d.scale);
        if (typeof m === 'string') throw importLineError(n, `balance of ${b.definition}: ${m}`);
        const total = checkedAdd(d.total, m);
        if (total === undefined) throw importLineError(n, `the total of ${b.definition} would pass 2^128-1`);
        d.total = total;
        const id = assetId(b.definition, l.id);
        row(tables.asset, id, { id, value: { mantissa: m, scale: d.scale } });
        report.assets++;
      }
    }
  };
  for await (const item of lines) {
    if (typeof item === 'string') take(item);
    else for (const text of item.lines) take(text);
  }
  // Definitions last: their totals are known only now.
  line = 0;
  for (const [id, d] of definitions)
    row(tables.assetDefinition, id, {
      id,
      scale: d.scale,
      mintable: { kind: 'Infinitely' as const },
      totalQuantity: { mantissa: d.total, scale: d.scale },
      ownedBy: opts.authority,
      metadata: empty,
    });
  const counts: [TableDef<unknown>, number][] = [
    [TABLES.domain as TableDef<unknown>, report.domains],
    [TABLES.account as TableDef<unknown>, report.accounts],
    [TABLES.assetDefinition as TableDef<unknown>, report.definitions],
    [TABLES.asset as TableDef<unknown>, report.assets],
  ];
  for (const [def, count] of counts)
    if (count > 0) pending.add(tableCountKey(def.tag), encodeCount(count), 0);
  for (const { tag, link, n } of childCounts.values())
    pending.add(childCountKey(tag, link[0], link[1]), encodeCount(n), 0);
  pending.add(STATE_INDEX_META_KEY, encodeIndexMeta(sum.value), 0);
  const max = opts.batchWrites ?? IMPORT_BATCH_WRITES;
  await writeRows(sorts.rows, store, max);
  const tree = await buildTree(sorts, store, max);
  assert(tree.leaves === rows, `genesis import: ${tree.leaves} leaves for ${rows} rows`);
  return { ...report, rows, treeWrites: tree.writes, stateRoot: toHex(tree.stateRoot) };
}

/**
 * The rows, index entries and bookkeeping in key order, appended to the store. A key written twice comes
 * only from an account listed twice (every row and entry of a line is keyed by its account, or by a
 * domain or definition, which the import refuses twice at once): the first line that repeats an account
 * is named, as reading the file in order would have found it.
 */
async function writeRows(sorted: KeyValueSorter, store: ImportStore, max: number): Promise<void> {
  const accountTag = TABLES.account.tag;
  let repeated: { line: number; id: string } | undefined;
  let duplicates = 0;
  const it = sorted.sorted();
  // The next record to write; past a key written twice, the rest is only read (for the first line that
  // repeats an account) and nothing more is written.
  const next = (): SortedKeyValue | undefined => {
    for (;;) {
      const step = it.next();
      if (step.done === true) return undefined;
      const r = step.value;
      if (r.same) {
        duplicates++;
        const k = parseStateKey(r.key);
        if (k?.tag === accountTag && (repeated === undefined || r.tag < repeated.line))
          repeated = { line: r.tag, id: k.id };
        continue;
      }
      if (duplicates === 0) return r;
    }
  };
  await appendSorted(store, next, max);
  if (repeated !== undefined) throw importLineError(repeated.line, `account ${repeated.id} is listed twice`);
  assert(duplicates === 0, `genesis import: ${duplicates} keys written twice, none of them an account`);
}

function storeIsEmpty(store: ImportStore): boolean {
  for (const _ of store.entries()) return false;
  return true;
}

/**
 * The state tree of version 0 from the sorted leaves, its nodes spooled by depth (merkle/node-spool.ts)
 * and appended after the rows in key order.
 */
async function buildTree(sorts: Sorts, store: ImportStore, max: number) {
  const builder = new SortedTreeBuilder(IMPORT_VERSION, (k, v) => sorts.nodes.add(k, v));
  for (const leaf of sorts.leaves.sorted()) builder.add(leaf);
  const result = builder.finish();
  const it = sorts.nodes.sorted();
  await appendSorted(
    store,
    () => {
      const step = it.next();
      return step.done === true ? undefined : step.value;
    },
    max,
  );
  return result;
}

/**
 * Lines of a file, streamed: one chunk read at a time, only when the consumer asks for more lines
 * (readline's async iterator reads on and buffers every line while the consumer awaits its writes).
 * Each step gives all the lines completed by one chunk of the file (about a megabyte), in order: a
 * step of an async iteration per line (its promises and microtasks) cost more than reading the line.
 */
export async function* fileLineBatches(path: string): AsyncGenerator<LineBatch> {
  const decoder = new StringDecoder('utf8');
  let rest = '';
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
    const text = rest + decoder.write(chunk as Buffer);
    const parts = text.split('\n');
    rest = parts.pop()!;
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i]!;
      if (p.endsWith('\r')) parts[i] = p.slice(0, -1);
    }
    if (parts.length > 0) yield { lines: parts };
  }
  rest += decoder.end();
  if (rest !== '') yield { lines: [rest] };
}

/** Lines of a file one by one (fileLineBatches). */
export async function* fileLines(path: string): AsyncGenerator<string> {
  for await (const b of fileLineBatches(path)) yield* b.lines;
}

/**
 * Imports `file` into the node directory `dir` before its first start (`torana genesis import`):
 * refused when its data directory holds anything (`genesis_import_not_empty`). A file refused part way
 * (`genesis_import_invalid`) leaves the data directory removed, as it was.
 */
export async function importGenesisFile(
  dir: string,
  file: string,
  opts: { authority: string; fsync?: boolean; mapSizeBytes?: number },
): Promise<GenesisImportReport> {
  const files = nodeFiles(dir);
  const data = await readdir(files.data).catch(() => []);
  if (data.length > 0)
    throw new CeremonyError(
      'genesis_import_not_empty',
      `${files.data} already holds data; a genesis state is imported before the node first starts`,
    );
  const store = await StateStore.open(files.data, {
    fsync: opts.fsync ?? true,
    ...(opts.mapSizeBytes === undefined ? {} : { mapSizeBytes: opts.mapSizeBytes }),
  });
  let ok = false;
  try {
    const report = await importGenesisState(store, fileLineBatches(file), {
      authority: opts.authority,
      scratchDir: dir,
    });
    ok = true;
    return report;
  } finally {
    await store.close();
    // A refused file leaves nothing behind: the data directory was empty before.
    if (!ok) await rm(files.data, { recursive: true, force: true });
  }
}
