// Fuzz targets for the stream subscription inputs:
// the first WebSocket message of GET /events (binary EventSubscription frame or JSON text) through
// parseEventRequest, and the SSE `filter` parameter through parseEventFilter. An accepted subscription
// must re-encode to its bytes (binary form) and its matcher must evaluate every kind of event without
// throwing; a refusal is a reason string (close 1008) or `{path, reason}` (400 invalid_filter).

import fc from 'fast-check';
import type { Json } from '../../../src/codec/codec.js';
import { decodeFrame, encode } from '../../../src/codec/frame.js';
import {
  EVENT_FILTER_FIELDS,
  type EventFields,
  parseEventFilter,
} from '../../../src/gateway/event-filter.js';
import { EventSubscriptionView, SUBSCRIPTION_DECODE_LIMITS } from '../../../src/gateway/views/events.js';
import { parseEventRequest } from '../../../src/gateway/ws-events.js';
import { createSchemaRegistry } from '../../../src/model/schema.js';
import { QUERY_LANGUAGE } from '../../../src/node/query-language.js';
import { fromHex, toHex } from '../../../src/util/hex.js';
import { codecInputs, judge, wrap } from './codec-targets.js';
import type { FuzzTarget, Outcome } from './fuzz-target.js';
import { applyMutations, mutationsArb } from './mutate.js';

/** gateway.filter_depth_max default. */
const FILTER_DEPTH_MAX = 10;
const SCHEMA = createSchemaRegistry([EventSubscriptionView]);
const TEXT_RANDOM_CHARS_MAX = 512;

/** One event of each shape, with and without the optional fields (event-filter.ts projection). */
const SAMPLE_EVENTS: readonly EventFields[] = [
  { kind: 'transaction', tx_status: 'Queued', tx_hash: 'ab'.repeat(32) },
  { kind: 'transaction', tx_status: 'Committed', tx_hash: '00'.repeat(32), block_height: 7 },
  { kind: 'block', block_status: 'Committed', block_height: 3 },
  { kind: 'data', tx_hash: 'cd'.repeat(32), block_height: 9, data_kind: 'AccountCreated' },
];

const OPERATORS = ['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'in', 'nin', 'exists', 'is_null'] as const;
const fieldArb = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...EVENT_FILTER_FIELDS) },
  { weight: 1, arbitrary: fc.constantFrom('nope', '__proto__', 'constructor', '', 'kind.x') },
);
const scalarArb: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom('transaction', 'block', 'data', 'Committed', 'Queued', 'AccountCreated'),
  fc.integer({ min: -5, max: 20 }),
  fc.constant(null),
  fc.boolean(),
  fc.string({ maxLength: 8 }),
);

/** Filter expressions over the event fields: mostly valid, sometimes with unknown fields or operators. */
export const filterArb: fc.Arbitrary<Json> = fc.letrec<{ expr: Json }>((tie) => ({
  expr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc
      .tuple(fc.constantFrom(...OPERATORS), fieldArb, scalarArb, fc.array(scalarArb, { maxLength: 4 }))
      .map(
        ([op, field, v, list]): Json =>
          op === 'exists' || op === 'is_null'
            ? { [op]: field }
            : { [op]: [field, op === 'in' || op === 'nin' ? list : v] },
      ),
    fc.record({ not: tie('expr') }),
    fc.record({ and: fc.array(tie('expr'), { maxLength: 3 }) }),
    fc.record({ or: fc.array(tie('expr'), { maxLength: 3 }) }),
  ),
})).expr;

/** Runs a compiled matcher over every sample event; a throw is a finding. */
function evaluateAll(match: (f: EventFields) => boolean): string | undefined {
  for (const e of SAMPLE_EVENTS) {
    if (typeof match(e) !== 'boolean') return `matcher returned a non-boolean on ${e.kind}`;
  }
  return undefined;
}

export interface SubscriptionInput {
  binary: boolean;
  bytes: Uint8Array;
}

const subscriptionValues = fc.record(
  { filter: filterArb, since: fc.oneof(fc.nat(1000), fc.maxSafeNat()) },
  { requiredKeys: [], noNullPrototype: true },
) as fc.Arbitrary<{ filter?: Json; since?: number }>;

