// The transfer control routes (docs/controls.md). Public reads of ledger state at
// the committed height; no signature. Writes are instructions only (SetTransfer*), never routes.
//
//   POST /v1/controls/asset-transfer/get    {account_id, asset_definition_id}
//        → {account_id, asset_definition_id, control: {outgoing_frozen, blacklisted, limits},
//           definition: {…rules of the definition as they apply to the account}, usages}
//   POST /v1/controls/asset-definition/get  {asset_definition_id} → {asset_definition_id, control: {…}}
// Ids may be given as names in place of ids (gateway/id-resolver.ts). No control row → 200 all clear; an
// unknown account or definition (or an unbound name) → 404; a text that is neither an id nor a name → 400.

import { Type } from 'typebox';
import type { RouteDeps } from '../../gateway/deps.js';
import { gatewayError } from '../../gateway/errors.js';
import type { RouteFamily } from '../../gateway/family.js';
import { existingAccount, type IdNameState, resolveDefinition } from '../../gateway/id-resolver.js';
import { defineRoute, type RouteDef } from '../../gateway/route-table.js';
import { respond, viewSchema } from '../../gateway/view.js';
import { assetId, parseDefinitionId } from '../../model/ids.js';
import type { AssetControl, DefinitionControl, TransferLimit } from './model.js';
import { AssetTransferControlView, DefinitionTransferControlView } from './views.js';
import { bucketStart, windowName } from './windows.js';

/**
 * What the routes read (reads.ts adapts the committed world state and chain): copies the caller may keep.
 * Ids may be given as names (gateway/id-resolver.ts).
 */
export interface ControlsPort extends IdNameState {
  /** The control row of (account, definition), keyed by the asset id `<definition>#<account>`. */
  assetControl(assetId: string): AssetControl | undefined;
  definitionControl(definition: string): DefinitionControl | undefined;
  accountExists(id: string): boolean;
  definitionExists(id: string): boolean;
  /** Height and block time of the committed tip (names that lapse; "current" usage buckets). */
  height(): number;
  tipTimeMs(): Promise<number>;
}

const NOTE =
  'Public ledger state at the committed height; no signature needed. Rules change only by instructions.';
const ID = Type.String({ minLength: 1, maxLength: 512 });

function post(url: string, operationId: string, summary: string) {
  return {
    method: 'POST' as const,
    readsOnly: true,
    url,
    operationId,
    summary,
    description: NOTE,
    tags: ['controls'],
    visibility: 'public' as const,
    errorStatuses: [404],
  };
}

function account(port: ControlsPort, text: string): string {
  return existingAccount(port, text);
}

async function definition(port: ControlsPort, text: string): Promise<string> {
  if (parseDefinitionId(text) === undefined && port.idName('definition', text) === undefined)
    throw gatewayError('bad_request', {
      location: 'body',
      field: 'asset_definition_id',
      expected: ['<name>#<domain>', ...port.idNameForms('definition')].join(' or '),
    });
  const id = resolveDefinition(port, text, await port.tipTimeMs());
  if (id === undefined || !port.definitionExists(id))
    throw gatewayError('not_found', { asset_definition: text });
  return id;
}

const limitView = (l: TransferLimit) => ({ window: windowName(l.window.kind), capAmount: l.cap });

/** Per window of the account's usage rows: the tightest cap over its own and the definition's. */
function usageViews(c: AssetControl | undefined, d: DefinitionControl | undefined, tipMs: number) {
  const limits = [...(c?.limits ?? []), ...(d?.limits ?? [])];
  return (c?.usages ?? []).flatMap((u) => {
    const caps = limits.filter((l) => l.window.kind === u.window.kind).map((l) => l.cap);
    if (caps.length === 0) return [];
    const cap = caps.reduce((a, b) => (b.mantissa < a.mantissa ? b : a));
    return [
      {
        window: windowName(u.window.kind),
        bucketStart: Number(u.bucketStartMs),
        spentAmount: u.spent,
        capAmount: cap,
        current: BigInt(bucketStart(u.window.kind, tipMs)) === u.bucketStartMs,
      },
    ];
  });
}

function assetTransferRoute(d: RouteDeps, port: ControlsPort): RouteDef {
  return defineRoute({
    ...post(
      '/v1/controls/asset-transfer/get',
      'getAssetTransferControl',
      'Transfer controls of an account for one asset definition',
    ),
    schema: {
      body: Type.Object({ account_id: ID, asset_definition_id: ID }, { additionalProperties: false }),
      response: { 200: viewSchema(AssetTransferControlView) },
    },
    handler: async (req, reply) => {
      const acc = account(port, req.body.account_id);
      const def = await definition(port, req.body.asset_definition_id);
      const c = port.assetControl(assetId(def, acc));
      const dc = port.definitionControl(def);
      const answer = {
        accountId: acc,
        assetDefinitionId: def,
        control: {
          outgoingFrozen: c?.outgoingFrozen ?? false,
          blacklisted: c?.blacklisted ?? false,
          limits: (c?.limits ?? []).map(limitView),
        },
        definition: {
          outgoingFrozen: dc?.outgoingFrozen ?? false,
          blacklisted: dc?.blacklisted ?? false,
          allowListActive: (dc?.allowList.length ?? 0) > 0,
          onAllowList: dc?.allowList.includes(acc) ?? false,
          onDenyList: dc?.denyList.includes(acc) ?? false,
          limits: (dc?.limits ?? []).map(limitView),
        },
        usages: usageViews(c, dc, await port.tipTimeMs()),
      };
      return respond(d.schema, req, reply, AssetTransferControlView, answer);
    },
  });
}

function definitionRoute(d: RouteDeps, port: ControlsPort): RouteDef {
  return defineRoute({
    ...post(
      '/v1/controls/asset-definition/get',
      'getDefinitionTransferControl',
      'Transfer controls of an asset definition (every holder)',
    ),
    schema: {
      body: Type.Object({ asset_definition_id: ID }, { additionalProperties: false }),
      response: { 200: viewSchema(DefinitionTransferControlView) },
    },
    handler: async (req, reply) => {
      const def = await definition(port, req.body.asset_definition_id);
      const dc = port.definitionControl(def);
      const answer = {
        assetDefinitionId: def,
        control: {
          outgoingFrozen: dc?.outgoingFrozen ?? false,
          blacklisted: dc?.blacklisted ?? false,
          allowList: dc?.allowList ?? [],
          denyList: dc?.denyList ?? [],
          limits: (dc?.limits ?? []).map(limitView),
        },
      };
      return respond(d.schema, req, reply, DefinitionTransferControlView, answer);
    },
  });
}

export function controlRoutes(d: RouteDeps, port: ControlsPort): RouteDef[] {
  return [assetTransferRoute(d, port), definitionRoute(d, port)];
}

/**
 * The transfer controls' family (an application family: registered with `app_api.enabled`), served at
 * its rank (`servedAt`, docs/design/modules.md "Serving order"), where these routes have always been:
 * moving them into the module changed no part of the served interface (route order, OpenAPI document).
 */
export function controlsFamily(port: ControlsPort, deps: RouteDeps): RouteFamily {
  return { name: 'controls', app: true, servedAt: 130, routes: () => controlRoutes(deps, port) };
}
