// Chain parameters held in the world state (docs/data-model.md §Parameters); changed only by
// `SetParameter` so that every peer applies the same limits at the same height.

import type { Codec, Json } from '../codec/codec.js';
import { enumOf, map, struct } from '../codec/compound.js';
import { jsonValue, varuint } from '../codec/primitives.js';
import { Name } from './names.js';
import { DEFAULT_BLOCK_MAX_WEIGHT, DEFAULT_TRANSACTION_MAX_WEIGHT } from './weights-defaults.js';

export const ParameterCodec = enumOf('Parameter', {
  BlockMaxTransactions: { value: varuint },
  BlockTimeMs: { value: varuint },
  CommitTimeMs: { value: varuint },
  MaxClockDriftMs: { value: varuint },
  TransactionMaxInstructions: { value: varuint },
  TransactionMaxBytes: { value: varuint },
  Custom: { id: Name, payload: jsonValue(16 * 1024) },
  /**
   * The smallest note ShieldAsset accepts, in base units of the native asset. Kept in the custom map
   * under SHIELDED_NOTE_MIN_UNITS_KEY (the Parameters row keeps its layout: older data dirs load
   * unchanged); unset, the minimum is one whole native unit (10^scale base units).
   */
  ShieldedNoteMinUnits: { value: varuint },
  // Appended after Custom so that every earlier variant keeps its tag (blocks on disk still decode). Kept
  // in `custom` under TRIGGERS_PER_ACCOUNT_PARAMETER (model/triggers.ts), so the Parameters row keeps its
  // layout and rows persisted before this variant load unchanged.
  TriggersPerAccountMax: { value: varuint },
  // The cost model's caps (docs/cost-model.md), appended after Custom: tags are positions.
  TransactionMaxWeight: { value: varuint },
  BlockMaxWeight: { value: varuint },
});

/** Where ShieldedNoteMinUnits is kept: a custom id that `SetParameter Custom` may not write. */
export const SHIELDED_NOTE_MIN_UNITS_KEY = 'shielded_note_min_units';

const LEGACY_FIELDS = {
  blockMaxTransactions: varuint,
  blockTimeMs: varuint,
  commitTimeMs: varuint,
  maxClockDriftMs: varuint,
  transactionMaxInstructions: varuint,
  transactionMaxBytes: varuint,
  custom: map(Name, jsonValue(16 * 1024)),
};

/** The parameters as queries answer them (GET /v1/parameters): every field. */
export const ParametersCodec = struct('Parameters', {
  ...LEGACY_FIELDS,
  transactionMaxWeight: varuint,
  blockMaxWeight: varuint,
});

const LegacyParametersCodec = struct('ParametersRowBase', LEGACY_FIELDS);

/**
 * The parameters row as the world state persists it: the fields a chain had before the cost model, then
 * the two weight caps only when either differs from its default. A state written before the caps existed
 * therefore loads unchanged (its row decodes to the default caps) and keeps its state root until a
 * SetParameter changes a cap. Canonical: caps equal to the defaults are never written.
 */
export const ParametersRowCodec: Codec<Parameters> = {
  name: 'ParametersRow',
  minBytes: LegacyParametersCodec.minBytes,
  encode(w, v) {
    LegacyParametersCodec.encode(w, v);
    if (
      v.transactionMaxWeight !== DEFAULT_TRANSACTION_MAX_WEIGHT ||
      v.blockMaxWeight !== DEFAULT_BLOCK_MAX_WEIGHT
    ) {
      varuint.encode(w, v.transactionMaxWeight);
      varuint.encode(w, v.blockMaxWeight);
    }
  },
  decode(r) {
    const base = LegacyParametersCodec.decode(r);
    if (r.remaining() === 0)
      return {
        ...base,
        transactionMaxWeight: DEFAULT_TRANSACTION_MAX_WEIGHT,
        blockMaxWeight: DEFAULT_BLOCK_MAX_WEIGHT,
      };
    const transactionMaxWeight = varuint.decode(r);
    return { ...base, transactionMaxWeight, blockMaxWeight: varuint.decode(r) };
  },
  toJson: (v) => ParametersCodec.toJson(v),
  fromJson: (j, path) => ParametersCodec.fromJson(j, path),
  describe: (ref) => ParametersCodec.describe(ref),
  children: () => ParametersCodec.children(),
};

export interface Parameters {
  blockMaxTransactions: number;
  blockTimeMs: number;
  commitTimeMs: number;
  maxClockDriftMs: number;
  transactionMaxInstructions: number;
  transactionMaxBytes: number;
  custom: Map<string, Json>;
  /** The largest weight one transaction may have (docs/cost-model.md). */
  transactionMaxWeight: number;
  /** The largest weight one block may have, its triggers included. */
  blockMaxWeight: number;
}

/** The parameters of a chain before any SetParameter; a fresh value each call (its map is mutable). */
export function defaultParameters(): Parameters {
  return {
    blockMaxTransactions: 512,
    blockTimeMs: 1000,
    commitTimeMs: 2000,
    maxClockDriftMs: 1000,
    transactionMaxInstructions: 4096,
    transactionMaxBytes: 65536,
    custom: new Map(),
    transactionMaxWeight: DEFAULT_TRANSACTION_MAX_WEIGHT,
    blockMaxWeight: DEFAULT_BLOCK_MAX_WEIGHT,
  };
}
