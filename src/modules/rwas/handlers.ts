// The RWA lot instructions (docs/rwas.md §Instructions). Check order: the lot exists → permission (the
// owner for TransferRwa, MergeRwas, RedeemRwa; the controller, Admin or `CanControlRwa {rwa}` for the
// rest) → the lot still holds a quantity → the values (quantity, accounts) → frozen → free quantity →
// the transfer rules of the lot's policy (policy.ts). Quantity is conserved: a transfer of part of a
// lot splits it (the new lot names it as parent with the quantity taken), a merge moves every lot's
// quantity into one new lot (naming each), and only RedeemRwa lowers the total.

import { encode } from '../../codec/frame.js';
import { MetadataCodec } from '../../model/metadata.js';
import type { Numeric } from '../../model/numeric.js';
import { checkedAdd, toScale } from '../../state/amounts.js';
import { authorize } from '../../state/authorize.js';
import { type ExecContext, type Fail, fail, type Handler } from '../../state/exec-context.js';
import {
  atScale,
  freeQuantity,
  RWA_MERGE_LOTS_MAX,
  RWA_METADATA_BYTES_MAX,
  type RwaLot,
  rwaChildId,
  rwaLotId,
} from './model.js';
import { CONTROL_RWA } from './permissions.js';
import { checkPolicy } from './policy.js';

const isFail = (v: unknown): v is Fail => typeof v === 'object' && v !== null && 'code' in v;

function lotOf(x: ExecContext, id: string): RwaLot | Fail {
  const lot = x.t.rwaLot.get(id);
  return lot === undefined ? fail('rwa_not_found', `no lot ${id}`) : lot;
}

/** The lot, its owner's (or Admin's) authority, and an open lot. */
function ownedLot(x: ExecContext, id: string): RwaLot | Fail {
  const lot = lotOf(x, id);
  if (isFail(lot)) return lot;
  return authorize(x, [lot.ownedBy]) ?? openLot(lot);
}

/** The lot, its controller's (Admin's, `CanControlRwa {rwa}` holder's) authority, an open lot. */
function controlledLot(x: ExecContext, id: string): RwaLot | Fail {
  const lot = lotOf(x, id);
  if (isFail(lot)) return lot;
  return authorize(x, [lot.controller], CONTROL_RWA, lot.id) ?? openLot(lot);
}

function openLot(lot: RwaLot): RwaLot | Fail {
  return lot.status === undefined ? lot : fail('rwa_closed', `lot ${lot.id} holds nothing any more`);
}

/** `q` as a mantissa > 0 at the lot's scale. */
function quantityOf(lot: RwaLot, q: Numeric): bigint | Fail {
  const s = toScale(q, lot.quantity.scale);
  if (s.ok) return s.mantissa;
  return fail(
    'rwa_invalid',
    `a quantity of lot ${lot.id} is > 0 with at most ${lot.quantity.scale} fraction digits`,
  );
}

/** What of the lot may move: frozen → rwa_frozen; more than is free → rwa_quantity_unavailable. */
function movable(lot: RwaLot, mantissa: bigint): Fail | undefined {
  if (lot.isFrozen) return fail('rwa_frozen', `lot ${lot.id} is frozen`);
  if (mantissa > freeQuantity(lot))
    return fail(
      'rwa_quantity_unavailable',
      `lot ${lot.id} holds ${freeQuantity(lot)} free units at scale ${lot.quantity.scale}`,
    );
  return undefined;
}

export const registerRwa: Handler<'RegisterRwa'> = (x, ins) => {
  const id = rwaLotId(x.authority, ins.reference);
  if (!x.t.account.has(ins.owner)) return fail('account_not_found', `no account ${ins.owner}`);
  if (ins.controls !== undefined && !x.t.assetDefinition.has(ins.controls))
    return fail('asset_definition_not_found', `no asset definition ${ins.controls}`);
  if (ins.quantity.mantissa === 0n) return fail('rwa_invalid', 'a lot is registered with a quantity > 0');
  if (ins.spec === '' || ins.reference === '')
    return fail('rwa_invalid', 'a lot has a spec and a primary reference');
  if (encode(MetadataCodec, ins.metadata).length > RWA_METADATA_BYTES_MAX)
    return fail('rwa_invalid', `a lot's metadata is at most ${RWA_METADATA_BYTES_MAX} bytes encoded`);
  if (x.t.rwaLot.has(id)) return fail('rwa_exists', `lot ${id} exists`);
  const lot: RwaLot = {
    id,
    quantity: ins.quantity,
    spec: ins.spec,
    primaryReference: ins.reference,
    metadata: ins.metadata,
    parents: [],
    ...(ins.controls === undefined ? {} : { controls: ins.controls }),
    ownedBy: ins.owner,
    controller: x.authority,
    isFrozen: false,
    heldQuantity: { mantissa: 0n, scale: ins.quantity.scale },
    children: 0,
  };
  const policy = checkPolicy(x, lot, undefined, ins.owner, ins.quantity.mantissa);
  if (isFail(policy)) return policy;
  x.t.rwaLot.set(id, lot);
  policy();
  x.emit({
    kind: 'RwaRegistered',
    id,
    owner: ins.owner,
    controller: x.authority,
    spec: ins.spec,
    quantity: ins.quantity,
  });
  return undefined;
};

