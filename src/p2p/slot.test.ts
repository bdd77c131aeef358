import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ManualClock } from '../../test/helpers/manual-clock.js';
import { Ed25519KeyPair } from '../crypto/signer.js';
import { parsePeerEntry } from './address.js';
import type { DropReason } from './drops.js';
import type { Link } from './link.js';
import { PeerSlot } from './slot.js';

// A stand-in for a Link: the slot only reads these fields and calls close/ping.
class FakeLink {
  open = true;
  closed = false;
  bytesIn = 10;
  bytesOut = 20;
  remoteRole = 'validator' as const;
  pings = 0;
  closedWith: DropReason | undefined;
  constructor(
    readonly name: string,
    readonly onClose: (l: FakeLink, r: DropReason) => void,
  ) {}
  ping() {
    this.pings++;
  }
  close(reason: DropReason) {
    if (this.closed) return;
    this.closed = true;
    this.open = false;
    this.closedWith = reason;
    this.onClose(this, reason);
  }
}

function setup() {
  const clock = new ManualClock();
  const slot = new PeerSlot(parsePeerEntry(`${Ed25519KeyPair.generate().publicKeyText()}@h:1`));
  const events: string[] = [];
  const release = (l: FakeLink, r: DropReason) => {
    if (slot.release(l as unknown as Link, r)) events.push(`down:${r}`);
  };
  const link = (name: string) => new FakeLink(name, release);
  const adopt = (l: FakeLink, keepCurrent: boolean) => {
    if (slot.adopt(l as unknown as Link, () => keepCurrent, clock, 1000)) events.push(`up:${l.name}`);
  };
  const current = () => (slot.link as unknown as FakeLink | undefined)?.name;
  return { clock, slot, events, link, adopt, current };
}

describe('p2p: PeerSlot keeps one connection per peer', () => {
  it('parks the loser, closes it after the grace period, and announces one up', () => {
    const { clock, events, link, adopt, current, slot } = setup();
    const l1 = link('l1');
    const l2 = link('l2');
    adopt(l1, false);
    adopt(l2, true);
    assert.equal(current(), 'l1');
    assert.equal(l1.pings, 1, 'the kept connection is probed');
    assert.equal(l2.closed, false, 'the loser stays open for now');
    clock.advance(999);
    assert.equal(l2.closed, false);
    clock.advance(1);
    assert.equal(l2.closedWith, 'duplicate');
    assert.equal(current(), 'l1');
    assert.deepEqual(events, ['up:l1']);
    assert.equal(slot.errors, 0);
    assert.equal(slot.lastDrop, '');
  });

  it('the parked connection takes over when the kept one ends: no down event', () => {
    const { clock, events, link, adopt, current, slot } = setup();
    const l1 = link('l1');
    const l2 = link('l2');
    adopt(l1, false);
    adopt(l2, false);
    assert.equal(current(), 'l2', 'the incoming winner replaces');
    l2.close('remote_closed');
    assert.equal(current(), 'l1', 'the parked loser takes over');
    clock.advance(5000);
    assert.equal(l1.closed, false, 'no longer parked: its timer was cancelled');
    assert.deepEqual(events, ['up:l1']);
    l1.close('idle_timeout');
    assert.deepEqual(events, ['up:l1', 'down:idle_timeout']);
    assert.equal(slot.errors, 2);
    assert.equal(slot.bytesIn, 20);
    const l3 = link('l3');
    adopt(l3, false);
    assert.deepEqual(events.at(-1), 'up:l3');
    assert.equal(slot.reconnects, 1);
  });

  it('closeAll closes the used, the parked and the dialing connection', () => {
    const { events, link, adopt, slot } = setup();
    const l1 = link('l1');
    const l2 = link('l2');
    const l3 = link('l3');
    adopt(l1, false);
    adopt(l2, true);
    slot.dialing = l3 as unknown as Link;
    slot.closeAll('stopped', 'test');
    assert.deepEqual([l1.closedWith, l2.closedWith, l3.closedWith], ['stopped', 'stopped', 'stopped']);
    assert.deepEqual(events, ['up:l1', 'down:stopped']);
    assert.equal(slot.link, undefined);
    assert.equal(slot.standby, undefined);
    assert.equal(slot.dialing, undefined);
  });
});
