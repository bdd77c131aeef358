// Telemetry profiles over the LIVE route table.
//
// One node per profile; every registered route is called in process (inject(): the gateway's own routing,
// hooks and error handling), event streams through the real socket, cut off once their headers arrive. The expectation is
// built here from the profile table (docs/configuration.md "Telemetry profiles") and each route's declared
// visibility, and named routes are checked by path, so a route declared with the wrong visibility fails as well.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { inject } from '../helpers/inject.js';
import {
  discoverSamples,
  exampleBody,
  exampleQuery,
  fetchOpenApi,
  type LiveRoute,
  liveRoutes,
  type OpenApiDoc,
  validPath,
} from '../helpers/route-catalog.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';

const PROFILES = ['disabled', 'operator', 'extended', 'developer', 'full'] as const;
type Profile = (typeof PROFILES)[number];

/** The profile table of docs/configuration.md, written out (not imported) so that the implementation is checked against it. */
const TABLE: Readonly<Record<Profile, { status: boolean; metrics: boolean; developer: boolean }>> = {
  disabled: { status: false, metrics: false, developer: false },
  operator: { status: true, metrics: false, developer: false },
  extended: { status: true, metrics: true, developer: false },
  developer: { status: true, metrics: false, developer: true },
  full: { status: true, metrics: true, developer: true },
};

/** By path: which class each named route belongs to (src/gateway/README.md "Telemetry profiles"). */
const STATUS_PATHS = [
  '/status',
  '/status/:field',
  '/v1/consensus/status',
  '/v1/consensus/status/sse',
  '/v1/consensus/telemetry',
  '/v1/conference/relays',
  '/v1/conference/relays/health',
  '/v1/conference/relays/events',
  '/v1/conference/relays/:relay_id',
];
const DEVELOPER_PATHS = [
  '/v1/consensus/leader',
  '/v1/consensus/qc',
  '/v1/consensus/pacemaker',
  '/v1/consensus/phases',
  '/v1/consensus/params',
  '/v1/consensus/bls_keys',
  '/v1/consensus/checkpoints',
  '/v1/consensus/rbc',
  '/v1/consensus/rbc/sessions',
  '/v1/consensus/evidence',
];
const UNGATED_PATHS = [
  '/health',
  '/v1/health',
  '/v1/consensus/commit-certificates',
  '/v1/consensus/validator-sets',
  '/v1/consensus/validator-sets/:height',
  '/v1/consensus/consensus-keys',
  '/v1/consensus/key-lifecycle',
  '/v1/consensus/collectors',
  '/v1/consensus/commit_qc/:hash',
  '/v1/consensus/evidence/count',
  // docs/telemetry.md: telemetry's peers-info and propagation are not profile-gated.
  '/v1/telemetry/peers-info',
  '/v1/telemetry/propagation',
];
/** `metrics` capability: /metrics, and telemetry's live feed. */
const METRICS_PATHS = ['/metrics', '/v1/telemetry/live', '/v1/explorer/metrics'];

function servedUnder(profile: Profile, visibility: string): boolean {
  switch (visibility) {
    case 'public':
    case 'operator':
      return true;
    case 'status':
      return TABLE[profile].status;
    case 'metrics':
      return TABLE[profile].metrics;
    case 'developer':
      return TABLE[profile].developer;
    default:
      throw new Error(`unknown visibility ${visibility}`);
  }
}

interface Answer {
  status: number;
  contentType: string;
  body: { code?: string; details?: Record<string, unknown> } | undefined;
}

/** Calls the route with a well-formed request; streams are cut off once their headers arrive. */
async function call(t: ServedTestNode, route: LiveRoute, path: string, nonce: number): Promise<Answer> {
  const body = exampleBody(route, { chainId: t.chainId, admin: t.admin }, nonce);
  if (route.stream !== 'sse') {
    const a = await inject(t.served.app, path, {
      method: route.method,
      ...(body === undefined ? {} : { headers: { 'content-type': body.contentType }, body: body.body }),
    });
    return { status: a.status, contentType: a.contentType, body: a.json as Answer['body'] };
  }
  const res = await fetch(`${t.url}${path}`, {
    method: route.method,
    headers: body === undefined ? {} : { 'content-type': body.contentType },
    ...(body === undefined ? {} : { body: body.body }),
    signal: AbortSignal.timeout(5_000),
  });
  const contentType = res.headers.get('content-type') ?? '';
  if (contentType.startsWith('text/event-stream')) {
    await res.body?.cancel();
    return { status: res.status, contentType, body: undefined };
  }
  const text = await res.text();
  const json = contentType.startsWith('application/json') ? JSON.parse(text) : undefined;
  return { status: res.status, contentType, body: json };
}

function isRestricted(a: Answer): boolean {
  return a.status === 503 && a.body?.code === 'telemetry_profile_restricted';
}

