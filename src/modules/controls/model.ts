// Transfer controls (docs/controls.md): rules the executor enforces on every
// movement of value, per (account, asset definition) and per definition (for every holder).
//   outgoing frozen   the account may not send (debits: transfers, burns, charges)
//   blacklisted       the account may neither send nor receive
//   allow list        per definition, when non-empty: only listed accounts may send or receive
//   deny list         per definition: listed accounts may neither send nor receive
//   limits            a cap per transaction (Tx) or per UTC period of BLOCK time (Hour, Day, Week from
//                     Monday 00:00, calendar Month), counted on the sender side
// Usage rows keep what an account sent in the current bucket of each capped period; a debit in a later
// bucket replaces the row (never accumulated across buckets), so the state stays bounded. The rules'
// behaviour is in the other files of this folder; here are the wire types and the rows' load checks.

import type { Infer } from '../../codec/codec.js';
import { enumOf, seq, struct } from '../../codec/compound.js';
import { bool, u64 } from '../../codec/primitives.js';
import { AccountId, AssetDefinitionId } from '../../model/ids.js';
import { NumericCodec } from '../../model/numeric.js';

export const ControlWindowCodec = enumOf('ControlWindow', {
  Tx: {},
  Hour: {},
  Day: {},
  Week: {},
  Month: {},
});
export type ControlWindow = Infer<typeof ControlWindowCodec>;
export type ControlWindowKind = ControlWindow['kind'];
/** In tag order: the order limits and usages are kept in. */
export const CONTROL_WINDOWS: readonly ControlWindowKind[] = ['Tx', 'Hour', 'Day', 'Week', 'Month'];

/** Which per-definition list an entry belongs to. */
export const ControlListCodec = enumOf('ControlList', { Allow: {}, Deny: {} });
export type ControlList = Infer<typeof ControlListCodec>;

/** A cap: at most `cap` (at the definition scale) per transaction or per bucket of `window`. */
export const TransferLimitCodec = struct('TransferLimit', { window: ControlWindowCodec, cap: NumericCodec });
export type TransferLimit = Infer<typeof TransferLimitCodec>;

/** What the account sent in the bucket of `window` that starts at `bucketStartMs` (block time, UTC). */
export const TransferUsageCodec = struct('TransferUsage', {
  window: ControlWindowCodec,
  bucketStartMs: u64,
  spent: NumericCodec,
});
export type TransferUsage = Infer<typeof TransferUsageCodec>;

/** One cap per window at most. */
export const CONTROL_LIMITS_MAX = CONTROL_WINDOWS.length;
/** Entries of one allow or deny list. */
export const CONTROL_LIST_ENTRIES_MAX = 1024;

/** Controls of one (account, definition): world-state table 0x17, keyed by the asset id. */
export const AssetControlCodec = struct('AssetControl', {
  account: AccountId,
  definition: AssetDefinitionId,
  outgoingFrozen: bool,
  blacklisted: bool,
  /** Sorted by window tag, one per window. */
  limits: seq(TransferLimitCodec, CONTROL_LIMITS_MAX),
  /** Sorted by window tag, only periods capped here or on the definition (never Tx). */
  usages: seq(TransferUsageCodec, CONTROL_LIMITS_MAX),
});
export type AssetControl = Infer<typeof AssetControlCodec>;

/** Controls of a definition, for every holder: world-state table 0x18, keyed by the definition id. */
export const DefinitionControlCodec = struct('DefinitionControl', {
  definition: AssetDefinitionId,
  outgoingFrozen: bool,
  blacklisted: bool,
  /** Sorted account ids; in force while non-empty. */
  allowList: seq(AccountId, CONTROL_LIST_ENTRIES_MAX),
  denyList: seq(AccountId, CONTROL_LIST_ENTRIES_MAX),
  limits: seq(TransferLimitCodec, CONTROL_LIMITS_MAX),
});
export type DefinitionControl = Infer<typeof DefinitionControlCodec>;

const tagOf = (w: ControlWindowKind): number => CONTROL_WINDOWS.indexOf(w);

/** Load check: limits and usages strictly increasing by window tag; usages never for Tx. */
export function controlProblem(
  limits: readonly TransferLimit[],
  usages: readonly TransferUsage[],
): string | undefined {
  for (let i = 1; i < limits.length; i++)
    if (tagOf(limits[i - 1]!.window.kind) >= tagOf(limits[i]!.window.kind)) return 'limits not sorted';
  for (let i = 1; i < usages.length; i++)
    if (tagOf(usages[i - 1]!.window.kind) >= tagOf(usages[i]!.window.kind)) return 'usages not sorted';
  if (usages.some((u) => u.window.kind === 'Tx')) return 'usage row for the Tx window';
  return undefined;
}

/** Load check of an allow or deny list: strictly sorted. */
export function sortedProblem(list: readonly string[]): string | undefined {
  for (let i = 1; i < list.length; i++) if (list[i - 1]! >= list[i]!) return 'list not strictly sorted';
  return undefined;
}
