// Wire types of the event and block streams.
// Streams answer with model types: `EventEnvelope` (GET /events, binary mode), the JSON of `Event`
// (GET /v1/events/sse `data:` lines) and `Block` (GET /block/stream). The only gateway-defined type is
// the binary subscription request of GET /events.

import type { Infer } from '../../codec/codec.js';
import { option, struct } from '../../codec/compound.js';
import type { DecodeLimits } from '../../codec/limits.js';
import { jsonValue, varuint } from '../../codec/primitives.js';
import { FILTER_TEXT_CHARS_MAX } from '../event-filter.js';

/**
 * The first (binary) message of a GET /events WebSocket: `filter` is the same JSON expression as the
 * SSE `filter` parameter (absent: every event); `since` is the id of the last event the client already
 * has (absent: live events only). The text form is the JSON `{"filter": …, "since": …}`.
 */
export const EventSubscriptionView = struct('EventSubscription', {
  filter: option(jsonValue(FILTER_TEXT_CHARS_MAX)),
  since: option(varuint),
});
export type EventSubscription = Infer<typeof EventSubscriptionView>;

/** Decoding bounds of a subscription request: one short JSON text, no sequences. */
export const SUBSCRIPTION_DECODE_LIMITS: DecodeLimits = {
  bytesMax: FILTER_TEXT_CHARS_MAX,
  itemsMax: 1,
  depthMax: 4,
};
