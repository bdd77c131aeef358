// The data model's schema registry: every type that crosses the wire or is hashed, described once.
// Backs `GET /schema`, frame schema hashes and the SDK's JSON mapping (docs/codec.md §5).

import { CODEC_VERSION } from '../codec/frame.js';
import { SchemaRegistry } from '../codec/registry.js';
import { BlockCodec } from './block.js';
import { EventEnvelopeCodec } from './events.js';
import { ParametersCodec } from './parameters.js';
import { QueryResponseCodec, SignedQueryCodec } from './queries.js';
import { SignedTransactionCodec } from './transaction.js';

/** The version of the data model; bumped whenever a wire type changes incompatibly. */
export const DATA_MODEL_VERSION = 1;

export function createSchemaRegistry(): SchemaRegistry {
  const r = new SchemaRegistry(CODEC_VERSION);
  for (const c of [
    SignedTransactionCodec,
    SignedQueryCodec,
    QueryResponseCodec,
    BlockCodec,
    EventEnvelopeCodec,
    ParametersCodec,
  ]) {
    r.register(c);
  }
  return r;
}

/** One shared, immutable registry (it only caches pure functions of the type definitions). */
export const SCHEMA = createSchemaRegistry();
