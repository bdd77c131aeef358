// Parameters of the conference read routes (routes.ts): query strings and path ids. Path ids are
// checked and made canonical by the application routes' one parser (gateway/routes/app-params.ts
// `pathId`): a malformed id is 400 `bad_request` naming the expected form; a well-formed unknown one is
// the route's 404.

import { Type } from 'typebox';
import { ListQuerystring } from '../../gateway/list.js';
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
