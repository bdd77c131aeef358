// Explorer routes computed from committed data: an account's QR code, an asset
// definition's holder snapshot and econometrics, and the network metrics (telemetry profile `metrics`
// capability, else 503 `telemetry_profile_restricted`).

import { Type } from 'typebox';
import { gatewayError } from '../../gateway/errors.js';
import { accountParam, definitionParam } from '../../gateway/id-resolver.js';
import { defineRoute, type RouteDef } from '../../gateway/route-table.js';
import { IdParams } from '../../gateway/routes/app-params.js';
import { respond, viewSchema } from '../../gateway/view.js';
import { common, type ExplorerContext, workUnitsMax } from './context.js';
import {
  ECONOMETRICS_BUCKETS_DEFAULT,
  ECONOMETRICS_BUCKETS_MAX,
  ECONOMETRICS_WINDOW_DEFAULT,
  econometrics,
} from './econometrics.js';
import { accountQr } from './qr.js';
import { definitionSnapshot } from './snapshot.js';
import type { ChainTotals } from './totals.js';
import {
  ExplorerEconometricsView,
  ExplorerMetricsView,
  ExplorerQrView,
  ExplorerSnapshotView,
} from './views-more.js';

/** Blocks whose creation-time gaps give `block_time_ms_avg`. */
export const BLOCK_TIME_SAMPLE_BLOCKS = 64;

const EconometricsQuery = Type.Object({
  from_height: Type.Optional(
    Type.String({ maxLength: 20, description: 'first height of the window (default: tip - 999)' }),
  ),
  to_height: Type.Optional(
    Type.String({ maxLength: 20, description: 'last height of the window (default: the tip)' }),
  ),
  buckets: Type.Optional(
    Type.String({ maxLength: 20, description: `equal height ranges, 1..${ECONOMETRICS_BUCKETS_MAX}` }),
  ),
});

function intParam(name: string, text: string | undefined, min: number, max: number): number | undefined {
  if (text === undefined) return undefined;
  const n = /^[0-9]{1,16}$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max)
    throw gatewayError('bad_request', {
      location: 'querystring',
      parameter: name,
      value: text.slice(0, 32),
      expected: `an integer from ${min} to ${max}`,
    });
  return n;
}

function qrRoute(x: ExplorerContext): RouteDef {
  return defineRoute({
    ...common(),
    method: 'GET',
    url: '/v1/explorer/accounts/:id/qr',
    operationId: 'explorerAccountQr',
    summary: 'QR code of an account id: {svg, literal, qr_version, error_correction}',
    errorStatuses: [404],
    schema: { params: IdParams, response: { 200: viewSchema(ExplorerQrView) } },
    handler: (req, reply) => {
      const id = accountParam(x.port.state, req.params.id); // an id or a name (gateway/id-resolver.ts)
      if (x.port.state.account(id) === undefined) throw gatewayError('not_found', { id });
      return respond(x.deps.schema, req, reply, ExplorerQrView, accountQr(id));
    },
  });
}

/** The definition a path names by id or by name (gateway/id-resolver.ts); 404 when none. */
async function definitionOf(x: ExplorerContext, text: string) {
  const id = await definitionParam(x.port.state, x.deps.ports.chain, text);
  const d = x.port.state.assetDefinition(id);
  if (d === undefined) throw gatewayError('not_found', { id });
  return d;
}

function snapshotRoute(x: ExplorerContext): RouteDef {
  return defineRoute({
    ...common(),
    method: 'GET',
    url: '/v1/explorer/asset-definitions/:id/snapshot',
    operationId: 'explorerAssetDefinitionSnapshot',
    summary: 'Holder distribution now: holders, Gini (ppm), Lorenz points, top holders',
    description:
      'Every holder of the definition is read (in balance order from the ordered holder index of a state on ' +
      'disk, in bounded memory): a definition with more holders than `query.work_units_max` answers 422 ' +
      'query_budget_exceeded.',
    errorStatuses: [404, 422],
    schema: { params: IdParams, response: { 200: viewSchema(ExplorerSnapshotView) } },
    handler: async (req, reply) => {
      const d = await definitionOf(x, req.params.id);
      const { state, chain } = x.port;
      const snap = definitionSnapshot(state, d, chain.height(), workUnitsMax(x));
      return respond(x.deps.schema, req, reply, ExplorerSnapshotView, snap);
    },
  });
}

