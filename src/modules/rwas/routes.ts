// The RWA lot routes (docs/rwas.md §Routes). Public reads of ledger state at the committed height; no
// signature. Writes are instructions only, never routes.
//
//   GET  /v1/rwas                  ?limit&offset&filter&sort  → {items: [lot], total}
//   POST /v1/rwas/query            {filter, sort, limit, offset} → {items: [lot], total}
//   GET  /v1/explorer/rwas         ?page&per_page             → {pagination, items: [lot]}
//   GET  /v1/explorer/rwas/{rwa_id}                           → {lot, metadata, parents, children, holds}
// The family is an application family (`app_api.enabled`): off, none of these is served or documented.

import { Type } from 'typebox';
import type { RouteDeps } from '../../gateway/deps.js';
import { gatewayError } from '../../gateway/errors.js';
import type { RouteFamily } from '../../gateway/family.js';
import { numberedPagination, PageNumberQuerystring, parseNumberedPage } from '../../gateway/list.js';
import type { ListSource } from '../../gateway/list-scan.js';
import { defineRoute, type RouteDef } from '../../gateway/route-table.js';
import { listRoutes } from '../../gateway/routes/app-lists.js';
import { PATH_ID_CHARS_MAX } from '../../gateway/routes/app-params.js';
import { respond, viewSchema } from '../../gateway/view.js';
import type { RwaLot } from './model.js';
import {
  RwaDetailView,
  type RwaItem,
  RwaItemView,
  RwaListView,
  RwaPageView,
  rwaDetailOf,
  rwaItem,
} from './views.js';

/** What the routes read (reads.ts adapts the committed world state). */
export interface RwasPort {
  /** Lot ids in ascending order (a snapshot). */
  ids(): readonly string[];
  /** A copy of the lot. */
  lot(id: string): RwaLot | undefined;
  /** The lot without copying (only turned into JSON). */
  peek(id: string): Readonly<RwaLot> | undefined;
}

const NOTE =
  'Public ledger state at the committed height; no signature needed. Lots change only by instructions.';
const TAGS = ['rwas'];

const EXAMPLE_LOT = {
  id: 'rwa_3f1c0e8b9a7d6c5b4a39281706f5e4d3c2b1a098',
  quantity: '250.000',
  spec: 'copper-cathode-grade-a',
  primary_reference: 'WR-2026-00042',
  owned_by: 'ed01208139770EA87D175F56A35466C34C7ECCCB8D8A91B4EE37A25DF60F5B8FC9B394@wonderland',
  controller: 'ed01208A88E3DD7409F195FD52DB2D3CBA5D72CA6709BF1D94121BF3748801B40F6F5C@wonderland',
  controls: 'rose#wonderland',
  is_frozen: false,
  held_quantity: '10.000',
};

const withExample = (schema: object, example: unknown) => ({ ...schema, examples: [example] });

function source(port: RwasPort): () => ListSource<RwaItem> {
  return () => {
    const ids = port.ids();
    return {
      ids: () => ids,
      get: (id) => {
        const l = port.lot(id);
        return l === undefined ? undefined : rwaItem(l);
      },
      peek: (id) => {
        const l = port.peek(id);
        return l === undefined ? undefined : rwaItem(l as RwaLot);
      },
    };
  };
}

// Any id-sized text: an unknown lot is a 404, as on the other id routes.
const RwaParams = Type.Object({ rwa_id: Type.String({ minLength: 1, maxLength: PATH_ID_CHARS_MAX }) });

export function rwaRoutes(d: RouteDeps, port: RwasPort): RouteDef[] {
  return [
    ...listRoutes(d, {
      url: '/v1/rwas',
      noun: 'Rwas',
      what: 'real-world-asset lots',
      tags: TAGS,
      views: {
        item: RwaItemView,
        list: RwaListView,
        idOf: (i) => i.id,
        idFields: { owned_by: 'account', controller: 'account', controls: 'definition' },
      },
      source: source(port),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/explorer/rwas',
      operationId: 'explorerListRwas',
      summary: 'A page of real-world-asset lots, by id',
      description: NOTE,
      tags: TAGS,
      visibility: 'public',
      schema: {
        querystring: PageNumberQuerystring,
        response: {
          200: withExample(viewSchema(RwaPageView), {
            pagination: { page: 1, per_page: 20, total_pages: 1, total_items: 1 },
            items: [EXAMPLE_LOT],
          }),
        },
      },
      handler: (req, reply) => {
        const p = parseNumberedPage(req.query, d.limits);
        const ids = port.ids();
        const items = ids.slice(p.offset, p.offset + p.perPage).flatMap((id) => {
          const l = port.lot(id);
          return l === undefined ? [] : [rwaItem(l)];
        });
        return respond(d.schema, req, reply, RwaPageView, {
          pagination: numberedPagination(p, ids.length),
          items,
        });
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/explorer/rwas/:rwa_id',
      operationId: 'explorerGetRwa',
      summary: 'One real-world-asset lot with its parents, controls and holds',
      description: NOTE,
      tags: TAGS,
      visibility: 'public',
      errorStatuses: [404],
      schema: {
        params: RwaParams,
        response: {
          200: withExample(viewSchema(RwaDetailView), {
            lot: EXAMPLE_LOT,
            metadata: { warehouse: 'Rotterdam 4' },
            parents: [{ id: 'rwa_9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b', quantity: '250.000' }],
            children: 0,
            holds: { held_quantity: '10.000', free_quantity: '240.000', is_frozen: false },
          }),
        },
      },
      handler: (req, reply) => {
        const l = port.lot(req.params.rwa_id);
        if (l === undefined) throw gatewayError('not_found', { rwa: req.params.rwa_id });
        return respond(d.schema, req, reply, RwaDetailView, rwaDetailOf(l));
      },
    }),
  ];
}

/** The lots' family (an application family: registered with `app_api.enabled`). */
export function rwasFamily(port: RwasPort, deps: RouteDeps): RouteFamily {
  return { name: 'rwas', app: true, servedAt: 310, routes: () => rwaRoutes(deps, port) };
}
