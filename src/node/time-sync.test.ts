// Clock offsets as NTP measures them, between samplers wired back to back with injected clocks (no real
// waiting): a peer whose clock is 500 ms ahead is reported 500 ms ahead, through the time routes' answers
// too; an asymmetric path errs by half the asymmetry, as NTP does; the median outvotes one lying peer;
// fewer samples than the minimum give the documented fallback; unasked answers are refused.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ManualClock } from '../../test/helpers/manual-clock.js';
import { timeNowOf, timeStatusOf } from '../gateway/routes/time.js';
import type { Clock } from '../util/clock.js';
import { isTimeMessage, MIN_SAMPLES, ntpSample, TimeSync } from './time-sync.js';

/** `base` read `skewMs` ahead: a peer's clock. */
function skewed(base: ManualClock, skewMs: number): Clock {
  return {
    nowMs: () => base.nowMs() + skewMs,
    monotonicMs: () => base.monotonicMs(),
    setTimeout: (fn, ms) => base.setTimeout(fn, ms),
  };
}

/**
 * This node ("self") and peers with the given skews, on one shared timeline: a message to a peer
 * takes `outMs`, its answer `backMs`; `round()` runs one request/answer per peer.
 */
function network(skews: Record<string, number>, outMs = 10, backMs = 10) {
  const time = new ManualClock();
  const inbox: { to: string; from: string; bytes: Uint8Array }[] = [];
  const names = Object.keys(skews);
  const syncs = new Map<string, TimeSync>();
  const make = (name: string, clock: Clock, connected: string[]) =>
    new TimeSync({
      clock,
      connected: () => connected,
      send: (to, bytes) => inbox.push({ to, from: name, bytes }),
    });
  const self = make('self', time, names);
  for (const n of names) syncs.set(n, make(n, skewed(time, skews[n]!), ['self']));
  const deliver = (ms: number) => {
    time.advance(ms);
    for (const m of inbox.splice(0)) (m.to === 'self' ? self : syncs.get(m.to)!).onMessage(m.from, m.bytes);
  };
  return {
    self,
    time,
    /** One sample interval later, one request/answer with each peer. */
    round() {
      time.advance(2_000);
      self.sample();
      deliver(outMs);
      deliver(backMs);
    },
  };
}

describe('time sync', () => {
  it('computes offset and delay as NTP does', () => {
    // The peer is 500 ahead; 10 out, 2 in the peer, 30 back.
    assert.deepEqual(ntpSample(1000, 1510, 1512, 1042), { offsetMs: 490, delayMs: 40 });
  });

  it('reports a peer 500 ms ahead as +500, in /v1/time/now and /v1/time/status', () => {
    const n = network({ a: 500 });
    for (let i = 0; i < MIN_SAMPLES; i++) n.round();
    const r = n.self.report();
    assert.deepEqual([r.peers, r.samples, r.offsetMs, r.confidenceMs, r.fallback], [1, 3, 500, 10, false]);
    const now = timeNowOf(r, n.time.nowMs(), 1_000);
    assert.equal(now.now, n.time.nowMs() + 500, 'now is this clock corrected by the offset');
    assert.deepEqual([now.offsetMs, now.sampleCount, now.fallback], [500, 3, false]);
    assert.deepEqual(now.health, { healthy: true, minSamplesOk: true, offsetOk: true, confidenceOk: true });
    const st = timeStatusOf(r, 1_000);
    assert.deepEqual(st.samples, [{ peer: 'a', lastOffsetMs: 500, lastRttMs: 20, count: 3 }]);
    assert.deepEqual(
      st.rttHistogram.filter((b) => b.leMs <= 50),
      [
        { leMs: 1, count: 0 },
        { leMs: 5, count: 0 },
        { leMs: 10, count: 0 },
        { leMs: 50, count: 3 },
      ],
    );
    // Beyond the chain's max_clock_drift_ms (here 400): unhealthy, said so.
    assert.deepEqual(timeNowOf(r, n.time.nowMs(), 400).health, {
      healthy: false,
      minSamplesOk: true,
      offsetOk: false,
      confidenceOk: true,
    });
  });

  it('errs by half an asymmetric path; the least-delay sample of the window is used', () => {
    const n = network({ a: 500 }, 10, 30);
    for (let i = 0; i < MIN_SAMPLES; i++) n.round();
    assert.equal(n.self.report().offsetMs, 490);
    assert.equal(n.self.report().confidenceMs, 20);
  });

  it('takes the median over peers: one lying peer does not move it', () => {
    const n = network({ a: 200, b: 210, c: 60_000 });
    n.round();
    const r = n.self.report();
    assert.equal(r.offsetMs, 210);
    assert.equal(r.perPeer.length, 3);
  });

  it('falls back below the minimum of samples: offset 0, this clock', () => {
    const n = network({ a: 500 });
    n.round();
    const r = n.self.report();
    assert.deepEqual([r.samples, r.offsetMs, r.fallback], [1, 0, true]);
    const now = timeNowOf(r, n.time.nowMs(), 1_000);
    assert.equal(now.now, n.time.nowMs());
    assert.equal(now.health.minSamplesOk, false);
    assert.equal(timeStatusOf(r, 1_000).samplesUsed, 0);
  });

  it('refuses answers it did not ask for, and requests too close together', () => {
    const time = new ManualClock();
    const sent: Uint8Array[] = [];
    const s = new TimeSync({ clock: time, connected: () => ['p'], send: (_, b) => sent.push(b) });
    const answer = Uint8Array.of(0x54, 0x52, 0x54, 0x53, 2, ...new Uint8Array(24));
    assert.ok(isTimeMessage(answer));
    s.onMessage('p', answer);
    assert.equal(s.refused, 1);
    assert.equal(s.report().samples, 0);
    const request = Uint8Array.of(0x54, 0x52, 0x54, 0x53, 1, ...new Uint8Array(8));
    s.onMessage('p', request);
    s.onMessage('p', request);
    assert.equal(sent.length, 1, 'one answer');
    assert.equal(s.refused, 2);
  });

  it('samples every interval on its clock once started', () => {
    const time = new ManualClock();
    const sent: string[] = [];
    const s = new TimeSync({ clock: time, connected: () => ['p', 'q'], send: (to) => sent.push(to) });
    s.start();
    time.advance(2_000);
    assert.deepEqual(sent, ['p', 'q']);
    time.advance(2_000);
    assert.equal(sent.length, 4);
    s.stop();
    time.advance(10_000);
    assert.equal(sent.length, 4);
  });
});
