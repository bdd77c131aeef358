// The list and stream filters of the explorer's transactions and instructions:
// parsed from the query string once (a malformed value is 400 `bad_request` naming the
// parameter), then matched against committed blocks. A stream accepts the same filters as its list.
//
// - `authority`: the transaction's signer; `account`: an account the instruction names (facets.ts).
// - `block`: one height (the scan then reads that block only).
// - `status` / `transaction_status`: `Committed` or `Rejected` (either case).
// - `asset_id`: an asset (`<definition>#<account>`) matches instructions naming that balance; an asset
//   definition (`<name>#<domain>`) matches every instruction naming it or one of its balances.
// - `transaction_hash`: the instructions of one transaction; `kind`: an instruction kind (`MintAsset`).

import { Type } from 'typebox';
import type { Codec } from '../../codec/codec.js';
import { isCodecError } from '../../codec/errors.js';
import { gatewayError } from '../../gateway/errors.js';
import type { IdKind } from '../../gateway/id-resolver.js';
import { PageNumberQuerystring } from '../../gateway/list.js';
import type { Block } from '../../model/block.js';
import { AccountId, AssetDefinitionId, AssetId } from '../../model/ids.js';
import { InstructionCodec, type InstructionKind } from '../../model/instructions.js';
import { fromHex, toHex } from '../../util/hex.js';
import { instructionFacets } from './facets.js';

const text = (description: string) => Type.Optional(Type.String({ maxLength: 512, description }));
const FILTER_FIELDS = {
  authority: text('signer of the transaction (account id)'),
  block: text('block height'),
  asset_id: text('an asset id, or an asset definition id (any of its balances)'),
};

export const TransactionFilterQuery = Type.Object({
  ...PageNumberQuerystring.properties,
  ...FILTER_FIELDS,
  status: text('Committed or Rejected'),
});
export const InstructionFilterQuery = Type.Object({
  ...PageNumberQuerystring.properties,
  ...FILTER_FIELDS,
  account: text('an account the instruction names'),
  transaction_hash: text('hash of the transaction (64 hex digits)'),
  transaction_status: text('Committed or Rejected'),
  kind: text('instruction kind, e.g. MintAsset'),
});
/** The same filters without paging, for the streams. */
export const TransactionStreamQuery = Type.Object({
  ...FILTER_FIELDS,
  status: text('Committed or Rejected'),
});
export const InstructionStreamQuery = Type.Object({
  ...FILTER_FIELDS,
  account: text('an account the instruction names'),
  transaction_hash: text('hash of the transaction (64 hex digits)'),
  transaction_status: text('Committed or Rejected'),
  kind: text('instruction kind, e.g. MintAsset'),
});

/** Filter parameters naming an entity: each takes a name in place of the id (context.ts withIds). */
export const FILTER_IDS: Readonly<Record<string, IdKind>> = {
  authority: 'account',
  account: 'account',
  asset_id: 'asset_or_definition',
};

type Status = 'Committed' | 'Rejected';
type AssetMatch = { kind: 'asset' | 'definition'; id: string };

export interface TransactionFilter {
  authority?: string;
  block?: number;
  status?: Status;
  asset?: AssetMatch;
}

export interface InstructionFilter extends Omit<TransactionFilter, 'status'> {
  account?: string;
  transactionHash?: string;
  transactionStatus?: Status;
  kind?: InstructionKind;
}

/** Every instruction kind, in tag order (the codec's tag list: no codec use at import time). */
export const INSTRUCTION_KINDS: readonly string[] = InstructionCodec.tags;

function bad(parameter: string, value: string, expected: string) {
  return gatewayError('bad_request', {
    location: 'querystring',
    parameter,
    value: value.slice(0, 128),
    expected,
  });
}

function idOf(codec: Codec<string>, parameter: string, value: string): string {
  try {
    return codec.fromJson(value, '');
  } catch (e) {
    if (!isCodecError(e)) throw e;
    throw bad(parameter, value, codec.name ?? 'an id');
  }
}

function statusOf(parameter: string, value: string): Status {
  const v = value.toLowerCase();
  if (v === 'committed') return 'Committed';
  if (v === 'rejected') return 'Rejected';
  throw bad(parameter, value, 'Committed or Rejected');
}

