// The committed reads the application's read families are served from (descriptor `ModuleRouteEnv.reads`),
// from the source an installed module names (its descriptor's `readSource`, under its own section): the
// node's own ledger (the default), or the blocks `torana index --pg` wrote into a PostgreSQL database,
// replayed in a ledger of their own (pg-replica.ts). Over the replica, every answer of a family served
// over it carries `x-torana-indexed-height`: the height it was given at, which trails the node's while the
// indexer lags. The replica (and with it pg) is loaded only when named, opened when the first family asks
// for it, and closed with the last family served over it.

import type { Config } from '../config/schema.js';
import type { RouteDeps } from '../gateway/deps.js';
import type { RouteFamily } from '../gateway/family.js';
import type { EventsPort } from '../gateway/ports.js';
import type { Ledger } from '../pipeline/ledger.js';
import { decodeLimitsOf } from './load-config.js';
import type { Node } from './node.js';

/** The committed reads a module's read family is served over (the modules' `CommittedReads`). */
export interface CommittedReads {
  readonly deps: RouteDeps;
  readonly ledger: Ledger;
  readonly events: EventsPort;
  blockHeightByHash(hash: Uint8Array): Promise<number | undefined>;
  peerCount(): number;
  serve(family: RouteFamily): RouteFamily;
}

/**
 * Where the committed reads come from (the modules' `ReadSource`): the node's ledger, or a replica ledger
 * re-executed from the PostgreSQL database `torana index --pg` wrote (`label`: the setting that named it).
 */
export type ReadSource =
  | { readonly kind: 'ledger' }
  | {
      readonly kind: 'pg-replica';
      readonly conninfo: string;
      readonly pollMs: number;
      readonly label: string;
    };

/** What `readSourceOf` reads of a module's descriptor (its `readSource`). */
interface ReadSourceDeclarer {
  readonly name: string;
  readonly readSource?: (config: Config) => ReadSource;
}

/** The header naming the indexed height an answer over the replica was given at. */
export const INDEXED_HEIGHT_HEADER = 'x-torana-indexed-height';

/** Peers the node is configured with or connected to, itself included. */
function peerCountOf(deps: RouteDeps): () => number {
  const n = deps.ports.node;
  return () => 1 + n.peers().filter((x) => x.peerId !== n.peerId).length;
}

/** The reads of the node's own ledger: families are served as they are. */
function embeddedReads(node: Node, deps: RouteDeps): CommittedReads {
  return {
    deps,
    ledger: node.ledger,
    events: deps.ports.events,
    blockHeightByHash: (hash) => deps.ports.consensus.blockHeightByHash(hash),
    peerCount: peerCountOf(deps),
    serve: (f) => f,
  };
}

async function replicaReads(
  node: Node,
  deps: RouteDeps,
  source: ReadSource & { kind: 'pg-replica' },
  logError: (what: string, e: unknown) => void,
): Promise<CommittedReads> {
  const c = node.config;
  const { PgReplica } = await import('./pg-replica.js');
  const replica = await PgReplica.open({
    conninfo: source.conninfo,
    chainId: c.node.chainId,
    pollMs: source.pollMs,
    label: source.label,
    decodeLimits: decodeLimitsOf(c),
    onError: (e) => logError('postgres read backend', e),
  });
  const chain = replica.chain();
  // Id parameters given as names are resolved against the replica's state too (id-resolver.ts).
  const replicaDeps: RouteDeps = { ...deps, ports: { ...deps.ports, state: replica.ledger.state, chain } };
  let served = 0;
  // On every answer of the family's routes, refusals of their parameters and signatures included.
  const serve = (f: RouteFamily): RouteFamily => {
    served++;
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
        if (--served === 0) await replica.close();
      },
    };
  };
  return {
    deps: replicaDeps,
    ledger: replica.ledger,
    events: replica.events(),
    blockHeightByHash: async (hash) => replica.blockHeightByHash(hash),
    peerCount: peerCountOf(deps),
    serve,
  };
}

/**
 * The source of the committed reads under `config`: the one an installed module names other than the
 * node's ledger (two modules naming different replicas is a bug of the build: it throws), else the
 * ledger. Without the application API no read family is served: the ledger.
 */
export function readSourceOf(config: Config, modules: readonly ReadSourceDeclarer[]): ReadSource {
  if (!config.app_api.enabled) return { kind: 'ledger' };
  const named = modules.flatMap((m) => {
    const s = m.readSource?.(config);
    return s === undefined || s.kind === 'ledger' ? [] : [{ module: m.name, source: s }];
  });
  if (named.length > 1)
    throw new Error(`modules ${named.map((n) => n.module).join(' and ')} each name a committed-reads source`);
  return named[0]?.source ?? { kind: 'ledger' };
}

/**
 * The node's committed reads from `source`, opened on the first call (the same reads for every later one).
 */
export function committedReads(
  node: Node,
  deps: RouteDeps,
  source: ReadSource,
  logError: (what: string, e: unknown) => void,
): () => Promise<CommittedReads> {
  let reads: Promise<CommittedReads> | undefined;
  return () => {
    reads ??=
      source.kind === 'ledger'
        ? Promise.resolve(embeddedReads(node, deps))
        : replicaReads(node, deps, source, logError);
    return reads;
  };
}
