// The repo agreement routes (docs/repo.md §Routes). Public reads of ledger state at the committed height;
// no signature. Writes are instructions only, never routes.
//
//   GET  /v1/repo/agreements        ?limit&offset&filter&sort   → {items: [agreement], total}
//   POST /v1/repo/agreements/query  {filter, sort, limit, offset} → {items: [agreement], total}
//   GET  /v1/repo/agreements/{id}                               → the agreement
// The family is an application family (`app_api.enabled`): off, none of these is served or documented.

import { Type } from 'typebox';
import type { RouteDeps } from '../../gateway/deps.js';
import { gatewayError } from '../../gateway/errors.js';
import type { RouteFamily } from '../../gateway/family.js';
import type { ListSource } from '../../gateway/list-scan.js';
import { defineRoute, type RouteDef } from '../../gateway/route-table.js';
import { listRoutes } from '../../gateway/routes/app-lists.js';
import { PATH_ID_CHARS_MAX } from '../../gateway/routes/app-params.js';
import { respond, viewSchema } from '../../gateway/view.js';
import type { RepoAgreement } from './model.js';
import { RepoDetailView, type RepoItem, RepoItemView, RepoListView, repoDetail, repoItem } from './views.js';

/** What the routes read (reads.ts adapts the committed world state). */
export interface RepoPort {
  /** Agreement ids in ascending order (a snapshot). */
  ids(): readonly string[];
  /** A copy of the agreement. */
  agreement(id: string): RepoAgreement | undefined;
  /** The agreement without copying (only turned into JSON). */
  peek(id: string): Readonly<RepoAgreement> | undefined;
}

const NOTE =
  'Public ledger state at the committed height; no signature needed. Agreements change only by instructions.';
const TAGS = ['repo'];

const BOB = 'ed01208139770EA87D175F56A35466C34C7ECCCB8D8A91B4EE37A25DF60F5B8FC9B394@wonderland';
const ALICE = 'ed01208A88E3DD7409F195FD52DB2D3CBA5D72CA6709BF1D94121BF3748801B40F6F5C@wonderland';
const ESCROW = 'ed0120A98BAFB0663CE08D75EBD506FEC38A84E576A7C9B0897693ED4B04FD9EF2D18D@wonderland';

const EXAMPLE = {
  id: 'repo_5b2e9f0c1d3a4b6c7d8e9f0a1b2c3d4e5f6a7b8c',
  reference: 'REPO-2026-0001',
  initiator: ALICE,
  counterparty: BOB,
  cash_leg: { asset_definition_id: 'usd#wonderland', quantity: '1000.00', metadata: {} },
  collateral_leg: {
    asset_definition_id: 'bond#wonderland',
    quantity: '12',
    metadata: { isin: 'XS0000000001' },
  },
  rate_bps: 500,
  haircut_bps: 200,
  maturity_timestamp_ms: 1_798_761_600_000,
  initiated_timestamp_ms: 1_767_225_600_000,
  last_margin_check_timestamp_ms: 1_767_225_600_000,
  prices: [{ asset_definition_id: 'bond#wonderland', price: '100.00' }],
  status: 'open',
  escrow: ESCROW,
  governance: { price_authority: BOB, margin_window_ms: 86_400_000 },
};

const withExample = (schema: object, example: unknown) => ({ ...schema, examples: [example] });

function source(port: RepoPort): () => ListSource<RepoItem> {
  return () => {
    const ids = port.ids();
    return {
      ids: () => ids,
      get: (id) => {
        const a = port.agreement(id);
        return a === undefined ? undefined : repoItem(a);
      },
      peek: (id) => {
        const a = port.peek(id);
        return a === undefined ? undefined : repoItem(a as RepoAgreement);
      },
    };
  };
}

// Any id-sized text: an unknown agreement is a 404, as on the other id routes.
const RepoParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: PATH_ID_CHARS_MAX }) });

export function repoRoutes(d: RouteDeps, port: RepoPort): RouteDef[] {
  return [
    ...listRoutes(d, {
      url: '/v1/repo/agreements',
      noun: 'RepoAgreements',
      what: 'repo agreements',
      tags: TAGS,
      views: {
        item: RepoItemView,
        list: RepoListView,
        idOf: (i) => i.id,
        idFields: {
          initiator: 'account',
          counterparty: 'account',
          custodian: 'account',
          cash_definition: 'definition',
          collateral_definition: 'definition',
        },
      },
      source: source(port),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/repo/agreements/:id',
      operationId: 'getRepoAgreement',
      summary: 'One repo agreement: parties, legs, terms, prices, status and governance',
      description: NOTE,
      tags: TAGS,
      visibility: 'public',
      errorStatuses: [404],
      schema: {
        params: RepoParams,
        response: { 200: withExample(viewSchema(RepoDetailView), EXAMPLE) },
      },
      handler: (req, reply) => {
        const a = port.agreement(req.params.id);
        if (a === undefined) throw gatewayError('not_found', { repo_agreement: req.params.id });
        return respond(d.schema, req, reply, RepoDetailView, repoDetail(a));
      },
    }),
  ];
}

/** The agreements' family (an application family: registered with `app_api.enabled`). */
export function repoFamily(port: RepoPort, deps: RouteDeps): RouteFamily {
  return { name: 'repo', app: true, servedAt: 330, routes: () => repoRoutes(deps, port) };
}
