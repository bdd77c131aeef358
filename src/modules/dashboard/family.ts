// The dashboard as a route family (gateway/family.ts): the static files of the web UI under /dashboard/,
// same origin as the API it reads. Not an API operation, so its routes are hidden from the OpenAPI
// document (like the CORS preflight); it is gated by the telemetry profile like the developer routes
// (503 `telemetry_profile_restricted` under `disabled`, `operator` and `extended`) and absent (404)
// with `dashboard.enabled = false`. docs/dashboard.md describes the pages and the headers.

import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayApp } from '../../gateway/context.js';
import { gatewayError } from '../../gateway/errors.js';
import type { RouteFamily } from '../../gateway/family.js';
import { profileAllows, profilesAllowing, type TelemetryProfile } from '../../gateway/profiles.js';
import { type Asset, type AssetTable, BUILT_ASSETS_DIR, loadAssets } from './assets.js';

/**
 * The page's policy: only this origin's scripts, styles and images; connections to this origin and to the
 * nodes of `dashboard.connect_src` (origins, checked by config/rules.ts); no framing.
 */
export function dashboardCsp(connectSrc: readonly string[] = []): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    ["connect-src 'self'", ...connectSrc].join(' '),
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The policy with no other node allowed (`dashboard.connect_src` empty, the default). */
export const DASHBOARD_CSP = dashboardCsp();

export const DASHBOARD_PREFIX = '/dashboard';

export interface DashboardOptions {
  assets: AssetTable;
  profile: TelemetryProfile;
  /** Other nodes' origins the page may connect to (`dashboard.connect_src`). */
  connectSrc?: readonly string[];
}

function acceptsGzip(req: FastifyRequest): boolean {
  const v = req.headers['accept-encoding'];
  return typeof v === 'string' && /\bgzip\b(?!;\s*q=0(\.0*)?\b)/i.test(v);
}

function sendAsset(req: FastifyRequest, reply: FastifyReply, asset: Asset, csp: string): FastifyReply {
  reply
    .header('content-type', asset.type)
    .header('cache-control', asset.immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
    .header('etag', asset.etag)
    .header('vary', 'accept-encoding')
    .header('content-security-policy', csp)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('cross-origin-opener-policy', 'same-origin');
  if (req.headers['if-none-match'] === asset.etag) return reply.code(304).send();
  if (acceptsGzip(req)) return reply.header('content-encoding', 'gzip').send(asset.gzip);
  return reply.send(asset.body);
}

/** The dashboard family; `assets` from `loadAssets` (the node leaves the family out when it is unbuilt). */
export function dashboardFamily(opts: DashboardOptions): RouteFamily {
  const restricted = !profileAllows(opts.profile, 'developer');
  const csp = dashboardCsp(opts.connectSrc);
  const gate = (_req: FastifyRequest, _reply: FastifyReply, done: (e?: Error) => void) => {
    if (!restricted) return done();
    done(
      gatewayError('telemetry_profile_restricted', {
        profile: opts.profile,
        served_by: profilesAllowing('developer'),
      }),
    );
  };
  const schema = { hide: true };
  return {
    name: 'dashboard',
    app: false,
    // Its rank in the serving order (docs/design/modules.md "Serving order"): where its routes have always been.
    servedAt: 430,
    routes: () => [],
    install(app: GatewayApp) {
      app.get(DASHBOARD_PREFIX, { schema, onRequest: gate }, (_req, reply) =>
        reply.redirect(`${DASHBOARD_PREFIX}/`, 308),
      );
      app.get(`${DASHBOARD_PREFIX}/*`, { schema, onRequest: gate }, (req, reply) => {
        const name = (req.params as { '*': string })['*'] || 'index.html';
        const asset = opts.assets.get(name);
        if (asset === undefined)
          throw gatewayError('not_found', { method: 'GET', path: req.url.slice(0, 256) });
        return sendAsset(req, reply, asset, csp);
      });
    },
  };
}

/**
 * The family over the bundle the package build wrote (BUILT_ASSETS_DIR), or none when it is missing:
 * then `logError` says how to build it and the dashboard is absent (404), never a placeholder page.
 */
export function builtDashboard(
  profile: TelemetryProfile,
  logError: (what: string, e: unknown) => void,
  dir: string = BUILT_ASSETS_DIR,
  connectSrc: readonly string[] = [],
): RouteFamily[] {
  const assets = loadAssets(dir);
  if (assets !== undefined) return [dashboardFamily({ assets, profile, connectSrc })];
  logError('dashboard', new Error(`dashboard not built: no index.html in ${dir} (npm run build)`));
  return [];
}