function heightOf(value: string): number {
  const n = /^[1-9][0-9]{0,15}$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n)) throw bad('block', value, 'an integer >= 1');
  return n;
}

function assetOf(value: string): AssetMatch {
  try {
    return { kind: 'asset', id: AssetId.fromJson(value, '') };
  } catch (e) {
    if (!isCodecError(e)) throw e;
  }
  try {
    return { kind: 'definition', id: AssetDefinitionId.fromJson(value, '') };
  } catch (e) {
    if (!isCodecError(e)) throw e;
    throw bad('asset_id', value, '<definition>#<account> or <name>#<domain>');
  }
}

type Query = Partial<Record<string, string>>;

export function parseTransactionFilter(q: Query): TransactionFilter {
  return {
    ...(q.authority === undefined ? {} : { authority: idOf(AccountId, 'authority', q.authority) }),
    ...(q.block === undefined ? {} : { block: heightOf(q.block) }),
    ...(q.status === undefined ? {} : { status: statusOf('status', q.status) }),
    ...(q.asset_id === undefined ? {} : { asset: assetOf(q.asset_id) }),
  };
}

export function parseInstructionFilter(q: Query): InstructionFilter {
  const { status: _status, ...base } = parseTransactionFilter({ ...q, status: undefined });
  let hash: string | undefined;
  if (q.transaction_hash !== undefined) {
    const bytes = fromHex(q.transaction_hash, 32);
    if (bytes === undefined) throw bad('transaction_hash', q.transaction_hash, '64 hex digits');
    hash = toHex(bytes);
  }
  if (q.kind !== undefined && !INSTRUCTION_KINDS.includes(q.kind))
    throw bad('kind', q.kind, `one of ${INSTRUCTION_KINDS.join(', ')}`);
  return {
    ...base,
    ...(q.account === undefined ? {} : { account: idOf(AccountId, 'account', q.account) }),
    ...(hash === undefined ? {} : { transactionHash: hash }),
    ...(q.transaction_status === undefined
      ? {}
      : { transactionStatus: statusOf('transaction_status', q.transaction_status) }),
    ...(q.kind === undefined ? {} : { kind: q.kind as InstructionKind }),
  };
}

function statusAt(b: Block, tx: number): Status {
  return b.results[tx]?.kind === 'Rejected' ? 'Rejected' : 'Committed';
}

function assetMatches(m: AssetMatch, b: Block, tx: number, ins: number): boolean {
  const i = b.transactions[tx]?.payload.instructions[ins];
  if (i === undefined) return false;
  const f = instructionFacets(i);
  return m.kind === 'asset' ? f.assets.includes(m.id) : f.definitions.includes(m.id);
}

export function transactionMatches(f: TransactionFilter, b: Block, tx: number): boolean {
  const t = b.transactions[tx];
  if (t === undefined) return false;
  if (f.block !== undefined && b.header.height !== f.block) return false;
  if (f.authority !== undefined && t.payload.authority !== f.authority) return false;
  if (f.status !== undefined && statusAt(b, tx) !== f.status) return false;
  const asset = f.asset;
  if (asset !== undefined) return t.payload.instructions.some((_, i) => assetMatches(asset, b, tx, i));
  return true;
}

export function instructionMatches(
  f: InstructionFilter,
  b: Block,
  tx: number,
  ins: number,
  txHash: () => string,
): boolean {
  const t = b.transactions[tx];
  const i = t?.payload.instructions[ins];
  if (t === undefined || i === undefined) return false;
  if (f.block !== undefined && b.header.height !== f.block) return false;
  if (f.authority !== undefined && t.payload.authority !== f.authority) return false;
  if (f.kind !== undefined && i.kind !== f.kind) return false;
  if (f.transactionStatus !== undefined && statusAt(b, tx) !== f.transactionStatus) return false;
  if (f.account !== undefined && !instructionFacets(i).accounts.includes(f.account)) return false;
  if (f.asset !== undefined && !assetMatches(f.asset, b, tx, ins)) return false;
  if (f.transactionHash !== undefined && txHash() !== f.transactionHash) return false;
  return true;
}

/** A stable key per filter (equal keys, equal filters), for sharing stream batches. */
export function filterKey(f: object): string {
  return JSON.stringify(f);
}
