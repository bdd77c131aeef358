// Trigger reads (docs/triggers.md). Public ledger state at the committed height; writes are instructions
// signed by the client, never routes.
//
//   GET /v1/triggers                   ?authority&limit&offset           → {items: [trigger], total}
//   GET /v1/triggers/{id}              → the trigger                     (404 not_found)

import { Type } from 'typebox';
import type { RouteDeps } from '../../gateway/deps.js';
import { gatewayError } from '../../gateway/errors.js';
import type { RouteFamily } from '../../gateway/family.js';
import { accountParam } from '../../gateway/id-resolver.js';
import { parsePage } from '../../gateway/list.js';
import { defineRoute, type RouteDef } from '../../gateway/route-table.js';
import { respond, viewSchema } from '../../gateway/view.js';
import type { Trigger } from './row.js';
import { TriggerCodec } from './row.js';
import { TriggerListView } from './views.js';

/** What the trigger routes read: committed rows sorted by id, copies the caller may keep. */
export interface TriggersPort {
  triggers(authority?: string): Trigger[];
  trigger(id: string): Trigger | undefined;
}

const NOTE = 'Public ledger state at the committed height; no signature needed.';
const PAGE = {
  limit: Type.Optional(Type.String({ maxLength: 20, description: 'page size, integer >= 1' })),
  offset: Type.Optional(Type.String({ maxLength: 20, description: 'items to skip, integer >= 0' })),
};
const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 128 }) });

function get(url: string, operationId: string, summary: string) {
  return {
    method: 'GET' as const,
    url,
    operationId,
    summary,
    description: NOTE,
    tags: ['triggers'],
    visibility: 'public' as const,
    errorStatuses: [404],
  };
}

export function triggerRoutes(d: RouteDeps, port: TriggersPort): RouteDef[] {
  return [
    defineRoute({
      ...get('/v1/triggers', 'listTriggers', 'Scheduled time triggers, by id'),
      schema: {
        querystring: Type.Object({
          authority: Type.Optional(
            Type.String({ maxLength: 512, description: 'only triggers running as this account' }),
          ),
          ...PAGE,
        }),
        response: { 200: viewSchema(TriggerListView) },
      },
      handler: (req, reply) => {
        // An account id or name (gateway/id-resolver.ts): 400 neither form, 404 unbound name.
        const text = req.query.authority;
        const all = port.triggers(text === undefined ? undefined : accountParam(d.ports.state, text));
        const { limit, offset } = parsePage(req.query, d.limits);
        const items = all.slice(offset, offset + limit);
        return respond(d.schema, req, reply, TriggerListView, { items, total: all.length });
      },
    }),
    defineRoute({
      ...get('/v1/triggers/:id', 'getTrigger', 'One scheduled trigger'),
      schema: { params: IdParams, response: { 200: viewSchema(TriggerCodec) } },
      handler: (req, reply) => {
        const t = port.trigger(req.params.id);
        if (t === undefined) throw gatewayError('not_found', { trigger: req.params.id });
        return respond(d.schema, req, reply, TriggerCodec, t);
      },
    }),
  ];
}

/**
 * The trigger routes' family (an application family: registered with `app_api.enabled`). A family that
 * hosts it (gateway/family.ts `hosts`) serves it right after its own routes and under its own name.
 */
export function triggersFamily(port: TriggersPort, deps: RouteDeps): RouteFamily {
  return { name: 'triggers', app: true, servedAt: 220, routes: () => triggerRoutes(deps, port) };
}
