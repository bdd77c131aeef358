// A verified block as the rows of the indexer's tables (migrations/*.sql, docs/indexer.md "Schema").
// Append-only tables get one row per item; the mutable ones (accounts, balances, asset_holders) get the
// ids the block touched with their values after it, read from the re-executed state.

import { encodeBlock } from '../model/block.js';
import { DataEventCodec } from '../model/events.js';
import { parseAccountId, parseAssetId } from '../model/ids.js';
import { InstructionCodec } from '../model/instructions.js';
import { formatNumeric, type Numeric } from '../model/numeric.js';
import type { WorldState } from '../state/world-state.js';
import type { VerifiedBlock } from './follower.js';

/** A COPY cell: text, a number, bytes (bytea), a JSON document (jsonb) or null. */
export type Cell = string | number | Uint8Array | { json: unknown } | null;

/** The event source of due work run after the transactions (`events.source`). */
export const DUE_WORK_SOURCE = -1;

export interface BlockRows {
  height: number;
  hash: Uint8Array;
  /** Rows of the append-only tables, by table, in the column order of COPY_COLUMNS. */
  appended: { [T in keyof typeof COPY_COLUMNS]: Cell[][] };
  /** Accounts created or deleted in the block, with their rows after it. */
  accounts: { id: string; domain: string; created: boolean; deleted: boolean }[];
  /** Asset ids whose balance changed; amount undefined when the asset row is gone. */
  balances: { id: string; account: string; definition: string; amount: string | undefined }[];
  /** Definitions whose holders changed, with the count and total after the block. */
  holders: { definition: string; holders: number; total: string }[];
}

export const COPY_COLUMNS = {
  blocks: [
    'height',
    'hash',
    'prev_hash',
    'state_root',
    'transactions_root',
    'results_root',
    'created_at',
    'view',
    'transaction_count',
    'validator_set_hash',
    'signers',
    'payload',
  ],
  transactions: [
    'hash',
    'height',
    'position',
    'authority',
    'created_at',
    'ttl_ms',
    'nonce',
    'instruction_count',
  ],
  results: [
    'height',
    'position',
    'tx_hash',
    'status',
    'rejection_code',
    'rejection_instruction',
    'rejection_message',
  ],
  instructions: ['height', 'tx_position', 'position', 'tx_hash', 'kind', 'body'],
  events: ['height', 'source', 'position', 'tx_hash', 'kind', 'body'],
  balance_changes: ['height', 'source', 'position', 'asset_id', 'account', 'definition', 'delta', 'balance'],
} as const;

/** Milliseconds since the epoch as an ISO timestamp (timestamptz input). */
export function timestampText(ms: number): string {
  return new Date(ms).toISOString();
}

/** a + sign·b exactly, as decimal text (amounts are unsigned; a balance change may be negative). */
export function addNumeric(a: Numeric, b: Numeric, sign: 1 | -1): { value: Numeric; text: string } {
  const scale = Math.max(a.scale, b.scale);
  const m = scaled(a, scale) + BigInt(sign) * scaled(b, scale);
  return { value: { mantissa: m < 0n ? -m : m, scale }, text: signedText(m, scale) };
}

function scaled(n: Numeric, scale: number): bigint {
  return n.mantissa * 10n ** BigInt(scale - n.scale);
}

export function signedText(m: bigint, scale: number): string {
  const text = formatNumeric({ mantissa: m < 0n ? -m : m, scale });
  return m < 0n ? `-${text}` : text;
}

const ZERO: Numeric = { mantissa: 0n, scale: 0 };

