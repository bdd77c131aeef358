// Enforcement of transfer controls (docs/controls.md §Enforcement): this module's transfer check, run by
// the core's moveValue (state/exec-value.ts) for every movement of value. Checks run in this fixed
// order, the first failing one wins:
//   1. account_blacklisted  the definition, the sender or the receiver is blacklisted
//   2. on_deny_list         the definition's deny list names the sender or the receiver
//   3. not_on_allow_list    the definition has an allow list without the sender or the receiver
//   4. transfer_frozen      the definition or the sender is frozen for outgoing transfers
//   5. transfer_cap_exceeded  a Tx cap < amount, or a period cap < spent in the bucket + amount
// Caps of the definition and of the account both apply to the sender (usage counted once, per account).

import { assetId } from '../../model/ids.js';
import type { ExecContext, Fail } from '../../state/exec-context.js';
import { fail } from '../../state/exec-context.js';
import type { Movement, TransferCheck } from '../../state/module-host.js';
import type { AssetControl, DefinitionControl, TransferLimit, TransferUsage } from './model.js';
import { clearAssetControl, isClearAsset, listHas } from './rows.js';
import { bucketStart, windowName } from './windows.js';

/** The sender's control row to store once the movement is applied (its usages moved on). */
export interface UsageWrite {
  readonly id: string;
  readonly row: AssetControl;
}

function screen(
  m: Movement,
  d: DefinitionControl | undefined,
  sender: AssetControl | undefined,
  receiver: AssetControl | undefined,
): Fail | undefined {
  if (d?.blacklisted) return fail('account_blacklisted', `${m.definition} is blacklisted`);
  if (sender?.blacklisted)
    return fail('account_blacklisted', `${m.from} is blacklisted for ${m.definition}: it may not send`);
  if (receiver?.blacklisted)
    return fail('account_blacklisted', `${m.to} is blacklisted for ${m.definition}: it may not receive`);
  if (d !== undefined) {
    for (const who of [m.from, m.to])
      if (who !== undefined && listHas(d.denyList, who))
        return fail('on_deny_list', `the deny list of ${m.definition} names ${who}`);
    if (d.allowList.length > 0)
      for (const who of [m.from, m.to])
        if (who !== undefined && !listHas(d.allowList, who))
          return fail('not_on_allow_list', `the allow list of ${m.definition} does not name ${who}`);
  }
  if (m.from === undefined) return undefined;
  if (d?.outgoingFrozen) return fail('transfer_frozen', `outgoing transfers of ${m.definition} are frozen`);
  if (sender?.outgoingFrozen)
    return fail('transfer_frozen', `${m.from} is frozen for outgoing transfers of ${m.definition}`);
  return undefined;
}

// The message is part of the committed result (the block's results root): it keeps base units, as every
// block already committed says it, so a replay of history gives the same results. Readers render amounts.
function exceeded(m: Movement, l: TransferLimit, spent: bigint, level: string): Fail {
  const w = windowName(l.window.kind);
  return fail(
    'transfer_cap_exceeded',
    `${level} cap ${l.cap.mantissa} (window ${w}, units at scale ${m.scale}) of ${m.definition} ` +
      `exceeded by ${m.from}: ${spent} with this transfer`,
  );
}

/** Caps of the sender; the usages after the movement when some period is capped. */
function caps(
  x: ExecContext,
  m: Movement,
  d: DefinitionControl | undefined,
  sender: AssetControl | undefined,
): Fail | TransferUsage[] {
  const limits: [TransferLimit, string][] = [];
  for (const l of d?.limits ?? []) limits.push([l, 'definition']);
  for (const l of sender?.limits ?? []) limits.push([l, 'account']);
  const usages: TransferUsage[] = [];
  for (const [l, level] of limits) {
    const w = l.window.kind;
    if (w === 'Tx') {
      if (m.amount > l.cap.mantissa) return exceeded(m, l, m.amount, level);
      continue;
    }
    const start = BigInt(bucketStart(w, x.block.blockTimeMs));
    const prior = sender?.usages.find((u) => u.window.kind === w && u.bucketStartMs === start);
    const spent = (prior?.spent.mantissa ?? 0n) + m.amount;
    if (spent > l.cap.mantissa) return exceeded(m, l, spent, level);
    if (!usages.some((u) => u.window.kind === w))
      usages.push({ window: { kind: w }, bucketStartMs: start, spent: { mantissa: spent, scale: m.scale } });
  }
  return usages.sort((a, b) => windowOrder(a) - windowOrder(b));
}

const ORDER = { Tx: 0, Hour: 1, Day: 2, Week: 3, Month: 4 } as const;
const windowOrder = (u: TransferUsage): number => ORDER[u.window.kind];

/**
 * Checks `m` against the controls: a Fail naming the rule, or what to write after the movement
 * (the sender's usages), or undefined when nothing is to be written. Costs three lookups when no
 * control applies (the common case on the commit path).
 */
export function checkControls(x: ExecContext, m: Movement): Fail | UsageWrite | undefined {
  const d = x.t.definitionControl.get(m.definition);
  const senderId = m.from === undefined ? undefined : assetId(m.definition, m.from);
  const sender = senderId === undefined ? undefined : x.t.assetControl.get(senderId);
  const receiver = m.to === undefined ? undefined : x.t.assetControl.get(assetId(m.definition, m.to));
  if (d === undefined && sender === undefined && receiver === undefined) return undefined;
  const refused = screen(m, d, sender, receiver);
  if (refused !== undefined) return refused;
  if (senderId === undefined || m.from === undefined) return undefined;
  const usages = caps(x, m, d, sender);
  if (!Array.isArray(usages)) return usages;
  if (usages.length === 0 && (sender === undefined || sender.usages.length === 0)) return undefined;
  const base = sender ?? clearAssetControl(m.definition, m.from);
  return { id: senderId, row: { ...base, usages } };
}

/** Stores the sender's row written by checkControls (deleted when it is all clear). */
export function writeUsage(x: ExecContext, w: UsageWrite): void {
  if (isClearAsset(w.row)) x.t.assetControl.delete(w.id);
  else x.t.assetControl.set(w.id, w.row);
}

/**
 * The module's transfer check (state/module-host.ts): refuses the movement, or stores the sender's
 * usages once it is applied.
 */
export const controlsTransferCheck: TransferCheck = (x, m) => {
  const v = checkControls(x, m);
  if (v === undefined || 'code' in v) return v;
  return (after) => writeUsage(after, v);
};
