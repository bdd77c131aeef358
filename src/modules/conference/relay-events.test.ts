// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../registry.js';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type ConferenceServer,
  conferenceServer,
  OPERATOR,
  readPort,
  relay,
} from '../../../test/fixtures/conference/read-fixture.js';
import type { DataEvent } from '../../model/events.js';

interface Message {
  id: number;
  event: string;
  data: { kind: string; data: { kind: string } & Record<string, unknown> };
}

/** Reads SSE messages until `count` arrived (or 5 s passed), then closes the stream. */
async function read(url: string, count: number, lastEventId?: number): Promise<Message[]> {
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(), 5_000);
  const res = await fetch(url, {
    headers: lastEventId === undefined ? {} : { 'last-event-id': String(lastEventId) },
    signal: ctl.signal,
  });
  assert.equal(res.status, 200, await (res.status === 200 ? '' : res.text()));
  const out: Message[] = [];
  let text = '';
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      text += new TextDecoder().decode(chunk);
      const blocks = text.split('\n\n');
      text = blocks.pop()!;
      for (const b of blocks) {
        const fields = Object.fromEntries(
          b.split('\n').map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]),
        );
        if (fields.id !== undefined && fields.data !== undefined)
          out.push({ id: Number(fields.id), event: fields.event!, data: JSON.parse(fields.data) });
      }
      if (out.length >= count) break;
    }
  } catch {
    // aborted by the timer: return what arrived
  } finally {
    clearTimeout(timer);
    ctl.abort();
  }
  return out;
}

const registered = (r: string): DataEvent => ({
  kind: 'ConferenceRelayRegistered',
  relay: r,
  operator: OPERATOR,
});
const health = (r: string, available: boolean): DataEvent => ({
  kind: 'ConferenceRelayHealthUpdated',
  relay: r,
  available,
  latencyMs: 12,
  lossPermille: 0,
});
const manifest = (call: string, relays: string[]): DataEvent => ({
  kind: 'ConferenceRelayManifestUpdated',
  call,
  relays,
  expiresAtMs: 1_800_000_000_000n,
});

describe('GET /v1/conference/relays/events', () => {
  let s: ConferenceServer;
  before(async () => {
    s = await conferenceServer(readPort([], [relay('r1', 'eu', true), relay('r2', 'eu', true)]));
    s.bus.publish(registered('r1'));
    s.bus.publish({ kind: 'DomainCreated', id: 'studio', owner: OPERATOR } as unknown as DataEvent);
    s.bus.publish(health('r1', false));
    s.bus.publish(manifest('studio:standup', ['r1', 'r2', 'r3']));
    s.bus.publish(health('r2', true));
    s.bus.publish(manifest('guild:town-hall', ['r2', 'r3', 'r4']));
  });
  after(async () => s.app.close());

  const url = (q = '') => `${s.url}/v1/conference/relays/events${q}`;
  const kinds = (ms: Message[]) => ms.map((m) => [m.id, m.data.data.kind]);

  it('replays only relay events, resuming after Last-Event-ID', async () => {
    const all = await read(url(), 5, 0);
    assert.deepEqual(kinds(all), [
      [1, 'ConferenceRelayRegistered'],
      [3, 'ConferenceRelayHealthUpdated'],
      [4, 'ConferenceRelayManifestUpdated'],
      [5, 'ConferenceRelayHealthUpdated'],
      [6, 'ConferenceRelayManifestUpdated'],
    ]);
    assert.equal(all[0]!.event, 'data');
    const resumed = await read(url(), 2, 4);
    assert.deepEqual(
      resumed.map((m) => m.id),
      [5, 6],
    );
  });

  it('filters by kind, relay and domain', async () => {
    assert.deepEqual(
      (await read(url('?kind=health'), 2, 0)).map((m) => m.id),
      [3, 5],
    );
    assert.deepEqual(
      (await read(url('?relay=r1'), 3, 0)).map((m) => m.id),
      [1, 3, 4],
    );
    assert.deepEqual(
      (await read(url('?domain=guild'), 1, 0)).map((m) => m.id),
      [6],
    );
    // Registrations and health reports carry the operator's domain (health: read from the relay).
    assert.deepEqual(
      (await read(url('?domain=relays&kind=health&relay=r2'), 1, 0)).map((m) => m.id),
      [5],
    );
  });

  it('follows live events after the replay', async () => {
    const pending = read(url('?kind=registered'), 2, 0);
    await new Promise((r) => setTimeout(r, 100));
    s.bus.publish(health('r1', true));
    const id = s.bus.publish(registered('r2'));
    assert.deepEqual(
      (await pending).map((m) => m.id),
      [1, id],
    );
  });

  it('refuses an unknown kind with 400', async () => {
    const res = await fetch(url('?kind=votes'));
    assert.equal(res.status, 400);
    assert.equal(((await res.json()) as { code: string }).code, 'bad_request');
  });
});
