// Time triggers through a served node on a fast block clock (docs/triggers.md): a time trigger
// fires once on an idle chain (the engine makes an empty block when it falls due), a repeating one runs
// every period and a failing run is reported; a height trigger runs at its height; the runs' events reach
// the SSE stream, a Last-Event-ID reconnect resumes them, and re-executing the chain (webhook catch-up,
// rebuild) gives the very same events with the same ids.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { EventEnvelope } from '../../src/model/events.js';
import type { Instruction } from '../../src/model/instructions.js';
import { numeric } from '../../src/model/numeric.js';
import { replayCommittedEvents } from '../../src/node/replay-events.js';
import {
  instructions,
  subscriptionDetail,
  subscriptionsList,
  ToranaClient,
  triggersList,
} from '../../src/sdk/index.js';
import { openSse, type SseClient, waitFor } from '../gateway/stream-clients.js';
import { runCli as cli } from '../helpers/cli-in-process.js';
import { alice, bob, type ClockFixture, carol, type J, startClockFixture, usd } from './fixture.js';

const HOUR = 3_600_000;
const pay = (amount: string): Instruction => ({
  kind: 'TransferAsset',
  source: usd(alice),
  destination: bob.id,
  amount: numeric(amount),
});

describe('time triggers (served node, fast block clock)', () => {
  let f: ClockFixture;
  let sse: SseClient;
  before(async () => {
    f = await startClockFixture();
    sse = await openSse(f.t.url, '/v1/events/sse');
  });
  after(async () => {
    sse.close();
    await f.t.stopAll();
  });

  const triggerEvents = (id: string) =>
    sse.messages.filter(
      (m) =>
        m.name === 'data' && m.data?.data?.id === id && /^Trigger(Executed|Failed)$/.test(m.data.data.kind),
    );

  // First, while the node's clock still agrees with the wall clock the CLI signs with.
  it('the CLI and SDK write and read triggers, plans and subscriptions', async () => {
    const common = ['--dir', f.t.dir, '--url', f.t.url, '--json'];
    const ok = async (args: string[]) => {
      const r = await cli([...args, ...common]);
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.err}`);
      return JSON.parse(r.out);
    };
    const plan = ['subscription', 'plan', 'cli-daily', 'usd#acme', '2.50', '--period-ms', String(24 * HOUR)];
    assert.equal((await ok(plan)).status, 'Committed');
    assert.equal((await f.tx(carol, [instructions.subscribe('cli-sub', 'cli-daily')])).code, 'Committed');
    // carol holds no usd: the first charge (in advance, in the subscribing block) failed and is recorded.
    const got = await ok(['subscription', 'get', 'cli-sub']);
    assert.equal(got.invoice.status.reason, 'insufficient_funds');
    assert.equal(got.subscription.status.kind, 'PastDue');
    const client = new ToranaClient({ url: f.t.url });
    const viaSdk = await subscriptionDetail(client, 'cli-sub');
    assert.equal(viaSdk.subscription.failureCount, 1);
    assert.equal(viaSdk.plan?.provider, f.t.admin.id);
    const log = JSON.stringify([{ kind: 'Log', level: { kind: 'Info' }, message: 'far' }]);
    const far = String(f.clock.nowMs() + 1000 * 24 * HOUR);
    assert.equal((await ok(['trigger', 'register', 'far', log, '--at-ms', far])).status, 'Committed');
    assert.deepEqual(
      (await ok(['trigger', 'ls', '--authority', f.t.admin.id])).items.map((t: J) => t.id),
      ['far'],
    );
    const sdkList = await triggersList(client, { authority: f.t.admin.id });
    assert.deepEqual(
      sdkList.items.map((t) => t.id),
      ['far'],
    );
    assert.equal((await f.tx(f.t.admin, [instructions.unregisterTrigger('far')])).code, 'Committed');
    assert.equal((await triggersList(client, { authority: f.t.admin.id })).total, 0);
    assert.equal((await f.tx(carol, [instructions.cancelSubscription('cli-sub')])).code, 'Committed');
    assert.equal((await subscriptionDetail(client, 'cli-sub')).subscription.status.kind, 'Canceled');
    const listed = await subscriptionsList(client, { provider: f.t.admin.id, status: 'canceled' });
    assert.deepEqual(
      listed.items.map((i) => i.subscriptionId),
      ['cli-sub'],
    );
  });

  it('the trigger routes publish under the family hosting them: subscriptions, as before modules', async () => {
    const doc = (await (await fetch(`${f.t.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { 'x-ledger-family'?: string }>>;
    };
    for (const path of ['/v1/triggers', '/v1/triggers/{id}', '/v1/subscriptions'])
      assert.equal(doc.paths[path]?.get?.['x-ledger-family'], 'subscriptions', path);
    const caps = (await (await fetch(`${f.t.url}/v1/node/capabilities`)).json()) as { features: string[] };
    assert.ok(caps.features.includes('subscriptions'));
    assert.ok(!caps.features.includes('triggers'), 'a hosted family adds no feature of its own');
    const paths = Object.keys(doc.paths);
    assert.equal(paths.indexOf('/v1/triggers'), paths.indexOf('/v1/subscriptions/{id}') + 1);
  });

  it('a time trigger fires once on an idle chain; its events reach the SSE stream', async () => {
    const due = f.clock.nowMs() + 5 * HOUR;
    const reg = await f.tx(alice, [
      { kind: 'RegisterTrigger', id: 'once', due: { kind: 'Time', timeMs: due }, instructions: [pay('5')] },
    ]);
    assert.equal(reg.code, 'Committed');
    f.clock.jump(4 * HOUR);
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(f.t.node.ledger.height(), reg.height, 'nothing runs before the due time');
    f.clock.jump(HOUR);
    await f.waitHeight(reg.height + 1);
    assert.equal(f.balance(bob), '5.00');
    const block = await f.t.node.ledger.block(reg.height + 1);
    assert.equal(block?.transactions.length, 0, 'an empty block ran the trigger');
    assert.ok(block!.header.creationTimeMs >= due);
    await waitFor('the TriggerExecuted event', () => triggerEvents('once').length === 1);
    const ev = triggerEvents('once')[0]!;
    assert.equal(ev.data.data.kind, 'TriggerExecuted');
    assert.equal(ev.data.data.runs, 1);
    f.clock.jump(10 * HOUR);
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(f.t.node.ledger.height(), reg.height + 1, 'a one-shot trigger does not run again');
    assert.equal((await f.get('/v1/triggers/once')).status, 404);
  });

  it('a repeating trigger runs every period; a failed run is reported with its reason', async () => {
    const start = f.clock.nowMs() + HOUR;
    const reg = await f.tx(alice, [
      {
        kind: 'RegisterTrigger',
        id: 'hourly',
        due: { kind: 'Time', timeMs: start },
        repeat: { kind: 'EveryMs', ms: HOUR },
        instructions: [pay('300')],
      },
    ]);
    assert.equal(reg.code, 'Committed');
    const listed = await f.get(`/v1/triggers?authority=${encodeURIComponent(alice.id)}`);
    assert.deepEqual(
      listed.body.items.map((i: J) => i.id),
      ['hourly'],
    );
    for (let i = 1; i <= 4; i++) {
      f.clock.jumpTo(start + (i - 1) * HOUR);
      await f.waitHeight(reg.height + i);
    }
    // 995 - 3 × 300 = 95 left: the fourth run cannot pay and fails, leaving the state as it was.
    assert.equal(f.balance(alice), '95.00');
    await waitFor('four runs on the stream', () => triggerEvents('hourly').length === 4);
    const kinds = triggerEvents('hourly').map((m) => m.data.data.kind);
    assert.deepEqual(kinds, ['TriggerExecuted', 'TriggerExecuted', 'TriggerExecuted', 'TriggerFailed']);
    assert.equal(triggerEvents('hourly')[3]!.data.data.reason.code, 'insufficient_funds');
    const row = await f.get('/v1/triggers/hourly');
    assert.equal(row.status, 200);
    assert.equal(row.body.runs, 4);
    assert.deepEqual(row.body.due, { kind: 'Time', time_ms: start + 4 * HOUR });
    assert.equal((await f.tx(alice, [{ kind: 'UnregisterTrigger', id: 'hourly' }])).code, 'Committed');
  });

  it('a height trigger runs in the block at its height', async () => {
    const h = f.t.node.ledger.height();
    const reg = await f.tx(alice, [
      {
        kind: 'RegisterTrigger',
        id: 'at-height',
        due: { kind: 'Height', height: h + 2 },
        instructions: [pay('1')],
      },
    ]);
    assert.equal(reg.height, h + 1);
    const next = await f.tx(alice, [{ kind: 'Log', level: { kind: 'Info' }, message: 'tick' }]);
    assert.equal(next.height, h + 2);
    await waitFor('the height trigger ran', () => triggerEvents('at-height').length === 1);
    assert.equal(f.balance(alice), '94.00');
  });

  it('Last-Event-ID resumption and a re-execution of the chain give the same trigger events', async () => {
    const first = triggerEvents('once')[0]!;
    // Resume from just before the trigger's first event: the reconnect is served from history.
    const ids = sse.messages.map((m) => m.id);
    const before = ids[ids.indexOf(first.id) - 1]!;
    const res = await fetch(`${f.t.url}/v1/events/sse`, { headers: { 'last-event-id': String(before) } });
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes(`id: ${first.id}\n`) || !text.includes('TriggerExecuted')) {
      const { value } = await reader.read();
      text += new TextDecoder().decode(value);
    }
    await reader.cancel();
    assert.match(text, new RegExp(`id: ${first.id}\\n`));
    // Replay: the blocks re-executed from genesis announce the same events under the same ids.
    const replayed: EventEnvelope[] = [];
    await replayCommittedEvents(f.t.node, 0, (events) => replayed.push(...events));
    const live = f.t.node.pipeline.events.since(0);
    assert.notEqual(live, 'gone');
    const committed = (live as EventEnvelope[]).filter(
      (e) =>
        (e.id <= replayed.at(-1)!.id && e.event.kind !== 'Transaction') ||
        (e.event.kind === 'Transaction' && e.event.status.kind !== 'Queued'),
    );
    const pick = (es: EventEnvelope[]) =>
      es
        .filter((e) => e.event.kind === 'Data' && e.event.data.kind.startsWith('Trigger'))
        .map((e) =>
          JSON.stringify([e.id, e.event], (_k, v) =>
            typeof v === 'bigint' ? v.toString() : v instanceof Uint8Array ? [...v] : v,
          ),
        );
    assert.ok(pick(replayed).length >= 7);
    assert.deepEqual(pick(replayed), pick(committed));
  });
});
