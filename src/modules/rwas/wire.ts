// The RWA lots module's wire declarations (docs/rwas.md): its instruction and event variants, rejection
// meanings, weights, stored row type and table. Their tags, numbers and ids are in model/tags.ts;
// importing this file (src/modules/registry.ts does) declares them into the core's codecs and tables.

import { option, seq } from '../../codec/compound.js';
import { bool } from '../../codec/primitives.js';
import { AccountId, AssetDefinitionId } from '../../model/ids.js';
import type { Instruction } from '../../model/instructions.js';
import { MetadataCodec } from '../../model/metadata.js';
import { NumericCodec } from '../../model/numeric.js';
import { row, sized } from '../../model/weights.js';
import { declareModuleWire } from '../../state/module-wire.js';
import { type TableDef, tableDef } from '../../state/tables.js';
import {
  lotProblem,
  RWA_MERGE_LOTS_MAX,
  RwaId,
  type RwaLot,
  RwaLotCodec,
  RwaReference,
  RwaSpec,
} from './model.js';
// Its permission token is part of its wire: declared wherever the module registry is loaded (the CLI's
// `permission tokens` lists it), not only where the handlers run.
import './permissions.js';

/** One contiguous block. Quantities are decimals at (or exactly convertible to) the lot's scale. */
const INSTRUCTIONS = {
  /** A new lot `rwaLotId(authority, reference)` at the quantity's scale; the authority is its controller. */
  RegisterRwa: {
    reference: RwaReference,
    spec: RwaSpec,
    quantity: NumericCodec,
    owner: AccountId,
    controls: option(AssetDefinitionId),
    metadata: MetadataCodec,
  },
  /** Moves `quantity` of the lot to `to`: the whole lot changes hands, a part is split off as a new lot. */
  TransferRwa: { lot: RwaId, to: AccountId, quantity: NumericCodec },
  /** Makes one lot of several of one owner, spec, scale, controls and controller. */
  MergeRwas: { lots: seq(RwaId, RWA_MERGE_LOTS_MAX) },
  /** Burns `quantity` of the lot (handed back to its issuer). */
  RedeemRwa: { lot: RwaId, quantity: NumericCodec },
  FreezeRwa: { lot: RwaId },
  UnfreezeRwa: { lot: RwaId },
  /** Reserves `quantity` of the lot: it may not move until released. */
  HoldRwa: { lot: RwaId, quantity: NumericCodec },
  ReleaseRwa: { lot: RwaId, quantity: NumericCodec },
  /** TransferRwa by the lot's controller, without the owner. */
  ForceTransferRwa: { lot: RwaId, to: AccountId, quantity: NumericCodec },
  /** The asset definition whose transfer rules the lot obeys (absent: none). */
  SetRwaControls: { lot: RwaId, controls: option(AssetDefinitionId) },
};

/** One per instruction; quantities at the lot's scale. */
const EVENTS = {
  RwaRegistered: {
    id: RwaId,
    owner: AccountId,
    controller: AccountId,
    spec: RwaSpec,
    quantity: NumericCodec,
  },
  /** `id` is the lot that moved: `lot` itself for the whole lot, else the lot split off it. */
  RwaTransferred: {
    lot: RwaId,
    id: RwaId,
    from: AccountId,
    to: AccountId,
    quantity: NumericCodec,
    forced: bool,
  },
  RwaMerged: { id: RwaId, lots: seq(RwaId, RWA_MERGE_LOTS_MAX), owner: AccountId, quantity: NumericCodec },
  RwaRedeemed: { lot: RwaId, owner: AccountId, quantity: NumericCodec, left: NumericCodec },
  RwaFrozenSet: { lot: RwaId, frozen: bool },
  /** `held` true for HoldRwa, false for ReleaseRwa; `heldQuantity` what is held after it. */
  RwaHoldChanged: { lot: RwaId, held: bool, quantity: NumericCodec, heldQuantity: NumericCodec },
  RwaControlsSet: { lot: RwaId, controls: option(AssetDefinitionId) },
};

declare module '../../model/instructions.js' {
  interface InstructionVariants extends RwaInstructionVariants {}
}
declare module '../../model/events.js' {
  interface DataEventVariants extends RwaEventVariants {}
}
declare module '../../state/tables.js' {
  interface TableRows {
    rwaLot: RwaLot;
  }
}
type RwaInstructionVariants = typeof INSTRUCTIONS;
type RwaEventVariants = typeof EVENTS;

export const RWA_TABLES = [
  tableDef<RwaLot>('rwaLot', RwaLotCodec, { idOf: (v) => v.id, check: (_id, v) => lotProblem(v) }),
] as const;

/** Per lot a merge reads and closes (on top of its base). */
export const MERGE_WEIGHT_PER_LOT = 40;

export const rwasWire = declareModuleWire({
  name: 'rwas',
  instructions: INSTRUCTIONS,
  events: EVENTS,
  // 860-879; texts are stable (a rejection's message is in the committed result).
  rejections: {
    rwa_invalid: 'a quantity is zero or has more fraction digits than the lot, or a field is out of bounds',
    rwa_not_found: 'no lot with this id',
    rwa_exists: 'the issuer already registered a lot under this primary reference',
    rwa_frozen: 'the lot is frozen: none of it may move',
    rwa_quantity_unavailable: 'the quantity passes what the lot holds free (its quantity less what is held)',
    rwa_closed: 'the lot holds nothing any more (merged or redeemed)',
    rwa_mismatch: 'lots merged must share owner, spec, scale, controls and controller, each named once',
  },
  weights: {
    // Writes a lot (metadata up to 4 KiB walked once) and, with controls, runs the transfer checks.
    RegisterRwa: sized(80, 0.1),
    // Reads the lot, runs the transfer checks of its policy, writes it and (a part) a new lot.
    TransferRwa: row(120),
    MergeRwas: {
      ...row(80),
      nested: `+ ${MERGE_WEIGHT_PER_LOT} × lots`,
      extra: (ins: Instruction) => (ins.kind === 'MergeRwas' ? MERGE_WEIGHT_PER_LOT * ins.lots.length : 0),
    },
    RedeemRwa: row(100),
    FreezeRwa: row(40),
    UnfreezeRwa: row(40),
    HoldRwa: row(40),
    ReleaseRwa: row(40),
    ForceTransferRwa: row(120),
    SetRwaControls: row(50),
  },
  schemaTypes: [RwaLotCodec],
  tables: RWA_TABLES as unknown as readonly TableDef<never>[],
  docs: 'docs/rwas.md',
});