export function blockRows(v: VerifiedBlock): BlockRows {
  const { block, hash, hashes, executed } = v;
  const { header } = block;
  const h = header.height;
  const appended: BlockRows['appended'] = {
    blocks: [
      [
        h,
        hash,
        header.prevHash,
        header.stateRoot,
        header.transactionsRoot,
        header.resultsRoot,
        timestampText(header.creationTimeMs),
        header.view,
        header.transactionCount,
        block.certificate.validatorSetHash,
        v.signers,
        encodeBlock(block),
      ],
    ],
    transactions: [],
    results: [],
    instructions: [],
    events: [],
    balance_changes: [],
  };
  block.transactions.forEach((tx, i) => {
    const p = tx.payload;
    const txHash = hashes[i]!;
    appended.transactions.push([
      txHash,
      h,
      i,
      p.authority,
      timestampText(p.creationTimeMs),
      p.ttlMs ?? null,
      p.nonce ?? null,
      p.instructions.length,
    ]);
    const r = block.results[i]!;
    appended.results.push(
      r.kind === 'Committed'
        ? [h, i, txHash, 'Committed', null, null, null]
        : [h, i, txHash, 'Rejected', r.reason.code, r.reason.instructionIndex ?? null, r.reason.message],
    );
    p.instructions.forEach((ins, j) => {
      appended.instructions.push([h, i, j, txHash, ins.kind, { json: InstructionCodec.toJson(ins) }]);
    });
  });
  // Events in execution order: each transaction's, then the due work's; balances run from the state
  // before the block through each change.
  const running = new Map<string, Numeric>();
  const accounts = new Map<string, { created: boolean; deleted: boolean }>();
  const definitions = new Set<string>();
  const sources: { source: number; txHash: Uint8Array | null; events: (typeof executed.events)[number] }[] = [
    ...executed.events.map((events, i) => ({ source: i, txHash: hashes[i]!, events })),
    { source: DUE_WORK_SOURCE, txHash: null, events: executed.dueRuns.flatMap((d) => d.events) },
  ];
  for (const { source, txHash, events } of sources) {
    events.forEach((e, k) => {
      appended.events.push([h, source, k, txHash, e.kind, { json: DataEventCodec.toJson(e) }]);
      if (e.kind === 'AccountCreated' || e.kind === 'AccountDeleted') {
        const a = accounts.get(e.id) ?? { created: false, deleted: false };
        if (e.kind === 'AccountCreated') a.created = true;
        else a.deleted = true;
        accounts.set(e.id, a);
      } else if (e.kind === 'AssetAdded' || e.kind === 'AssetRemoved') {
        const parts = parseAssetId(e.id);
        if (parts === undefined) return;
        const before = running.get(e.id) ?? v.before.asset(e.id)?.value ?? ZERO;
        const after = addNumeric(before, e.amount, e.kind === 'AssetAdded' ? 1 : -1);
        running.set(e.id, after.value);
        definitions.add(parts.definition);
        const delta = e.kind === 'AssetAdded' ? formatNumeric(e.amount) : `-${formatNumeric(e.amount)}`;
        appended.balance_changes.push([
          h,
          source,
          k,
          e.id,
          parts.account,
          parts.definition,
          delta,
          after.text,
        ]);
      }
    });
  }
  return {
    height: h,
    hash,
    appended,
    accounts: [...accounts].map(([id, a]) => ({
      id,
      domain: parseAccountId(id)?.domain ?? '',
      ...a,
    })),
    balances: [...running.keys()].map((id) => {
      const parts = parseAssetId(id)!;
      return { id, account: parts.account, definition: parts.definition, amount: undefined };
    }),
    holders: [...definitions].map((definition) => ({ definition, holders: 0, total: '0' })),
  };
}

/**
 * Fills the balances and holders of `rows` from the state after the block (call it once the block is
 * committed to the follower's state, before the next one is).
 */
export function readAfter(rows: BlockRows, state: WorldState): void {
  for (const b of rows.balances) {
    const a = state.asset(b.id);
    b.amount = a === undefined ? undefined : formatNumeric(a.value);
  }
  // An asset row holds a non-zero amount (a balance that reaches zero is removed, a genesis balance of zero is
  // refused), so the definition's stored holder count is its holders: one read, not a list of them.
  for (const d of rows.holders) {
    d.holders = state.holderCount(d.definition);
    d.total = formatNumeric(state.assetDefinition(d.definition)?.totalQuantity ?? ZERO);
  }
}