function econometricsRoute(x: ExplorerContext): RouteDef {
  return defineRoute({
    ...common(),
    method: 'GET',
    url: '/v1/explorer/asset-definitions/:id/econometrics',
    operationId: 'explorerAssetDefinitionEconometrics',
    summary: 'Minted, burned and transferred amounts and velocity over a window of blocks, in buckets',
    description:
      'Window: from_height..to_height (default the newest 1000 blocks), split into `buckets` equal ranges ' +
      `(default ${ECONOMETRICS_BUCKETS_DEFAULT}). Every block of the window is read, under query.work_units_max ` +
      '(422 query_budget_exceeded past it).',
    errorStatuses: [404, 422],
    schema: {
      params: IdParams,
      querystring: EconometricsQuery,
      response: { 200: viewSchema(ExplorerEconometricsView) },
    },
    handler: async (req, reply) => {
      const d = await definitionOf(x, req.params.id);
      const tip = x.port.chain.height();
      const q = req.query;
      const to = Math.min(intParam('to_height', q.to_height, 1, 2 ** 40) ?? tip, tip);
      const from =
        intParam('from_height', q.from_height, 1, 2 ** 40) ??
        Math.max(1, to - ECONOMETRICS_WINDOW_DEFAULT + 1);
      if (from > to && to > 0)
        throw gatewayError('bad_request', {
          location: 'querystring',
          parameter: 'from_height',
          value: String(from),
          expected: `at most to_height (${to})`,
        });
      const buckets =
        intParam('buckets', q.buckets, 1, ECONOMETRICS_BUCKETS_MAX) ?? ECONOMETRICS_BUCKETS_DEFAULT;
      const r = await econometrics(
        x.port.chain,
        { id: d.id, scale: d.scale, supply: d.totalQuantity },
        { from, to, buckets },
        workUnitsMax(x),
      );
      return respond(x.deps.schema, req, reply, ExplorerEconometricsView, r);
    },
  });
}

async function blockTimeMsAvg(x: ExplorerContext): Promise<number> {
  const tip = x.port.chain.height();
  const newest = tip === 0 ? undefined : await x.port.chain.block(tip);
  const lowest = Math.max(1, tip - BLOCK_TIME_SAMPLE_BLOCKS + 1);
  const oldest = lowest >= tip ? undefined : await x.port.chain.block(lowest);
  if (newest === undefined || oldest === undefined) return 0;
  return Math.round((newest.header.creationTimeMs - oldest.header.creationTimeMs) / (tip - lowest));
}

function metricsRoute(x: ExplorerContext, totals: ChainTotals): RouteDef {
  return defineRoute({
    ...common(),
    visibility: 'metrics',
    method: 'GET',
    url: '/v1/explorer/metrics',
    operationId: 'explorerMetrics',
    summary: 'Network totals: peers, domains, accounts, transactions, mean block and commit time',
    description:
      'Served under the telemetry profiles with the metrics capability (extended, full); 503 ' +
      'telemetry_profile_restricted otherwise. Transaction totals cover blocks 1..totals_height: they ' +
      'are counted once per process, each request reading further under query.work_units_max.',
    schema: { response: { 200: viewSchema(ExplorerMetricsView) } },
    handler: async (req, reply) => {
      const { state, chain } = x.port;
      await totals.catchUp(chain, workUnitsMax(x));
      return respond(x.deps.schema, req, reply, ExplorerMetricsView, {
        height: chain.height(),
        peers: x.port.peerCount(),
        domains: state.domainCount(),
        accounts: state.accountCount(),
        transactionsAccepted: totals.accepted,
        transactionsRejected: totals.rejected,
        totalsHeight: totals.height,
        blockTimeMsAvg: await blockTimeMsAvg(x),
        commitTimeMsAvg: totals.commitTimeMsAvg(),
      });
    },
  });
}

export function statsRoutes(x: ExplorerContext, totals: ChainTotals): RouteDef[] {
  return [qrRoute(x), snapshotRoute(x), econometricsRoute(x), metricsRoute(x, totals)];
}
