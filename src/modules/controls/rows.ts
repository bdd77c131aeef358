// Transfer control rows (tables 0x17, 0x18; docs/controls.md): the all-clear defaults and pure edits that
// keep their canonical shape (limits sorted by window tag, one per window; lists strictly sorted; the load
// checks of that shape sit beside the row codecs, model.ts). A row equal to its all-clear
// default is deleted rather than stored, so "no row" and "no rules" are one state.

import type { Numeric } from '../../model/numeric.js';
import {
  type AssetControl,
  CONTROL_WINDOWS,
  type ControlWindowKind,
  type DefinitionControl,
  type TransferLimit,
} from './model.js';

const tagOf = (w: ControlWindowKind): number => CONTROL_WINDOWS.indexOf(w);

export function clearAssetControl(definition: string, account: string): AssetControl {
  return { account, definition, outgoingFrozen: false, blacklisted: false, limits: [], usages: [] };
}

export function clearDefinitionControl(definition: string): DefinitionControl {
  return {
    definition,
    outgoingFrozen: false,
    blacklisted: false,
    allowList: [],
    denyList: [],
    limits: [],
  };
}

export function isClearAsset(c: AssetControl): boolean {
  return !c.outgoingFrozen && !c.blacklisted && c.limits.length === 0 && c.usages.length === 0;
}

export function isClearDefinition(c: DefinitionControl): boolean {
  return (
    !c.outgoingFrozen &&
    !c.blacklisted &&
    c.allowList.length === 0 &&
    c.denyList.length === 0 &&
    c.limits.length === 0
  );
}

/** `limits` with the cap of `window` set (a mantissa at `scale`) or removed (undefined), kept sorted. */
export function withCap(
  limits: readonly TransferLimit[],
  window: ControlWindowKind,
  cap: Numeric | undefined,
): TransferLimit[] {
  const rest = limits.filter((l) => l.window.kind !== window);
  if (cap !== undefined) rest.push({ window: { kind: window }, cap });
  return rest.sort((a, b) => tagOf(a.window.kind) - tagOf(b.window.kind));
}

/** `list` with `account` added or removed, kept strictly sorted. */
export function withEntry(list: readonly string[], account: string, listed: boolean): string[] {
  const rest = list.filter((a) => a !== account);
  if (listed) rest.push(account);
  return rest.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Binary search in a strictly sorted list. */
export function listHas(list: readonly string[], account: string): boolean {
  let lo = 0;
  let hi = list.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = list[mid]!;
    if (v === account) return true;
    if (v < account) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

export function windowTag(w: ControlWindowKind): number {
  return tagOf(w);
}
