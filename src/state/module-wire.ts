// A ledger module's wire declarations (docs/design/modules.md "Wire declarations"): everything of the
// module that crosses the wire, is hashed or is stored — instruction and event variants, rejection
// meanings, parameters, weights, schema types, tables. A module declares them once, in its folder's
// `wire.ts`, by calling `declareModuleWire`; the core assembles its codecs from its own declarations plus
// these, in the tag order of model/tags.ts, so the encodings and schema hashes are those of one list.
// Only src/modules/registry.ts imports the modules' `wire.ts` files, and every entry point (node, CLI,
// SDK, simulator, tests) imports the registry before its first codec use; a codec used before every
// tag has its declaration throws, naming what is missing.

import type { AnyCodec } from '../codec/codec.js';
import type { Fields } from '../codec/compound.js';
import { DataEventCodec } from '../model/events.js';
import { InstructionCodec, type InstructionKind } from '../model/instructions.js';
import { declareModuleParameters, type ModuleParameter, ParameterCodec } from '../model/parameters.js';
import { declareRejections, type RejectionCode, undeclaredRejections } from '../model/rejections.js';
import { declareSchemaTypes } from '../model/schema.js';
import { TABLE_TAGS } from '../model/tags.js';
import { declareWeights, type ModuleWeightRule, WEIGHTS } from '../model/weights.js';
import { declareTables, TABLES, type TableDef } from './tables.js';

export interface ModuleWire {
  /** The module's name (its folder under src/modules/). */
  readonly name: string;
  /** Its instruction variants' fields, by kind (tags in model/tags.ts INSTRUCTION_TAGS). */
  readonly instructions?: Readonly<Record<string, Fields>>;
  /** Its data event variants' fields, by kind (DATA_EVENT_TAGS). */
  readonly events?: Readonly<Record<string, Fields>>;
  /** Its rejection codes' meanings (numbers in REJECTION_NUMBERS). */
  readonly rejections?: Readonly<Partial<Record<RejectionCode, string>>>;
  /** Its chain parameters (PARAMETER_TAGS), with defaults and bounds. */
  readonly parameters?: readonly ModuleParameter[];
  /** The weight of each of its instructions. */
  readonly weights?: Readonly<Partial<Record<InstructionKind, ModuleWeightRule>>>;
  /** Its named wire types for the schema registry (its stored rows). */
  readonly schemaTypes?: readonly AnyCodec[];
  /** Its world-state tables (ids in TABLE_TAGS). */
  readonly tables?: readonly TableDef<never>[];
  /** Its documentation page (errors, weights, parameters and limits are listed there). */
  readonly docs: string;
}

const WIRES: ModuleWire[] = [];

/** Declares a module's wire pieces into the core's codecs and tables; returns the declaration. */
export function declareModuleWire(wire: ModuleWire): ModuleWire {
  if (WIRES.some((w) => w.name === wire.name)) throw new Error(`module ${wire.name} declared its wire twice`);
  if (wire.instructions !== undefined) InstructionCodec.declare(wire.instructions);
  if (wire.events !== undefined) DataEventCodec.declare(wire.events);
  if (wire.rejections !== undefined) declareRejections(wire.rejections);
  if (wire.parameters !== undefined) declareModuleParameters(wire.parameters);
  if (wire.weights !== undefined) declareWeights(wire.weights);
  if (wire.schemaTypes !== undefined) declareSchemaTypes(wire.schemaTypes);
  if (wire.tables !== undefined) declareTables(wire.tables);
  const frozen = Object.freeze({ ...wire });
  WIRES.push(frozen);
  return frozen;
}

/** The module wires declared in this process, in declaration (registry) order. */
export function declaredWires(): readonly ModuleWire[] {
  return WIRES;
}

/**
 * Every tag-table entry without a declaration (core or module): instruction, event and parameter
 * variants without fields, rejection codes without a meaning, instructions without a weight, table ids
 * without a definition. Empty when every module of the tag tables has declared its wire.
 */
export function undeclaredWire(): string[] {
  const out: string[] = [];
  for (const k of InstructionCodec.missing()) out.push(`instruction ${k}`);
  for (const k of DataEventCodec.missing()) out.push(`event ${k}`);
  for (const k of ParameterCodec.missing()) out.push(`parameter ${k}`);
  for (const c of undeclaredRejections()) out.push(`rejection ${c}`);
  for (const k of InstructionCodec.tags) if (!Object.hasOwn(WEIGHTS, k)) out.push(`weight of ${k}`);
  for (const t of Object.keys(TABLE_TAGS)) if (!Object.hasOwn(TABLES, t)) out.push(`table ${t}`);
  return out;
}
