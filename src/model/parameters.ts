// Chain parameters held in the world state (docs/data-model.md §Parameters); changed only by
// `SetParameter` so that every peer applies the same limits at the same height. Parameter tags are
// positions in model/tags.ts PARAMETER_TAGS. A ledger module declares its own parameters in its
// `wire.ts` (`declareModuleParameters`): each is a `{ value }` variant kept in the custom map under its
// key, so the Parameters row keeps its layout whatever modules a build has.

import type { Codec, Json } from '../codec/codec.js';
import { map, struct } from '../codec/compound.js';
import { type OpenEnumValue, openEnum } from '../codec/open-enum.js';
import { jsonValue, varuint } from '../codec/primitives.js';
import { Name } from './names.js';
import { PARAMETER_TAGS, type ParameterTag, type SameNames } from './tags.js';
import { DEFAULT_BLOCK_MAX_WEIGHT, DEFAULT_TRANSACTION_MAX_WEIGHT } from './weights-defaults.js';

const CORE_PARAMETER_VARIANTS = {
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
  // The cost model's caps (docs/cost-model.md), appended after Custom: tags are positions.
  TransactionMaxWeight: { value: varuint },
  BlockMaxWeight: { value: varuint },
};

/** Every parameter variant of the build: the core's, and each module's by augmentation in its `wire.ts`. */
export interface ParameterVariants extends CoreParameterVariants {}
type CoreParameterVariants = typeof CORE_PARAMETER_VARIANTS;
export type Parameter = OpenEnumValue<ParameterVariants>;

/** The parameter codec (`SetParameter`, `ParameterChanged`): core and module variants in tag order. */
export const ParameterCodec = openEnum<Parameter>(
  'Parameter',
  PARAMETER_TAGS,
  CORE_PARAMETER_VARIANTS,
  "import src/modules/registry.ts to declare the modules' parameters",
);

/** Compile-time check: the tag table and the declared variants name the same kinds. */
export const PARAMETER_VARIANTS_MATCH_TAGS: SameNames<ParameterTag, Parameter['kind']> = true;

/**
 * A chain parameter a module declares: a `{ value }` variant of Parameter, kept among the custom
 * parameters under `key` (which `SetParameter Custom` may then not write), read with `moduleParameter`.
 */
export interface ModuleParameter {
  /** The Parameter variant (its tag in model/tags.ts PARAMETER_TAGS). */
  readonly kind: string;
  /** The custom-map id it is kept under. */
  readonly key: string;
  /** Its value before any SetParameter. */
  readonly default: number;
  /** The bounds SetParameter enforces (invalid_parameter outside). */
  readonly min: number;
  readonly max: number;
  /** What it limits, for the module's docs page. */
  readonly doc: string;
}

const MODULE_PARAMETERS = new Map<string, ModuleParameter>();

/** Declares module parameters: their Parameter variants (`{ value: varuint }`) and their keys. */
export function declareModuleParameters(list: readonly ModuleParameter[]): void {
  for (const p of list) {
    if (MODULE_PARAMETERS.has(p.kind)) throw new Error(`parameter ${p.kind} is declared twice`);
    MODULE_PARAMETERS.set(p.kind, Object.freeze({ ...p }));
  }
  ParameterCodec.declare(Object.fromEntries(list.map((p) => [p.kind, { value: varuint }])));
}

/** The module parameter of this kind, or undefined (a core parameter, or none). */
export function moduleParameterSpec(kind: string): ModuleParameter | undefined {
  return MODULE_PARAMETERS.get(kind);
}

/** The module parameter kept under this custom id, or undefined. */
export function moduleParameterByKey(key: string): ModuleParameter | undefined {
  for (const p of MODULE_PARAMETERS.values()) if (p.key === key) return p;
  return undefined;
}

/** A module parameter's value in `params`: its custom entry when within bounds, else its default. */
export function moduleParameter(params: Pick<Parameters, 'custom'>, kind: string): number {
  const spec = MODULE_PARAMETERS.get(kind);
  if (spec === undefined) throw new Error(`no module parameter ${kind}`);
  const v = params.custom.get(spec.key);
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= spec.min && v <= spec.max
    ? v
    : spec.default;
}

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
  /** The largest weight one block may have, the modules' due work included. */
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
