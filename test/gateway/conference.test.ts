// The conference read routes of a served node (docs/conference.md "Routes and CLI"): relays and calls
// written by real transactions and read back through the SDK's typed readers; the relay event stream
// resumes with Last-Event-ID; the relay gauge in /metrics; and the gating: `conference.enabled` and
// `conference.relay_telemetry` switched off leave the routes unregistered (404) and undocumented.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ToranaClient } from '../../src/sdk/client.js';
import { isToranaApiError } from '../../src/sdk/errors.js';
import { instructions as ix } from '../../src/sdk/instructions.js';
import { accountOf, generateKeyPair } from '../../src/sdk/keys.js';
import { fetchOpenApi } from '../helpers/route-catalog.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';

const KEY = (n: number) => n.toString(16).padStart(2, '0').repeat(32);
const RELAY_PATHS = [
  '/v1/conference/relays',
  '/v1/conference/relays/health',
  '/v1/conference/relays/events',
  '/v1/conference/relays/{relay_id}',
];

describe('conference routes of a served node', () => {
  let t: ServedTestNode;
  let client: ToranaClient;
  let call: string;
  before(async () => {
    t = await startServedNode({ 'telemetry.profile': 'full' });
    client = new ToranaClient({ url: t.url, account: t.admin.id, signer: t.admin.key });
    const domain = t.admin.id.slice(t.admin.id.lastIndexOf('@') + 1);
    call = `${domain}:standup`;
    const relays = ['r1', 'r2', 'r3', 'r4'];
    await client.submitAndWait(
      await client.build(
        relays.map((r, i) =>
          ix.registerConferenceRelay(r, KEY(i + 1), `wss://${r}.example`, i < 2 ? 'eu' : 'us'),
        ),
      ),
    );
    await client.submitAndWait(
      await client.build([
        ix.reportConferenceRelayHealth('r1', { available: true, latencyMs: 20, lossPermille: 1 }),
        ix.reportConferenceRelayHealth('r2', { available: true, latencyMs: 30, lossPermille: 2 }),
        ix.reportConferenceRelayHealth('r3', { available: false, latencyMs: 0, lossPermille: 1000 }),
      ]),
    );
    const hops = ['r1', 'r2', 'r4'].map((relay) => ({
      relay,
      publicKey: KEY(['r1', 'r2', 'r3', 'r4'].indexOf(relay) + 1),
      weight: 5,
    }));
    await client.submitAndWait(
      await client.build([
        ix.createConference(call, {
          policy: 'public',
          title: 'Standup',
          scheduledStartMs: 0,
          maxParticipants: 4,
          gasRatePerMinute: '0',
          billingAccount: t.admin.id,
          manifest: { hops, expiresAtMs: 4_000_000_000_000n },
        }),
        ix.createConference(`${domain}:board`, {
          title: 'Board',
          scheduledStartMs: 0,
          maxParticipants: 4,
          gasRatePerMinute: '0',
          billingAccount: t.admin.id,
        }),
      ]),
    );
  });
  after(async () => t.stopAll());

  it('lists relays and their health as the ledger recorded them', async () => {
    const list = await client.listRelays();
    assert.deepEqual(
      list.items.map((r) => [r.id, r.status, r.region]),
      [
        ['r1', 'available', 'eu'],
        ['r2', 'available', 'eu'],
        ['r3', 'unavailable', 'us'],
        ['r4', 'unknown', 'us'],
      ],
    );
    assert.equal(list.items[0]!.operator, t.admin.id);
    assert.deepEqual(
      (await client.listRelays({ region: 'us', available: false })).items.map((r) => r.id),
      ['r3', 'r4'],
    );
    const h = await client.relayHealth();
    assert.deepEqual([h.registered, h.available, h.unavailable, h.unknown], [4, 2, 1, 1]);
    assert.equal(h.items.find((i) => i.relay === 'r2')?.health?.latencyMs, 30);
    const one = await client.getRelay('r3');
    assert.deepEqual([one.health?.available, one.health?.lossPermille], [false, 1000]);
    await assert.rejects(client.getRelay('r9'), (e) => isToranaApiError(e, 'conference_relay_not_found'));
  });

  it('reads the call and lists calls', async () => {
    const c = await client.getCall(call);
    assert.deepEqual(
      [c.id, c.host, c.policy, c.privacy, c.status],
      [call, t.admin.id, 'public', 'transparent', 'active'],
    );
    assert.deepEqual(c.relays, ['r1', 'r2', 'r4']);
    assert.equal(c.manifest?.hops.length, 3);
    const list = await client.listCalls({ domain: c.domain });
    assert.deepEqual([list.total, list.items[0]!.id], [1, call]);
    assert.equal((await client.listCalls({ status: 'ended' })).total, 0);
    await assert.rejects(client.getCall(`${c.domain}:nope`), (e) =>
      isToranaApiError(e, 'conference_not_found'),
    );
  });

  it('serves an authenticated call only to signed requests of a registered account', async () => {
    const board = call.replace(/standup$/, 'board');
    await assert.rejects(client.getCall(board), (e) => isToranaApiError(e, 'signature_missing'));
    const c = await client.getCall(board, { signed: true });
    assert.deepEqual([c.policy, c.title], ['authenticated', 'Board']);
    assert.deepEqual(
      (await client.listCalls()).items.map((i) => i.id),
      [call],
    );
    assert.deepEqual(
      (await client.listCalls({ signed: true })).items.map((i) => i.id),
      [board, call],
    );
    const stranger = generateKeyPair();
    const outsider = new ToranaClient({
      url: t.url,
      account: accountOf(stranger, c.domain),
      signer: stranger,
    });
    // Signed by a key that is not a registered account: refused before its signature is looked at.
    await assert.rejects(outsider.getCall(board, { signed: true }), (e) =>
      isToranaApiError(e, 'request_signer_unregistered'),
    );
  });

  it('streams relay events and resumes after the last id', async () => {
    const ctl = new AbortController();
    const seen: { id: number; kind: string }[] = [];
    for await (const e of client.relayEvents({ since: 0, signal: ctl.signal })) {
      if (e.event.kind === 'Data') seen.push({ id: e.id, kind: e.event.data.kind });
      if (seen.length === 8) break;
    }
    ctl.abort();
    assert.deepEqual(
      seen.map((s) => s.kind),
      [
        ...Array(4).fill('ConferenceRelayRegistered'),
        ...Array(3).fill('ConferenceRelayHealthUpdated'),
        'ConferenceRelayManifestUpdated',
      ],
    );
    const resumed: number[] = [];
    const ctl2 = new AbortController();
    for await (const e of client.relayEvents({
      kind: 'health',
      relay: 'r3',
      since: seen[4]!.id,
      signal: ctl2.signal,
    })) {
      resumed.push(e.id);
      break;
    }
    ctl2.abort();
    assert.deepEqual(resumed, [seen[6]!.id]);
  });

  it('exports the relay gauge in /metrics', async () => {
    const text = await (await fetch(`${t.url}/metrics`)).text();
    assert.match(text, /conference_relays\{availability="available"\} 2/);
    assert.match(text, /conference_relays\{availability="unavailable"\} 1/);
    assert.match(text, /conference_relays\{availability="unknown"\} 1/);
  });
});

describe('conference routes switched off', () => {
  for (const [key, relaysGone, callsGone] of [
    ['conference.relay_telemetry', true, false],
    ['conference.enabled', true, true],
  ] as const) {
    it(`${key} = false: routes not registered (404) and not in the OpenAPI document`, async () => {
      const t = await startServedNode({ 'telemetry.profile': 'full', [key]: false });
      try {
        const doc = await fetchOpenApi(t.url);
        for (const p of RELAY_PATHS) assert.equal(doc.paths[p] !== undefined, !relaysGone, p);
        assert.equal(doc.paths['/v1/conference/calls'] !== undefined, !callsGone);
        const status = async (p: string) => (await fetch(`${t.url}${p}`)).status;
        assert.equal(await status('/v1/conference/relays'), relaysGone ? 404 : 200);
        assert.equal(await status('/v1/conference/relays/health'), relaysGone ? 404 : 200);
        assert.equal(await status('/v1/conference/calls'), callsGone ? 404 : 200);
        const metrics = await (await fetch(`${t.url}/metrics`)).text();
        assert.equal(metrics.includes('conference_relays'), false);
      } finally {
        await t.stopAll();
      }
    });
  }
});
