import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StreamEvent } from '../../gateway/sse-frame.js';
import { RECORD_CHARGE_BYTES, SignalBox, type SignalLimits } from './signal-box.js';

const LIMITS: SignalLimits = {
  offersPerCallMax: 2,
  answersPerCallMax: 2,
  envelopeBytesMax: 100,
  ttlMs: 1000,
  bytesMax: 4 * (RECORD_CHARGE_BYTES + 10),
  answerBytesMax: 4 * (RECORD_CHARGE_BYTES + 10),
  hostBytesMax: 1 << 20,
  hostRecordsMax: 1024,
};
const cost = RECORD_CHARGE_BYTES + 10;
const env = (n = 10, fill = 1) => new Uint8Array(n).fill(fill);
const all = () => true;

function box(limits = LIMITS) {
  const clock = { t: 1_000 };
  return { clock, box: new SignalBox(limits, () => clock.t) };
}

describe('signal box', () => {
  it('stores offers per participant, replaces a re-posted one, and gives increasing ids', () => {
    const { box: b, clock } = box();
    const first = b.postOffers('d:c', 'host', [{ to: 'p1', envelope: env(10, 1) }]);
    assert.ok(first.ok);
    clock.t += 1;
    const again = b.postOffers('d:c', 'host', [{ to: 'p1', envelope: env(10, 2) }]);
    assert.ok(again.ok);
    assert.ok(again.records[0]!.id > first.records[0]!.id);
    assert.equal(b.offer('d:c', 'p1')?.envelope[0], 2);
    assert.equal(b.size, 1);
    assert.equal(b.storedBytes, 10 + RECORD_CHARGE_BYTES);
    assert.equal(b.offer('d:c', 'p2'), undefined);
    assert.equal(b.offer('d:other', 'p1'), undefined);
  });

  it('refuses offers over the per-call bound, all or nothing', () => {
    const { box: b } = box();
    const r = b.postOffers(
      'd:c',
      'host',
      ['p1', 'p2', 'p3'].map((to) => ({ to, envelope: env() })),
    );
    assert.deepEqual(r, { ok: false, code: 'conference_signal_offers_full', limit: 2, count: 3 });
    assert.equal(b.size, 0);
    assert.ok(b.postOffers('d:c', 'host', [{ to: 'p1', envelope: env() }]).ok);
    assert.ok(
      b.postOffers('d:c', 'host', [
        { to: 'p1', envelope: env() },
        { to: 'p2', envelope: env() },
      ]).ok,
    );
  });

  it('refuses offers over the byte bound; answers never evict offers', () => {
    const { box: b } = box();
    for (const call of ['d:a', 'd:b'])
      assert.ok(
        b.postOffers(call, 'h', [
          { to: 'p1', envelope: env() },
          { to: 'p2', envelope: env() },
        ]).ok,
      );
    const full = b.postOffers('d:c', 'h2', [{ to: 'p1', envelope: env() }]);
    assert.equal(full.ok, false);
    assert.equal(!full.ok && full.code, 'conference_signal_store_full');
    // The answer budget is apart: the offers' being full neither refuses the answer nor loses an offer.
    const a = b.addAnswer({ callId: 'd:c', from: 'p1', to: 'h2', envelope: env(), height: 5 });
    assert.ok(a !== undefined);
    for (const call of ['d:a', 'd:b'])
      for (const to of ['p1', 'p2']) assert.ok(b.offer(call, to) !== undefined, `${call} ${to} kept`);
    assert.equal(b.storedBytes, LIMITS.bytesMax + cost);
  });

  it("answers over their budget evict only their own call's oldest answers, or are not kept", () => {
    const { box: b } = box({ ...LIMITS, answersPerCallMax: 10, answerBytesMax: 3 * cost });
    assert.ok(b.postOffers('d:a', 'h', [{ to: 'p1', envelope: env() }]).ok);
    for (const from of ['p1', 'p2']) b.addAnswer({ callId: 'd:a', from, to: 'h', envelope: env() });
    b.addAnswer({ callId: 'd:b', from: 'q1', to: 'h', envelope: env() });
    // Full: a new answer of d:b pushes out d:b's oldest answer, not d:a's.
    assert.ok(b.addAnswer({ callId: 'd:b', from: 'q2', to: 'h', envelope: env() }) !== undefined);
    const froms = (call: string) => b.signals(call, 0, all).map((r) => `${r.kind}:${r.from}`);
    assert.deepEqual(froms('d:a'), ['offer:h', 'answer:p1', 'answer:p2']);
    assert.deepEqual(froms('d:b'), ['answer:q2']);
    // d:c has no answer to give up: its answer is not kept, and nothing else is lost.
    assert.equal(b.addAnswer({ callId: 'd:c', from: 'r1', to: 'h', envelope: env() }), undefined);
    assert.deepEqual(froms('d:c'), []);
    assert.deepEqual(froms('d:a'), ['offer:h', 'answer:p1', 'answer:p2']);
    assert.deepEqual(froms('d:b'), ['answer:q2']);
  });

  it('holds each host to its quota of offer bytes and records over all its calls', () => {
    const limits = { ...LIMITS, bytesMax: 1 << 20, offersPerCallMax: 10, hostBytesMax: 3 * cost };
    const { box: b, clock } = box({ ...limits, hostRecordsMax: 1000 });
    const offers = (...to: string[]) => to.map((t) => ({ to: t, envelope: env() }));
    assert.ok(b.postOffers('d:a', 'h', offers('p1', 'p2')).ok);
    clock.t += 100;
    assert.ok(b.postOffers('d:b', 'h', offers('p1')).ok);
    const over = b.postOffers('d:c', 'h', offers('p1'));
    assert.deepEqual(over, {
      ok: false,
      code: 'conference_signal_host_quota_exceeded',
      quota: 'bytes',
      limit: 3 * cost,
      wanted: 4 * cost,
      retryAfterMs: 900, // d:a's offers, posted 100 ms ago with a TTL of 1000 ms
    });
    assert.deepEqual(b.hostUsage('h'), { bytes: 3 * cost, records: 3 });
    assert.ok(b.postOffers('d:a', 'h', offers('p2')).ok, 'a replacement takes no more quota');
    assert.ok(b.postOffers('d:c', 'h2', offers('p1', 'p2', 'p3')).ok, 'another host has its own quota');
    b.dropCall('d:a');
    assert.ok(b.postOffers('d:c', 'h', offers('p1', 'p2')).ok, 'an ended call gives its quota back');
    clock.t += 1000;
    assert.deepEqual(b.hostUsage('h'), { bytes: 0, records: 0 }, 'expired offers give it back too');
    const { box: counted } = box({ ...limits, hostRecordsMax: 2 });
    assert.ok(counted.postOffers('d:a', 'h', offers('p1')).ok);
    const records = counted.postOffers('d:b', 'h', offers('p1', 'p2'));
    assert.equal(
      !records.ok && records.code === 'conference_signal_host_quota_exceeded' && records.quota,
      'records',
    );
    assert.equal(counted.size, 1);
  });

  it('keeps at most answersPerCallMax answers per call', () => {
    const { box: b } = box();
    for (const from of ['p1', 'p2', 'p3']) b.addAnswer({ callId: 'd:c', from, to: 'h', envelope: env() });
    assert.deepEqual(
      b.signals('d:c', 0, all).map((r) => r.from),
      ['p2', 'p3'],
    );
  });

  it('expires records after the TTL', () => {
    const { box: b, clock } = box();
    assert.ok(b.postOffers('d:c', 'h', [{ to: 'p1', envelope: env() }]).ok);
    clock.t += 999;
    assert.ok(b.offer('d:c', 'p1') !== undefined);
    clock.t += 1;
    assert.equal(b.offer('d:c', 'p1'), undefined);
    assert.equal(b.storedBytes, 0);
  });

  it('lists signals after a cursor, filtered by visibility, and feeds live ones', () => {
    const { box: b, clock } = box({ ...LIMITS, bytesMax: 1_000_000, offersPerCallMax: 10 });
    const posted = b.postOffers('d:c', 'h', [
      { to: 'p1', envelope: env() },
      { to: 'p2', envelope: env() },
    ]);
    assert.ok(posted.ok);
    const firstId = posted.records[0]!.id;
    const toP1 = (r: { to: string; from: string }) => r.to === 'p1' || r.from === 'p1';
    assert.deepEqual(
      b.signals('d:c', 0, toP1).map((r) => r.to),
      ['p1'],
    );
    assert.deepEqual(
      b.signals('d:c', firstId, all).map((r) => r.to),
      ['p2'],
    );
    const seen: StreamEvent[] = [];
    const feed = b.feed('d:c', toP1, (r) => ({ id: r.id, name: r.kind, data: r.from }));
    assert.equal(feed.since(0).length, 1);
    const stop = feed.subscribe((b) => seen.push(...b.events));
    clock.t += 1;
    b.addAnswer({ callId: 'd:c', from: 'p2', to: 'h', envelope: env() });
    b.addAnswer({ callId: 'd:c', from: 'p1', to: 'h', envelope: env() });
    b.addAnswer({ callId: 'd:x', from: 'p1', to: 'h', envelope: env() });
    stop();
    b.addAnswer({ callId: 'd:c', from: 'p1', to: 'h', envelope: env() });
    assert.deepEqual(
      seen.map((e) => [e.name, e.data]),
      [['answer', 'p1']],
    );
    b.dropCall('d:c');
    assert.deepEqual(b.signals('d:c', 0, all), []);
  });
});