/** Moves `quantity` of `lot` to `to` (the checks after permission are shared by both transfers). */
function move(x: ExecContext, lot: RwaLot, to: string, quantity: Numeric, forced: boolean): Fail | undefined {
  const q = quantityOf(lot, quantity);
  if (isFail(q)) return q;
  if (!x.t.account.has(to)) return fail('account_not_found', `no account ${to}`);
  if (to === lot.ownedBy) return fail('rwa_invalid', `lot ${lot.id} is already owned by ${to}`);
  const refused = movable(lot, q);
  if (refused !== undefined) return refused;
  const policy = checkPolicy(x, lot, lot.ownedBy, to, q);
  if (isFail(policy)) return policy;
  let moved = lot.id;
  if (q === lot.quantity.mantissa) {
    x.t.rwaLot.set(lot.id, { ...lot, ownedBy: to });
  } else {
    moved = rwaChildId(lot.id, lot.children);
    if (x.t.rwaLot.has(moved)) return fail('rwa_exists', `lot ${moved} exists`);
    const taken = atScale(lot, q);
    x.t.rwaLot.set(lot.id, {
      ...lot,
      quantity: atScale(lot, lot.quantity.mantissa - q),
      children: lot.children + 1,
    });
    x.t.rwaLot.set(moved, {
      ...lot,
      id: moved,
      quantity: taken,
      parents: [{ id: lot.id, quantity: taken }],
      ownedBy: to,
      isFrozen: false,
      heldQuantity: atScale(lot, 0n),
      children: 0,
    });
  }
  policy();
  x.emit({
    kind: 'RwaTransferred',
    lot: lot.id,
    id: moved,
    from: lot.ownedBy,
    to,
    quantity: atScale(lot, q),
    forced,
  });
  return undefined;
}

export const transferRwa: Handler<'TransferRwa'> = (x, ins) => {
  const lot = ownedLot(x, ins.lot);
  return isFail(lot) ? lot : move(x, lot, ins.to, ins.quantity, false);
};

export const forceTransferRwa: Handler<'ForceTransferRwa'> = (x, ins) => {
  const lot = controlledLot(x, ins.lot);
  return isFail(lot) ? lot : move(x, lot, ins.to, ins.quantity, true);
};

/** Whether `b` may be merged with `a` (one owner, spec, scale, policy and controller). */
const sameKind = (a: RwaLot, b: RwaLot): boolean =>
  a.ownedBy === b.ownedBy &&
  a.spec === b.spec &&
  a.quantity.scale === b.quantity.scale &&
  a.controls === b.controls &&
  a.controller === b.controller;

export const mergeRwas: Handler<'MergeRwas'> = (x, ins) => {
  if (ins.lots.length < 2 || ins.lots.length > RWA_MERGE_LOTS_MAX)
    return fail('rwa_invalid', `a merge takes 2 to ${RWA_MERGE_LOTS_MAX} lots`);
  if (new Set(ins.lots).size !== ins.lots.length) return fail('rwa_mismatch', 'a merge names each lot once');
  const lots: RwaLot[] = [];
  for (const id of ins.lots) {
    const lot = ownedLot(x, id);
    if (isFail(lot)) return lot;
    lots.push(lot);
  }
  const first = lots[0]!;
  const other = lots.find((l) => !sameKind(first, l));
  if (other !== undefined)
    return fail(
      'rwa_mismatch',
      `lot ${other.id} differs from lot ${first.id} in owner, spec, scale, controls or controller`,
    );
  let total = 0n;
  for (const lot of lots) {
    const refused = movable(lot, lot.quantity.mantissa);
    if (refused !== undefined) return refused;
    const sum = checkedAdd(total, lot.quantity.mantissa);
    if (sum === undefined) return fail('overflow', 'the merged quantity would pass 2^128-1');
    total = sum;
  }
  const id = rwaChildId(first.id, first.children);
  if (x.t.rwaLot.has(id)) return fail('rwa_exists', `lot ${id} exists`);
  const zero = atScale(first, 0n);
  for (const lot of lots)
    x.t.rwaLot.set(lot.id, {
      ...lot,
      quantity: zero,
      status: { kind: 'Merged' },
      children: lot.id === first.id ? lot.children + 1 : lot.children,
    });
  x.t.rwaLot.set(id, {
    ...first,
    id,
    quantity: atScale(first, total),
    parents: lots.map((l) => ({ id: l.id, quantity: l.quantity })),
    heldQuantity: zero,
    children: 0,
  });
  x.emit({
    kind: 'RwaMerged',
    id,
    lots: [...ins.lots],
    owner: first.ownedBy,
    quantity: atScale(first, total),
  });
  return undefined;
};

