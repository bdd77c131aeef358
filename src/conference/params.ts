// Parameters of the conference read routes (routes.ts): query strings and path ids. Path ids are
// checked and made canonical with the model's own text codecs, as the application routes do
// (gateway/routes/app-params.ts): a malformed id is 400 `bad_request` naming the expected form; a
// well-formed unknown one is the route's 404.

import { Type } from 'typebox';
import type { Codec } from '../codec/codec.js';
import { isCodecError } from '../codec/errors.js';
import { gatewayError } from '../gateway/errors.js';
import { type ListInput, ListQuerystring } from '../gateway/list.js';
import { RELAY_EVENT_KINDS } from './relay-events.js';
import { CALL_STATUSES } from './views.js';

export const RelayListQuery = Type.Object({
  ...ListQuerystring.properties,
  region: Type.Optional(Type.String({ maxLength: 64, description: 'only relays of this region' })),
  available: Type.Optional(
    Type.Union([Type.Literal('true'), Type.Literal('false')], {
      description: 'true: relays whose last report said available; false: the others',
    }),
  ),
});

export const CallListQuery = Type.Object({
  ...ListQuerystring.properties,
  domain: Type.Optional(Type.String({ maxLength: 128, description: 'only calls of this domain' })),
  status: Type.Optional(
    Type.Union(
      CALL_STATUSES.map((s) => Type.Literal(s)),
      { description: 'only active or only ended calls' },
    ),
  ),
});

export const RelayEventsQuery = Type.Object({
  kind: Type.Optional(
    Type.Union(
      RELAY_EVENT_KINDS.map((k) => Type.Literal(k)),
      { description: 'registered, manifest or health (default: all three)' },
    ),
  ),
  relay: Type.Optional(Type.String({ maxLength: 128, description: 'only events naming this relay' })),
  domain: Type.Optional(
    Type.String({ maxLength: 128, description: "the call's domain, or the relay operator's domain" }),
  ),
  last_event_id: Type.Optional(
    Type.String({ description: 'Resume after this event id (for clients that cannot send Last-Event-ID)' }),
  ),
});

export const RelayParams = Type.Object({ relay_id: Type.String({ minLength: 1, maxLength: 128 }) });
export const CallParams = Type.Object({ call_id: Type.String({ minLength: 1, maxLength: 512 }) });

/** The list parameters of a list route's query string (gateway/list.ts). */
export function listInput(q: { limit?: string; offset?: string; filter?: string; sort?: string }): ListInput {
  return {
    limit: q.limit,
    offset: q.offset,
    ...(q.filter === undefined ? {} : { filterText: q.filter }),
    sort: q.sort,
  };
}

export function pathText(codec: Codec<string>, text: string, expected: string): string {
  try {
    return codec.fromJson(text, '');
  } catch (e) {
    if (!isCodecError(e)) throw e;
    throw gatewayError('bad_request', {
      location: 'params',
      id: text.slice(0, 128),
      expected,
      reason: e.message.slice(0, 256),
    });
  }
}