for (const profile of PROFILES) {
  describe(`telemetry.profile = ${profile}`, () => {
    let t: ServedTestNode;
    let doc: OpenApiDoc;
    let routes: LiveRoute[];
    const answers = new Map<string, Answer>();
    before(async () => {
      t = await startServedNode({ 'telemetry.profile': profile });
      doc = await fetchOpenApi(t.url);
      routes = liveRoutes(t.served.app, doc);
      const samples = await discoverSamples(t.url);
      let nonce = 0;
      for (const r of routes) {
        const path = validPath(r, samples) + (r.method === 'GET' ? exampleQuery(r, samples) : '');
        answers.set(`${r.method} ${r.url}`, await call(t, r, path, nonce++));
      }
    });
    after(async () => t.stopAll());

    // Each named route's declared class, checked once, on the node that serves every class.
    if (profile === 'full')
      it('status, metrics, developer and ungated routes are declared as the notes say', () => {
        const byUrl = new Map(routes.filter((r) => r.method === 'GET').map((r) => [r.url, r]));
        const check = (paths: string[], visibility: string[]) => {
          for (const p of paths) {
            const r = byUrl.get(p);
            if (r !== undefined)
              assert.ok(visibility.includes(r.meta.visibility), `${p}: ${r.meta.visibility}`);
          }
        };
        check(STATUS_PATHS, ['status']);
        check(DEVELOPER_PATHS, ['developer']);
        check(UNGATED_PATHS, ['public']);
        // The explorer's metrics follow the `metrics` capability as /metrics does.
        check(METRICS_PATHS, ['metrics']);
        for (const p of ['/status', '/metrics', '/health', '/v1/consensus/leader'])
          assert.ok(byUrl.has(p), `${p} is registered`);
        // The event streams (WebSocket and SSE) are GET operations of the served document.
        for (const p of ['/events', '/block/stream', '/v1/events/sse'])
          assert.ok(doc.paths[p]?.get, `${p} is in the OpenAPI document`);
        // Nothing outside the named lists is gated: every gated route is one the notes name.
        const named = new Set([...STATUS_PATHS, ...DEVELOPER_PATHS, ...METRICS_PATHS]);
        const gated = routes.filter(
          (r) => r.meta.visibility !== 'public' && r.meta.visibility !== 'operator',
        );
        for (const r of gated)
          assert.ok(named.has(r.url), `${r.method} ${r.url} is gated but not named in §4`);
      });

    it('every registered route answers 503 telemetry_profile_restricted exactly when the table says', () => {
      let restricted = 0;
      for (const r of routes) {
        const key = `${r.method} ${r.url}`;
        const a = answers.get(key)!;
        const served = servedUnder(profile, r.meta.visibility);
        assert.equal(isRestricted(a), !served, `${key} (${r.meta.visibility}): ${a.status} ${a.body?.code}`);
        assert.equal(r.meta.restricted, !served, `${key}: route metadata`);
        if (served) {
          assert.ok(a.status < 500, `${key}: ${a.status} ${a.body?.code}`);
          continue;
        }
        restricted++;
        assert.equal(a.body?.details?.profile, profile, key);
        const servedBy = PROFILES.filter((p) => servedUnder(p, r.meta.visibility));
        assert.deepEqual(a.body?.details?.served_by, servedBy, key);
        const op = doc.paths[r.openApiPath]![r.method.toLowerCase()]!;
        assert.ok(op.responses?.['503'], `${key}: the document shows the 503`);
      }
      const gated = { disabled: 1, operator: 1, extended: 1, developer: 1, full: 0 }[profile];
      assert.ok(restricted >= gated, `${restricted} restricted routes under ${profile}`);
    });

    it('key routes by path: /status, /metrics, /v1/consensus/leader, /health', () => {
      const row = TABLE[profile];
      const get = (p: string) => answers.get(`GET ${p}`);
      assert.equal(isRestricted(get('/status')!), !row.status, '/status');
      assert.equal(get('/status')!.status, row.status ? 200 : 503);
      assert.equal(isRestricted(get('/metrics')!), !row.metrics, '/metrics');
      if (row.metrics) assert.match(get('/metrics')!.contentType, /^text\/plain/);
      const leader = get('/v1/consensus/leader');
      if (leader !== undefined) assert.equal(isRestricted(leader), !row.developer, '/v1/consensus/leader');
      assert.equal(get('/health')!.status, 200, '/health is always served');
    });

    it('operator routes are never profile-gated: 403 without configured operators', () => {
      const operatorRoutes = routes.filter((r) => r.meta.visibility === 'operator');
      for (const r of operatorRoutes) {
        const a = answers.get(`${r.method} ${r.url}`)!;
        assert.equal(a.status, 403, `${r.method} ${r.url}`);
        assert.equal(a.body?.code, 'operator_access_disabled');
      }
    });
  });
}
