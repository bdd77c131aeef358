import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createRelay, type RelayLimits, type RelayPeer } from './relay.js';

const LIMITS: RelayLimits = {
  sessionsMax: 2,
  tokenTtlMs: 60_000,
  idleMs: 300_000,
  frameBytesMax: 64,
  framesPerSecond: 2,
  frameBurst: 3,
  pendingFramesMax: 2,
};
const SID = 'A'.repeat(43);

function setup(limits: Partial<RelayLimits> = {}) {
  let t = 1_000_000;
  let n = 0;
  const relay = createRelay({
    limits: { ...LIMITS, ...limits },
    now: () => t,
    random: (len) => new Uint8Array(len).fill(++n),
  });
  const advance = (ms: number) => {
    t += ms;
  };
  return { relay, advance };
}

function peer() {
  const got: string[] = [];
  const closed: string[] = [];
  const p: RelayPeer = {
    send: (f) => void got.push(Buffer.from(f).toString()),
    close: (code, reason) => void closed.push(`${code} ${reason}`),
  };
  return { p, got, closed };
}

const bytes = (s: string) => new TextEncoder().encode(s);

describe('Connect relay', () => {
  it('gives distinct single-use tokens per role; a used token is refused the second time', () => {
    const { relay } = setup();
    const o = relay.open(SID);
    assert.ok('tokens' in o);
    assert.notEqual(o.tokens.app, o.tokens.wallet);
    assert.match(o.tokens.app, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(relay.attach(SID, 'app', o.tokens.app, peer().p), undefined);
    assert.deepEqual(relay.attach(SID, 'app', o.tokens.app, peer().p), {
      code: 'connect_token_invalid',
      reason: 'used',
    });
    assert.equal(relay.status().counters.attaches_refused, 1);
  });

  it("refuses the other role's token, a wrong or missing token, and an unknown session", () => {
    const { relay } = setup();
    const o = relay.open(SID);
    assert.ok('tokens' in o);
    assert.deepEqual(relay.attach(SID, 'wallet', o.tokens.app, peer().p), {
      code: 'connect_token_invalid',
      reason: 'wrong_role',
    });
    assert.deepEqual(relay.attach(SID, 'app', o.tokens.wallet, peer().p), {
      code: 'connect_token_invalid',
      reason: 'wrong_role',
    });
    assert.deepEqual(relay.attach(SID, 'app', 'x'.repeat(43), peer().p), {
      code: 'connect_token_invalid',
      reason: 'wrong',
    });
    assert.deepEqual(relay.attach(SID, 'app', undefined, peer().p), {
      code: 'connect_token_invalid',
      reason: 'missing',
    });
    assert.deepEqual(relay.attach('B'.repeat(43), 'app', o.tokens.app, peer().p), {
      code: 'connect_session_unknown',
    });
    // The refusals consumed nothing: the right tokens still work once.
    assert.equal(relay.attach(SID, 'wallet', o.tokens.wallet, peer().p), undefined);
    assert.equal(relay.attach(SID, 'app', o.tokens.app, peer().p), undefined);
  });

  it('expires an unused token after token_ttl_ms', () => {
    const { relay, advance } = setup();
    const o = relay.open(SID);
    assert.ok('tokens' in o);
    assert.equal(relay.attach(SID, 'app', o.tokens.app, peer().p), undefined);
    advance(60_000);
    assert.deepEqual(relay.attach(SID, 'wallet', o.tokens.wallet, peer().p), {
      code: 'connect_token_invalid',
      reason: 'expired',
    });
  });

  it('caps sessions per node and refuses a sid already open', () => {
    const { relay } = setup();
    assert.ok('tokens' in relay.open(SID));
    assert.deepEqual(relay.open(SID), { code: 'connect_session_exists' });
    assert.ok('tokens' in relay.open('B'.repeat(43)));
    assert.deepEqual(relay.open('C'.repeat(43)), { code: 'connect_sessions_full' });
    assert.equal(relay.status().counters.sessions_refused_full, 1);
    assert.equal(relay.close(SID), true);
    assert.ok('tokens' in relay.open('C'.repeat(43)));
  });

  it('relays frames as they are, holds a few for a side not yet connected, caps size and rate', () => {
    const { relay, advance } = setup();
    const o = relay.open(SID);
    assert.ok('tokens' in o);
    const app = peer();
    relay.attach(SID, 'app', o.tokens.app, app.p);
    assert.equal(relay.frame(SID, 'app', bytes('one'), false), 'held');
    assert.equal(relay.frame(SID, 'app', bytes('two'), false), 'held');
    assert.equal(relay.frame(SID, 'app', bytes('three'), false), 'dropped');
    const wallet = peer();
    relay.attach(SID, 'wallet', o.tokens.wallet, wallet.p);
    assert.deepEqual(wallet.got, ['one', 'two']);
    assert.equal(relay.frame(SID, 'wallet', bytes('hi'), true), 'relayed');
    assert.deepEqual(app.got, ['hi']);
    assert.equal(relay.frame(SID, 'wallet', new Uint8Array(65), true), 'too_large');
    // Burst of 3: 'hi' took one, two more pass, the next is over the rate until time refills it.
    assert.equal(relay.frame(SID, 'wallet', bytes('a'), true), 'relayed');
    assert.equal(relay.frame(SID, 'wallet', bytes('b'), true), 'relayed');
    assert.equal(relay.frame(SID, 'wallet', bytes('c'), true), 'rate_limited');
    advance(500);
    assert.equal(relay.frame(SID, 'wallet', bytes('d'), true), 'relayed');
    const c = relay.status().counters;
    assert.equal(c.frames_refused_size, 1);
    assert.equal(c.frames_refused_rate, 1);
    assert.equal(c.frames_relayed, 6);
    assert.equal(c.frames_dropped, 1);
  });

  it('drops a session with no socket for idle_ms, not one with a socket', () => {
    const { relay, advance } = setup();
    const o = relay.open(SID);
    assert.ok('tokens' in o);
    const other = relay.open('B'.repeat(43));
    assert.ok('tokens' in other);
    const app = peer();
    relay.attach('B'.repeat(43), 'app', other.tokens.app, app.p);
    advance(299_999);
    assert.equal(relay.sweep(), 0);
    advance(1);
    assert.equal(relay.sweep(), 1);
    assert.deepEqual(relay.status().sessions, 1);
    assert.deepEqual(relay.attach(SID, 'wallet', o.tokens.wallet, peer().p), {
      code: 'connect_session_unknown',
    });
    // The other session idles from the moment its socket left; leaving closed nothing else.
    relay.detach('B'.repeat(43), 'app', app.p);
    advance(300_000);
    assert.equal(relay.sweep(), 1);
    assert.equal(relay.status().counters.sessions_dropped_idle, 2);
  });

  it('a side leaving closes the other; DELETE closes both', () => {
    const { relay } = setup();
    const o = relay.open(SID);
    assert.ok('tokens' in o);
    const app = peer();
    const wallet = peer();
    relay.attach(SID, 'app', o.tokens.app, app.p);
    relay.attach(SID, 'wallet', o.tokens.wallet, wallet.p);
    assert.equal(relay.status().sockets, 2);
    relay.detach(SID, 'wallet', wallet.p);
    assert.deepEqual(app.closed, ['1000 peer left']);
    assert.equal(relay.frame(SID, 'app', bytes('x'), false), 'gone');
    assert.equal(relay.close(SID), true);
    assert.equal(relay.close(SID), false);
  });
});
