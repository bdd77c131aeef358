// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../registry.js';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type ConferenceServer,
  call,
  conferenceServer,
  GUEST,
  OPERATOR,
  readPort,
  relay,
  signedGet,
  stranger,
  VIEWER,
} from '../../../test/fixtures/conference/read-fixture.js';
import { installRelayMetrics } from './metrics.js';

const RELAYS = [
  relay('r1', 'eu', true),
  relay('r2', 'eu', false),
  relay('r3', 'us', true),
  relay('r4', 'us'),
];
const CALLS = [
  call('studio:standup'),
  call('studio:retro', { ended: true }),
  call('guild:town-hall', { privateRoster: true }),
  call('guild:board', { authenticated: true }),
];
const RELAY_PATHS = [
  '/v1/conference/relays',
  '/v1/conference/relays/health',
  '/v1/conference/relays/events',
  '/v1/conference/relays/{relay_id}',
];

async function getJson(s: ConferenceServer, path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${s.url}${path}`, { headers: { accept: 'application/json', ...headers } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> & { items?: unknown[] } };
}

const ids = (body: { items?: unknown[] }) => (body.items as { id: string }[]).map((i) => i.id);

describe('conference relay routes', () => {
  let s: ConferenceServer;
  before(async () => {
    s = await conferenceServer(readPort(CALLS, RELAYS));
  });
  after(async () => s.app.close());

  it('lists relays with {items, total}, paged and filtered by region and availability', async () => {
    const all = await getJson(s, '/v1/conference/relays');
    assert.equal(all.status, 200);
    assert.equal(all.body.total, 4);
    assert.deepEqual(ids(all.body), ['r1', 'r2', 'r3', 'r4']);
    const first = (all.body.items as Record<string, unknown>[])[0]!;
    assert.equal(first.operator, OPERATOR);
    assert.equal(first.domain, 'relays');
    assert.equal(first.status, 'available');
    assert.equal(first.public_key, '02'.repeat(32));
    assert.deepEqual(first.health, {
      available: true,
      latency_ms: 20,
      loss_permille: 3,
      height: 4,
      time_ms: '1700000000000',
    });
    const page = await getJson(s, '/v1/conference/relays?limit=2&offset=1');
    assert.deepEqual([ids(page.body), page.body.total], [['r2', 'r3'], 4]);
    const eu = await getJson(s, '/v1/conference/relays?region=eu&available=true');
    assert.deepEqual([ids(eu.body), eu.body.total], [['r1'], 1]);
    const down = await getJson(s, '/v1/conference/relays?available=false');
    assert.deepEqual(ids(down.body), ['r2', 'r4']);
    const sorted = await getJson(
      s,
      '/v1/conference/relays?sort=region:desc&filter={"eq":["status","available"]}',
    );
    assert.deepEqual(ids(sorted.body), ['r3', 'r1']);
    const bad = await getJson(s, '/v1/conference/relays?limit=0');
    assert.deepEqual([bad.status, bad.body.code], [400, 'invalid_pagination']);
    const badAvailable = await getJson(s, '/v1/conference/relays?available=maybe');
    assert.equal(badAvailable.status, 400);
  });

  it('health: totals over every relay and one page of latest reports', async () => {
    const h = await getJson(s, '/v1/conference/relays/health?limit=2');
    assert.equal(h.status, 200);
    assert.deepEqual(
      [h.body.registered, h.body.available, h.body.unavailable, h.body.unknown, h.body.total],
      [4, 2, 1, 1, 4],
    );
    const items = h.body.items as { relay: string; status: string; health?: unknown }[];
    assert.deepEqual(
      items.map((i) => [i.relay, i.status]),
      [
        ['r1', 'available'],
        ['r2', 'unavailable'],
      ],
    );
    const last = await getJson(s, '/v1/conference/relays/health?offset=3');
    const unknown = (last.body.items as { relay: string; status: string; health?: unknown }[])[0]!;
    assert.deepEqual([unknown.relay, unknown.status, unknown.health], ['r4', 'unknown', undefined]);
  });

  it('one relay; an unknown one is 404 conference_relay_not_found, a malformed one 400', async () => {
    const one = await getJson(s, '/v1/conference/relays/r3');
    assert.deepEqual([one.status, one.body.id, one.body.region], [200, 'r3', 'us']);
    const missing = await getJson(s, '/v1/conference/relays/nope');
    assert.deepEqual([missing.status, missing.body.code], [404, 'conference_relay_not_found']);
    assert.deepEqual(missing.body.details, { relay: 'nope' });
    assert.match(String(missing.body.message), /no relay nope/);
    const bad = await getJson(s, `/v1/conference/relays/${encodeURIComponent('a b')}`);
    assert.deepEqual([bad.status, bad.body.code], [400, 'bad_request']);
  });

  it('answers the codec when asked', async () => {
    const res = await fetch(`${s.url}/v1/conference/relays/r1`, {
      headers: { accept: 'application/x-codec' },
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/x-codec');
    assert.ok((await res.arrayBuffer()).byteLength > 32);
  });

  it('the relay gauge counts relays by availability', async () => {
    installRelayMetrics(s.app.gateway.metrics.registry, readPort(CALLS, RELAYS));
    const text = await s.app.gateway.metrics.registry.metrics();
    assert.match(text, /conference_relays\{availability="available"\} 2/);
    assert.match(text, /conference_relays\{availability="unavailable"\} 1/);
    assert.match(text, /conference_relays\{availability="unknown"\} 1/);
  });
});

describe('conference call routes', () => {
  let s: ConferenceServer;
  before(async () => {
    s = await conferenceServer(readPort(CALLS, RELAYS));
  });
  after(async () => s.app.close());

  it('lists calls without rosters, filtered by domain and status', async () => {
    const all = await getJson(s, '/v1/conference/calls');
    assert.deepEqual(
      [ids(all.body), all.body.total],
      [['guild:town-hall', 'studio:retro', 'studio:standup'], 3],
    );
    const item = (all.body.items as Record<string, unknown>[])[2]!;
    assert.equal(item.participants, undefined);
    assert.deepEqual(
      [item.domain, item.name, item.policy, item.privacy],
      ['studio', 'standup', 'public', 'transparent'],
    );
    assert.deepEqual(item.relays, ['r1', 'r2', 'r3']);
    assert.equal(item.active_participants, 1);
    const studio = await getJson(s, '/v1/conference/calls?domain=studio&status=active');
    assert.deepEqual(ids(studio.body), ['studio:standup']);
    const ended = await getJson(s, '/v1/conference/calls?status=ended');
    assert.deepEqual(ids(ended.body), ['studio:retro']);
    const bad = await getJson(s, '/v1/conference/calls?status=paused');
    assert.equal(bad.status, 400);
  });

  it('one call with its roster; private calls show commitments, never accounts', async () => {
    const one = await getJson(s, `/v1/conference/calls/${encodeURIComponent('studio:standup')}`);
    assert.equal(one.status, 200);
    assert.deepEqual(one.body.participants, [GUEST]);
    assert.deepEqual(one.body.roster_commitments, []);
    assert.equal(one.body.status, 'active');
    assert.equal((one.body.manifest as { hops: unknown[] }).hops.length, 3);
    const zk = await getJson(s, `/v1/conference/calls/${encodeURIComponent('guild:town-hall')}`);
    assert.deepEqual([zk.body.privacy, zk.body.participants], ['zk-roster-v1', []]);
    assert.equal(zk.body.roster_root, '02'.padStart(64, '0'));
    const ended = await getJson(s, '/v1/conference/calls/studio:retro');
    assert.deepEqual([ended.body.status, ended.body.ended_height], ['ended', 9]);
    const missing = await getJson(s, '/v1/conference/calls/studio:nope');
    assert.deepEqual([missing.status, missing.body.code], [404, 'conference_not_found']);
    const bad = await getJson(s, '/v1/conference/calls/no-colon');
    assert.deepEqual([bad.status, bad.body.code], [400, 'bad_request']);
  });
});

describe('shielded pool route', () => {
  it('serves the leaves in order with the current and recent roots', async () => {
    const f = (n: number) => n.toString(16).padStart(64, '0');
    const s = await conferenceServer(readPort([], [], { leaves: [f(1), f(2)], roots: [f(10), f(11)] }));
    try {
      const r = await getJson(s, '/v1/conference/pool');
      assert.equal(r.status, 200);
      const roots = { root: f(11), roots: [f(10), f(11)] };
      assert.deepEqual(r.body, { leaves: [f(1), f(2)], offset: 0, total: 2, ...roots });
      const page = await getJson(s, '/v1/conference/pool?limit=1&offset=1');
      assert.deepEqual(page.body, { leaves: [f(2)], offset: 1, total: 2, ...roots });
      const bad = await getJson(s, '/v1/conference/pool?limit=0');
      assert.deepEqual([bad.status, bad.body.code], [400, 'invalid_pagination']);
      const empty = await conferenceServer(readPort([], []));
      try {
        const none = { leaves: [], offset: 0, total: 0, roots: [] };
        assert.deepEqual((await getJson(empty, '/v1/conference/pool')).body, none);
      } finally {
        await empty.app.close();
      }
    } finally {
      await s.app.close();
    }
  });
});

describe('authenticated calls', () => {
  let s: ConferenceServer;
  before(async () => {
    s = await conferenceServer(readPort(CALLS, RELAYS));
  });
  after(async () => s.app.close());

  const signed = (path: string) => getJson(s, path, signedGet(path));
  const board = `/v1/conference/calls/${encodeURIComponent('guild:board')}`;

  it('are read only with a signed request of a registered account', async () => {
    const anonymous = await getJson(s, board);
    assert.deepEqual([anonymous.status, anonymous.body.code], [401, 'signature_missing']);
    const ok = await signed(board);
    assert.deepEqual([ok.status, ok.body.policy], [200, 'authenticated']);
    const other = stranger();
    const unknown = await getJson(s, board, signedGet(board, other.account, other.key));
    assert.deepEqual([unknown.status, unknown.body.code], [403, 'request_signer_unregistered']);
    const forged = await getJson(s, board, signedGet(board, VIEWER, other.key));
    assert.deepEqual([forged.status, forged.body.code], [403, 'request_signature_invalid']);
    // A public call needs no signature, and a signed read of it is fine too.
    assert.equal((await signed('/v1/conference/calls/studio:standup')).status, 200);
  });

  it('are listed only to signed requests', async () => {
    const anonymous = await getJson(s, '/v1/conference/calls?domain=guild');
    assert.deepEqual(ids(anonymous.body), ['guild:town-hall']);
    const listed = await signed('/v1/conference/calls?domain=guild');
    assert.deepEqual(ids(listed.body), ['guild:board', 'guild:town-hall']);
    const partial = await getJson(s, '/v1/conference/calls', { 'x-ledger-account': VIEWER });
    assert.deepEqual([partial.status, partial.body.code], [401, 'signature_missing']);
  });
});

describe('conference route gating', () => {
  it('relay telemetry off: the relay routes are not registered (404) nor documented; calls stay', async () => {
    const s = await conferenceServer(readPort(CALLS, RELAYS), { relayTelemetry: false });
    try {
      for (const p of ['/v1/conference/relays', '/v1/conference/relays/health', '/v1/conference/relays/r1']) {
        const r = await getJson(s, p);
        assert.deepEqual([r.status, r.body.code], [404, 'not_found'], p);
      }
      const doc = s.app.swagger() as { paths: Record<string, unknown> };
      for (const p of RELAY_PATHS) assert.equal(doc.paths[p], undefined, p);
      assert.ok(doc.paths['/v1/conference/calls/{call_id}']);
      assert.equal((await getJson(s, '/v1/conference/calls')).status, 200);
    } finally {
      await s.app.close();
    }
  });

  it('telemetry profile disabled: relay routes answer 503 and stay documented; calls are public', async () => {
    const s = await conferenceServer(readPort(CALLS, RELAYS), { profile: 'disabled' });
    try {
      const r = await getJson(s, '/v1/conference/relays/health');
      assert.deepEqual([r.status, r.body.code], [503, 'telemetry_profile_restricted']);
      const doc = s.app.swagger() as {
        paths: Record<string, { get: { responses: Record<string, unknown> } }>;
      };
      for (const p of RELAY_PATHS) assert.ok(doc.paths[p]?.get.responses['503'], p);
      assert.equal((await getJson(s, '/v1/conference/calls')).status, 200);
    } finally {
      await s.app.close();
    }
  });
});
