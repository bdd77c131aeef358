// The event-type catalogue (GET /v1/webhooks/event-types, `torana webhook event-types`): every kind of
// event a webhook (or an event stream) can filter on, read from the event codecs of this build — the
// transaction and block statuses, and every data event variant of the core and the installed modules
// (model/events.ts, model/tags.ts) — never from a hand-kept list. Each entry carries the filter that
// keeps exactly that kind, and a data event its JSON fields. Plus the test delivery's kind.

import { type Static, Type } from 'typebox';
import type { AnyCodec, TypeDesc, TypeRef } from '../../codec/codec.js';
import { EVENT_FILTER_FIELDS } from '../../gateway/event-filter.js';
import { BlockStatusCodec, DataEventCodec, TransactionStatusCodec } from '../../model/events.js';
import { AssertionError } from '../../util/assert.js';
import { TEST_EVENT_KIND } from './registry.js';

export const EventType = Type.Object(
  {
    kind: Type.Union([Type.Literal('transaction'), Type.Literal('block'), Type.Literal('data')], {
      description: 'the event kind (the filter field `kind`, the SSE event name)',
    }),
    name: Type.String({ description: 'the status (transaction, block) or the data event variant' }),
    filter: Type.Unknown({ description: 'the filter expression that keeps exactly this type' }),
    fields: Type.Optional(Type.Array(Type.String(), { description: "a data event's JSON fields" })),
  },
  {
    examples: [
      {
        kind: 'data',
        name: 'AccountCreated',
        filter: { eq: ['data_kind', 'AccountCreated'] },
        fields: ['id'],
      },
      { kind: 'transaction', name: 'Rejected', filter: { eq: ['tx_status', 'Rejected'] } },
    ],
  },
);

export const EventTypeCatalogue = Type.Object({
  items: Type.Array(EventType),
  total: Type.Number(),
  filter_fields: Type.Array(Type.String(), { description: 'the fields a filter expression may name' }),
  test_kind: Type.String({ description: 'the event kind of a test delivery (POST /v1/webhooks/{id}/test)' }),
});
export type EventTypeCatalogue = Static<typeof EventTypeCatalogue>;
type Entry = Static<typeof EventType>;

/** Variant names and their JSON field names, from a codec's description (enum codecs only). */
function variants(codec: AnyCodec): { name: string; fields: string[] }[] {
  const ref = (c: AnyCodec): TypeRef => c.name ?? c.describe(ref);
  const d: TypeDesc = codec.describe(ref);
  if (d.kind !== 'enum') throw new AssertionError(`${codec.name}: not an enum`);
  return d.variants.map((v) => ({ name: v.name, fields: v.fields.map((f) => f.name) }));
}

let cached: EventTypeCatalogue | undefined;

/** The catalogue of this build (computed once: the codecs are fixed once the modules are loaded). */
export function eventTypeCatalogue(): EventTypeCatalogue {
  if (cached !== undefined) return cached;
  const items: Entry[] = [];
  for (const v of variants(TransactionStatusCodec))
    items.push({ kind: 'transaction', name: v.name, filter: { eq: ['tx_status', v.name] } });
  for (const v of variants(BlockStatusCodec))
    items.push({ kind: 'block', name: v.name, filter: { eq: ['block_status', v.name] } });
  for (const v of variants(DataEventCodec))
    items.push({ kind: 'data', name: v.name, filter: { eq: ['data_kind', v.name] }, fields: v.fields });
  cached = {
    items,
    total: items.length,
    filter_fields: [...EVENT_FILTER_FIELDS],
    test_kind: TEST_EVENT_KIND,
  };
  return cached;
}
