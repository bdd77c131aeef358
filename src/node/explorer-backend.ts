// The explorer and history families over the backend `explorer.backend` names: the node's own ledger
// (embedded, the default), or the blocks `torana index --pg` wrote into `explorer.pg`, replayed in a
// ledger of their own (pg-replica.ts). With postgres, every answer of both families carries
// `x-torana-indexed-height`: the height it was given at, which trails the node's while the indexer lags.
// The replica (and with it pg) is loaded only when configured.

import { explorerFamily } from '../explorer/family.js';
import type { RouteDeps } from '../gateway/deps.js';
import type { RouteFamily } from '../gateway/family.js';
import type { SignedRequests } from '../gateway/signed-request.js';
import { historyFamily } from '../history/routes.js';
import { explorerPort } from './explorer-port.js';
import { historyPort } from './history-port.js';
import { decodeLimitsOf } from './load-config.js';
import type { Node } from './node.js';

/** The header naming the indexed height an answer of the postgres backend was given at. */
export const INDEXED_HEIGHT_HEADER = 'x-torana-indexed-height';

export interface ExplorerFamilies {
  explorer: RouteFamily;
  history: RouteFamily;
}

export async function explorerFamilies(
  node: Node,
  deps: RouteDeps,
  signedRequests: SignedRequests,
  logError: (what: string, e: unknown) => void,
): Promise<ExplorerFamilies> {
  const c = node.config;
  const historyOpts = { signedRequests, scanEntriesMax: c.history.scanEntriesMax };
  // Without the application API neither family is served: nothing to open.
  if (c.explorer.backend === 'embedded' || !c.app_api.enabled)
    return {
      explorer: explorerFamily(explorerPort(deps.ports), deps, logError),
      history: historyFamily(historyPort(node.ledger), deps, historyOpts),
    };
  const { PgReplica } = await import('./pg-replica.js');
  const replica = await PgReplica.open({
    conninfo: c.explorer.pg,
    chainId: c.node.chainId,
    pollMs: c.explorer.pgPollMs,
    decodeLimits: decodeLimitsOf(c),
    onError: (e) => logError('explorer postgres backend', e),
  });
  const chain = replica.chain();
  // Id parameters given as names are resolved against the replica's state too (id-resolver.ts).
  const replicaDeps: RouteDeps = { ...deps, ports: { ...deps.ports, state: replica.ledger.state, chain } };
  const explorer = explorerFamily(
    {
      state: replica.ledger.state,
      chain,
      events: replica.events(),
      blockHeightByHash: async (hash) => replica.blockHeightByHash(hash),
      peerCount: () => 1 + deps.ports.node.peers().filter((x) => x.peerId !== deps.ports.node.peerId).length,
      nowMs: () => deps.ports.node.nowMs(),
    },
    replicaDeps,
    logError,
  );
  const history = historyFamily(historyPort(replica.ledger), replicaDeps, historyOpts);
  // On every answer of the family's routes, refusals of their parameters and signatures included.
  const stamped = (f: RouteFamily, close?: () => Promise<void>): RouteFamily => {
    const urls = new Set<string>();
    return {
      ...f,
      routes: (app) => {
        const defs = f.routes(app);
        for (const r of defs) urls.add(r.url);
        return defs;
      },
      install: (app) => {
        f.install?.(app);
        app.addHook('onRequest', (req, reply, done) => {
          if (urls.has(req.routeOptions.url ?? ''))
            reply.header(INDEXED_HEIGHT_HEADER, String(replica.height()));
          done();
        });
      },
      close: async () => {
        await f.close?.();
        await close?.();
      },
    };
  };
  return { explorer: stamped(explorer, () => replica.close()), history: stamped(history) };
}
