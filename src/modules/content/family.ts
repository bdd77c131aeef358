// The content route family (gateway/family.ts): the bundle read, the upload and the download of files,
// the node's content store (opened on first use under `<data>/content`), the egress budgets and their
// metrics. An application family: registered only with `app_api.enabled`, built only when the node is
// served from a node directory (its store needs the data folder).

import { Counter, Gauge } from 'prom-client';
import type { GatewayApp } from '../../gateway/context.js';
import type { RouteDeps } from '../../gateway/deps.js';
import type { RouteFamily } from '../../gateway/family.js';
import type { SignedRequests } from '../../gateway/signed-request.js';
import type { ContentConfig } from './config.js';
import { EgressLimiter } from './egress.js';
import { type ContentPort, contentRoutes } from './routes.js';
import { ContentStore } from './store.js';

export interface ContentFamilyOptions {
  config: ContentConfig;
  /** The module's store folder (`<data>/content`). */
  storeDir: string;
  signedRequests: SignedRequests;
  now(): number;
}

export function contentFamily(d: RouteDeps, port: ContentPort, opts: ContentFamilyOptions): RouteFamily {
  const c = opts.config;
  let store: Promise<ContentStore> | undefined;
  const open = () => {
    store ??= ContentStore.open(opts.storeDir, c.storeBytesMax);
    return store;
  };
  const egress = new EgressLimiter(
    { windowMs: c.egressWindowMs, nodeBytes: c.egressNodeBytes, clientBytes: c.egressClientBytes },
    opts.now,
  );
  let served: Counter | undefined;
  let refused: Counter<'scope'> | undefined;
  return {
    name: 'content',
    app: true,
    // Its rank in the serving order (docs/design/modules.md "Serving order"): where its routes have always been.
    servedAt: 320,
    routes: () =>
      contentRoutes(d, {
        port,
        store: open,
        egress,
        auth: opts.signedRequests,
        uploadBytesMax: c.uploadBytesMax,
        maxAgeS: c.cacheMaxAgeS,
        served: (n) => served?.inc(n),
        refused: (scope) => refused?.inc({ scope }),
      }),
    install(app: GatewayApp) {
      // The upload body: raw bytes, at most content.upload_bytes_max. Other routes still refuse this
      // media type (415): each route accepts only its own body formats.
      app.addContentTypeParser(
        'application/octet-stream',
        { parseAs: 'buffer', bodyLimit: c.uploadBytesMax },
        (_req, body, done) => done(null, body),
      );
      const registry = app.gateway.metrics.registry;
      served = new Counter({
        name: 'content_egress_bytes_total',
        help: 'Bytes of content files served by GET /v1/content (whole files and ranges).',
        registers: [registry],
      });
      refused = new Counter({
        name: 'content_egress_refused_total',
        help: 'Content downloads refused by an egress budget (429), by budget: node or client.',
        labelNames: ['scope'],
        registers: [registry],
      });
      new Gauge({
        name: 'content_store_bytes',
        help: 'Bytes of content files this node stores (content.store_bytes_max at most).',
        registers: [registry],
        async collect() {
          this.set(store === undefined ? 0 : (await store).bytesUsed());
        },
      });
    },
  };
}
