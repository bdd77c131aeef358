// Real-world-asset lots (docs/rwas.md): the wire types of a lot, its deterministic ids, the limits and
// the rows' load check. A lot is a quantity of one specification (a kind of goods, a grade, a vintage)
// backed by a primary reference (a warehouse receipt, a certificate), owned by one account and governed
// by its controller (the issuing account). Splitting and merging keep provenance: a lot made from others
// names each of them with the quantity taken from it (`parents`). Quantities are the ledger's decimal
// amounts, held as mantissas at the lot's scale (fixed when the lot is registered: the quantity's
// fraction digits). A lot whose quantity left it entirely (merged into another, or redeemed) stays, at
// quantity 0, with its status, so every provenance link resolves.

import type { Infer } from '../../codec/codec.js';
import { enumOf, option, seq, struct } from '../../codec/compound.js';
import { bool, string, u32 } from '../../codec/primitives.js';
import { blake2b256 } from '../../crypto/hash.js';
import { AccountId, AssetDefinitionId } from '../../model/ids.js';
import { MetadataCodec } from '../../model/metadata.js';
import { type Numeric, NumericCodec } from '../../model/numeric.js';
import { toHex } from '../../util/hex.js';

/** Lots one MergeRwas takes (so the parents of a lot are at most this many). */
export const RWA_MERGE_LOTS_MAX = 16;
/** Bytes of a specification and of a primary reference (UTF-8). */
export const RWA_SPEC_BYTES_MAX = 128;
export const RWA_REFERENCE_BYTES_MAX = 256;
/** Encoded bytes of a lot's metadata (checked on registration; a split copies it to the new lot). */
export const RWA_METADATA_BYTES_MAX = 4096;
/** Characters of a lot id: `rwa_` and 40 hex digits. */
export const RWA_ID_CHARS = 44;

/** A lot id: `rwa_` + 40 lowercase hex digits (rwaLotId, rwaChildId). */
export const RwaId = string(RWA_ID_CHARS);

/** A specification (what kind of goods) and a primary reference (what backs the lot). */
export const RwaSpec = string(RWA_SPEC_BYTES_MAX);
export const RwaReference = string(RWA_REFERENCE_BYTES_MAX);

/** Why a lot holds no quantity any more; absent while it holds some. */
export const RwaStatusCodec = enumOf('RwaStatus', { Merged: {}, Redeemed: {} });
export type RwaStatus = Infer<typeof RwaStatusCodec>;

/** A lot this one was made from, and the quantity taken from it (at the lot's scale). */
export const RwaParentCodec = struct('RwaParent', { id: RwaId, quantity: NumericCodec });
export type RwaParent = Infer<typeof RwaParentCodec>;

/** A lot: world-state table 0x1d, keyed by its id. */
export const RwaLotCodec = struct('RwaLot', {
  id: RwaId,
  /** What the lot holds now, at its scale (0 once merged or redeemed). */
  quantity: NumericCodec,
  spec: RwaSpec,
  primaryReference: RwaReference,
  status: option(RwaStatusCodec),
  metadata: MetadataCodec,
  /** The lots it was made from (none for a registered lot; one for a split; each merged lot). */
  parents: seq(RwaParentCodec, RWA_MERGE_LOTS_MAX),
  /** The asset definition whose transfer rules every movement of the lot obeys (its policy). */
  controls: option(AssetDefinitionId),
  ownedBy: AccountId,
  /** The issuer: freezes, holds, releases, sets the controls and forces transfers. */
  controller: AccountId,
  isFrozen: bool,
  /** Reserved by the controller: it may not move (at the lot's scale, ≤ quantity). */
  heldQuantity: NumericCodec,
  /** Lots made from this one so far (the next child id's counter). */
  children: u32,
});
export type RwaLot = Infer<typeof RwaLotCodec>;

const utf8 = new TextEncoder();

function lotId(text: string): string {
  return `rwa_${toHex(blake2b256(utf8.encode(text))).slice(0, 40)}`;
}

/** The id of the lot `issuer` registers under `reference`: one lot per issuer and reference. */
export function rwaLotId(issuer: string, reference: string): string {
  return lotId(`rwa\u0000lot\u0000${issuer}\u0000${reference}`);
}

/** The id of the `n`-th lot made from `parent` (a split off it, or a merge it leads). */
export function rwaChildId(parent: string, n: number): string {
  return lotId(`rwa\u0000child\u0000${parent}\u0000${n}`);
}

/** The quantity the lot may move: none when frozen, else its quantity less what is held. */
export function freeQuantity(lot: RwaLot): bigint {
  return lot.isFrozen ? 0n : lot.quantity.mantissa - lot.heldQuantity.mantissa;
}

/** `mantissa` at the lot's scale as a Numeric. */
export const atScale = (lot: { quantity: Numeric }, mantissa: bigint): Numeric => ({
  mantissa,
  scale: lot.quantity.scale,
});

/** Load check: held within the quantity, one scale throughout, a closed lot empty. */
export function lotProblem(lot: RwaLot): string | undefined {
  const s = lot.quantity.scale;
  if (lot.heldQuantity.scale !== s || lot.parents.some((p) => p.quantity.scale !== s))
    return 'quantities at different scales';
  if (lot.heldQuantity.mantissa > lot.quantity.mantissa) return 'held quantity above the quantity';
  if (lot.status !== undefined && lot.quantity.mantissa !== 0n) return 'a closed lot with quantity';
  return undefined;
}
