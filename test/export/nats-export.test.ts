// `torana export --nats` as an operator runs it (a real process) against a served node and a real
// nats-server with JetStream: a consumer reads every committed event exactly once, in id order, with
// its body and subject; filters by subject select by kind, variant and domain; nothing pending reaches
// the stream; SIGTERM stops it cleanly. The kill -9 scenario is nats-export-kill.test.ts.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { projectEvent } from '../../src/gateway/event-filter.js';
import { EventCodec, type EventEnvelope } from '../../src/model/events.js';
import { eventIdPlace } from '../../src/pipeline/event-id.js';
import { run } from '../helpers/node.js';
import { cli } from '../helpers/run-cli.js';
import { newAccount } from '../helpers/tx.js';
import { type ExportFixture, idOf, startExportFixture } from './export-fixture.js';

describe('torana export --nats', () => {
  let f: ExportFixture;
  before(async () => {
    f = await startExportFixture();
  });
  after(async () => f?.stop());

  it('publishes each committed event once, in id order, under subjects filtered by kind and domain', async () => {
    const { t } = f;
    const exporter = f.exporter(['--stream', 'E1']);
    for (const domain of ['acme', 'globex']) {
      const r = await run(t, t.admin, [
        { kind: 'RegisterDomain', id: domain, metadata: new Map() },
        { kind: 'RegisterAccount', id: newAccount(domain).id, metadata: new Map() },
      ]);
      assert.equal(r.status.kind, 'Committed');
    }
    const rejected = await run(t, t.admin, [{ kind: 'RegisterDomain', id: 'acme', metadata: new Map() }]);
    assert.equal(rejected.status.kind, 'Rejected');
    await f.caughtUp('E1', [exporter]);

    const node = f.committed();
    const root = 'torana.torana-test.events';
    const all = await f.readAll('E1', `${root}.>`);
    assert.deepEqual(
      all.map(idOf),
      node.map((e) => e.id),
      'every committed event once, in id order',
    );
    for (const [i, m] of all.entries()) {
      assert.deepEqual(m.json(), { id: node[i]!.id, event: EventCodec.toJson(node[i]!.event) });
      assert.equal(m.headers?.get('Nats-Msg-Id'), String(node[i]!.id), 'the deduplication id');
      const p = projectEvent(node[i]!.event);
      const variant = p.tx_status ?? p.block_status ?? p.data_kind;
      assert.equal(m.subject, `${root}.${p.kind}.${variant}.${p.domain ?? '_'}`);
    }
    // Nothing pending: the node announced each transaction as Queued; none of that reached the stream.
    const pending = (t.node.pipeline.events.since(0) as EventEnvelope[]).filter(
      (e) => eventIdPlace(e.id).pending,
    );
    assert.ok(pending.length >= 3, `the node announced ${pending.length} pending notifications`);
    assert.ok(
      all.every(
        (m) => (m.json() as { event: { status?: { kind?: string } } }).event.status?.kind !== 'Queued',
      ),
    );

    // Filters by subject: the data events about acme, and the rejected transactions.
    const aboutAcme = await f.readAll('E1', `${root}.data.*.acme`);
    const expectedAcme = node.filter((e) => projectEvent(e.event).domain === 'acme').map((e) => e.id);
    assert.ok(expectedAcme.length >= 2, 'acme has a domain and an account event');
    assert.deepEqual(aboutAcme.map(idOf), expectedAcme);
    const refused = await f.readAll('E1', `${root}.transaction.Rejected.*`);
    assert.deepEqual(
      refused.map((m) => (m.json() as { event: { hash: string } }).event.hash),
      [rejected.hash],
    );

    exporter.child.kill('SIGTERM');
    assert.deepEqual(await exporter.exited, { code: 0, signal: null }, exporter.err());
    assert.match(exporter.err(), new RegExp(`export: stopped: ${node.length} published, 0 already held`));
  });

  it('refuses flags beyond their documented bounds with status 2', async () => {
    const r = await cli(['export', '--nats', f.nats.url, '--from', f.t.url, '--in-flight-max', '65537']);
    assert.equal(r.code, 2, r.err);
    assert.match(r.err, /--in-flight-max must be an integer from 1 to 65536/);
  });
});