function textInputs(): fc.Arbitrary<Uint8Array> {
  const enc = new TextEncoder();
  const valid = subscriptionValues.map((v) => enc.encode(JSON.stringify(v)));
  return fc.oneof(
    { weight: 1, arbitrary: fc.string({ maxLength: TEXT_RANDOM_CHARS_MAX }).map((s) => enc.encode(s)) },
    { weight: 1, arbitrary: valid },
    {
      weight: 4,
      arbitrary: fc
        .tuple(valid, valid, mutationsArb)
        .map(([b, other, ms]) => applyMutations(b, ms, other, [])),
    },
  );
}

type RequestResult = ReturnType<typeof parseEventRequest>;

export function eventSubscriptionTarget(): FuzzTarget<SubscriptionInput, RequestResult> {
  const binary = codecInputs({
    codec: EventSubscriptionView,
    registry: SCHEMA,
    values: subscriptionValues,
    forms: ['frame', 'bare'],
    limits: SUBSCRIPTION_DECODE_LIMITS,
  });
  return {
    name: 'EventSubscription',
    inputs: fc.oneof(
      binary.map((bytes) => ({ binary: true, bytes })),
      textInputs().map((bytes) => ({ binary: false, bytes })),
    ),
    codes: new Set(['ws_close_1008']),
    decode: ({ binary: isBinary, bytes }) =>
      parseEventRequest(Buffer.from(bytes), isBinary, {
        schema: SCHEMA,
        filterDepthMax: FILTER_DEPTH_MAX,
        query: QUERY_LANGUAGE,
      }),
    judge({ binary: isBinary, bytes }, r): Outcome {
      if (!r.ok) {
        if (typeof r.reason !== 'string' || r.reason === '')
          return { accepted: false, problem: 'empty reason' };
        return { accepted: false, code: 'ws_close_1008' };
      }
      const problem = evaluateAll(r.request.match);
      if (problem !== undefined) return { accepted: true, problem };
      if (!isBinary) return { accepted: true };
      const d = decodeFrame(SCHEMA, EventSubscriptionView, bytes, SUBSCRIPTION_DECODE_LIMITS);
      if (!d.ok) return { accepted: true, problem: `accepted, but decodeFrame refuses it: ${d.error.code}` };
      const form = bytes[0] === 1 ? 'bare' : 'frame';
      return judge(
        d,
        (v) => wrap(SCHEMA, 'EventSubscription', encode(EventSubscriptionView, v), form),
        bytes,
      );
    },
    size: (i) => i.bytes.length,
    save: (i) => ({ binary: i.binary, input_hex: toHex(i.bytes) }),
    load: (s) => ({ binary: s.binary === true, bytes: fromHex(String(s.input_hex)) ?? new Uint8Array() }),
  };
}

/** The SSE `filter` query parameter: random text, valid expressions, mutated expressions. */
export function eventFilterTarget(): FuzzTarget<string, ReturnType<typeof parseEventFilter>> {
  const valid = filterArb.map((f) => JSON.stringify(f));
  const dec = new TextDecoder();
  const enc = new TextEncoder();
  return {
    name: 'event filter',
    inputs: fc.oneof(
      { weight: 1, arbitrary: fc.string({ maxLength: TEXT_RANDOM_CHARS_MAX, unit: 'binary' }) },
      { weight: 2, arbitrary: valid },
      {
        weight: 5,
        arbitrary: fc
          .tuple(valid, valid, mutationsArb)
          .map(([a, b, ms]) => dec.decode(applyMutations(enc.encode(a), ms, enc.encode(b), []))),
      },
    ),
    codes: new Set(['invalid_filter']),
    decode: (text) => parseEventFilter(text, FILTER_DEPTH_MAX, QUERY_LANGUAGE),
    judge(text, r): Outcome {
      if (!r.ok) {
        const d = r.details;
        if (typeof d.path !== 'string' || typeof d.reason !== 'string')
          return { accepted: false, problem: 'bad details' };
        return { accepted: false, code: 'invalid_filter' };
      }
      const problem = evaluateAll(r.match);
      if (problem !== undefined) return { accepted: true, problem };
      // The same expression re-serialised must select the same events (JSON text is not canonical).
      const again =
        text.trim() === ''
          ? r
          : parseEventFilter(JSON.stringify(JSON.parse(text)), FILTER_DEPTH_MAX, QUERY_LANGUAGE);
      if (!again.ok) return { accepted: true, problem: 'refused after a JSON round trip' };
      for (const e of SAMPLE_EVENTS)
        if (again.match(e) !== r.match(e))
          return { accepted: true, problem: 'round trip changes the selection' };
      return { accepted: true };
    },
    size: (text) => Buffer.byteLength(text),
    save: (text) => ({ input_text: text }),
    load: (s) => String(s.input_text),
  };
}
