// Chain parameters held in the world state (docs/data-model.md §Parameters); changed only by
// `SetParameter` so that every peer applies the same limits at the same height.

import type { Json } from '../codec/codec.js';
import { enumOf, map, struct } from '../codec/compound.js';
import { jsonValue, varuint } from '../codec/primitives.js';
import { Name } from './names.js';

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
});

/** Where ShieldedNoteMinUnits is kept: a custom id that `SetParameter Custom` may not write. */
export const SHIELDED_NOTE_MIN_UNITS_KEY = 'shielded_note_min_units';

export const ParametersCodec = struct('Parameters', {
  blockMaxTransactions: varuint,
  blockTimeMs: varuint,
  commitTimeMs: varuint,
  maxClockDriftMs: varuint,
  transactionMaxInstructions: varuint,
  transactionMaxBytes: varuint,
  custom: map(Name, jsonValue(16 * 1024)),
});

export interface Parameters {
  blockMaxTransactions: number;
  blockTimeMs: number;
  commitTimeMs: number;
  maxClockDriftMs: number;
  transactionMaxInstructions: number;
  transactionMaxBytes: number;
  custom: Map<string, Json>;
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
  };
}