export const redeemRwa: Handler<'RedeemRwa'> = (x, ins) => {
  const lot = ownedLot(x, ins.lot);
  if (isFail(lot)) return lot;
  const q = quantityOf(lot, ins.quantity);
  if (isFail(q)) return q;
  const refused = movable(lot, q);
  if (refused !== undefined) return refused;
  const policy = checkPolicy(x, lot, lot.ownedBy, undefined, q);
  if (isFail(policy)) return policy;
  const left = lot.quantity.mantissa - q;
  x.t.rwaLot.set(lot.id, {
    ...lot,
    quantity: atScale(lot, left),
    ...(left === 0n ? { status: { kind: 'Redeemed' as const } } : {}),
  });
  policy();
  x.emit({
    kind: 'RwaRedeemed',
    lot: lot.id,
    owner: lot.ownedBy,
    quantity: atScale(lot, q),
    left: atScale(lot, left),
  });
  return undefined;
};

function setFrozen(x: ExecContext, id: string, frozen: boolean): Fail | undefined {
  const lot = controlledLot(x, id);
  if (isFail(lot)) return lot;
  x.t.rwaLot.set(lot.id, { ...lot, isFrozen: frozen });
  x.emit({ kind: 'RwaFrozenSet', lot: lot.id, frozen });
  return undefined;
}

export const freezeRwa: Handler<'FreezeRwa'> = (x, ins) => setFrozen(x, ins.lot, true);
export const unfreezeRwa: Handler<'UnfreezeRwa'> = (x, ins) => setFrozen(x, ins.lot, false);

export const holdRwa: Handler<'HoldRwa'> = (x, ins) => {
  const lot = controlledLot(x, ins.lot);
  if (isFail(lot)) return lot;
  const q = quantityOf(lot, ins.quantity);
  if (isFail(q)) return q;
  const free = lot.quantity.mantissa - lot.heldQuantity.mantissa;
  if (q > free)
    return fail(
      'rwa_quantity_unavailable',
      `lot ${lot.id} holds ${free} unheld units at scale ${lot.quantity.scale}`,
    );
  const held = atScale(lot, lot.heldQuantity.mantissa + q);
  x.t.rwaLot.set(lot.id, { ...lot, heldQuantity: held });
  x.emit({ kind: 'RwaHoldChanged', lot: lot.id, held: true, quantity: atScale(lot, q), heldQuantity: held });
  return undefined;
};

export const releaseRwa: Handler<'ReleaseRwa'> = (x, ins) => {
  const lot = controlledLot(x, ins.lot);
  if (isFail(lot)) return lot;
  const q = quantityOf(lot, ins.quantity);
  if (isFail(q)) return q;
  if (q > lot.heldQuantity.mantissa)
    return fail(
      'rwa_quantity_unavailable',
      `lot ${lot.id} holds ${lot.heldQuantity.mantissa} held units at scale ${lot.quantity.scale}`,
    );
  const held = atScale(lot, lot.heldQuantity.mantissa - q);
  x.t.rwaLot.set(lot.id, { ...lot, heldQuantity: held });
  x.emit({ kind: 'RwaHoldChanged', lot: lot.id, held: false, quantity: atScale(lot, q), heldQuantity: held });
  return undefined;
};

export const setRwaControls: Handler<'SetRwaControls'> = (x, ins) => {
  const lot = controlledLot(x, ins.lot);
  if (isFail(lot)) return lot;
  if (ins.controls !== undefined && !x.t.assetDefinition.has(ins.controls))
    return fail('asset_definition_not_found', `no asset definition ${ins.controls}`);
  const { controls: _, ...rest } = lot;
  x.t.rwaLot.set(lot.id, ins.controls === undefined ? rest : { ...rest, controls: ins.controls });
  x.emit({
    kind: 'RwaControlsSet',
    lot: lot.id,
    ...(ins.controls === undefined ? {} : { controls: ins.controls }),
  });
  return undefined;
};

export const RWA_HANDLERS = {
  RegisterRwa: registerRwa,
  TransferRwa: transferRwa,
  MergeRwas: mergeRwas,
  RedeemRwa: redeemRwa,
  FreezeRwa: freezeRwa,
  UnfreezeRwa: unfreezeRwa,
  HoldRwa: holdRwa,
  ReleaseRwa: releaseRwa,
  ForceTransferRwa: forceTransferRwa,
  SetRwaControls: setRwaControls,
} as const;
