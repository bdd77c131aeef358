// The data model's schema registry: every type that crosses the wire or is hashed, described once.
// Backs `GET /schema`, frame schema hashes and the SDK's JSON mapping (docs/codec.md §5). A ledger module
// adds its stored row types from its `wire.ts` (`declareSchemaTypes`). Registries are filled on first
// read, so a registry made before the modules' declarations ran still sees them.

import type { AnyCodec } from '../codec/codec.js';
import { CODEC_VERSION } from '../codec/frame.js';
import { SchemaRegistry } from '../codec/registry.js';
import { BlockCodec } from './block.js';
import { EventEnvelopeCodec } from './events.js';
import { ParametersCodec } from './parameters.js';
import { QueryResponseCodec, SignedQueryCodec } from './queries.js';
import { ReceiptCodec } from './receipt.js';
import { SignedTransactionBatchCodec, SignedTransactionCodec } from './transaction.js';

/** The version of the data model; bumped whenever a wire type changes incompatibly. */
export const DATA_MODEL_VERSION = 1;

/**
 * A registry of the model's wire types plus `extra` named codecs (e.g. the gateway's response views).
 * A type's schema hash depends only on its own definition, so it is the same in every registry.
 */
export function createSchemaRegistry(extra: AnyCodec[] = []): SchemaRegistry {
  const r = new SchemaRegistry(CODEC_VERSION);
  const model = [
    SignedTransactionCodec,
    SignedTransactionBatchCodec,
    SignedQueryCodec,
    QueryResponseCodec,
    BlockCodec,
    EventEnvelopeCodec,
    ParametersCodec,
    ReceiptCodec,
  ];
  r.registerLater(() => [...model, ...MODULE_SCHEMA_TYPES, ...extra]);
  return r;
}

const MODULE_SCHEMA_TYPES: AnyCodec[] = [];

/** Declares a module's wire types (its stored rows) for every schema registry. */
export function declareSchemaTypes(types: readonly AnyCodec[]): void {
  for (const c of types) {
    if (c.name === undefined) throw new Error('only named codecs are schema types');
    MODULE_SCHEMA_TYPES.push(c);
  }
}

/** The module types declared so far. */
export function moduleSchemaTypes(): readonly AnyCodec[] {
  return MODULE_SCHEMA_TYPES;
}

/** One shared, immutable registry (it only caches pure functions of the type definitions). */
export const SCHEMA = createSchemaRegistry();
