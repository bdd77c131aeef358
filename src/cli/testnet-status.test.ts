// The status line of `torana testnet up` and the mapping of a reported leader index to a testnet peer.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TestnetManifest, TestnetPeer } from '../node/testnet-manifest.js';
import { changeFilter, leaderPeerIndex, peerIndexOf, statusLine } from './testnet-status.js';

function peer(index: number, peerId: string, role: TestnetPeer['role'] = 'validator'): TestnetPeer {
  return { index, role, dir: `/n/peer-${index}`, gatewayUrl: '', p2pAddress: '', peerId };
}

describe('testnet status', () => {
  it('maps a leader index through the validator set order (peer id text), skipping observers', () => {
    const m: TestnetManifest = {
      chainId: 'c',
      peers: [peer(0, 'ed0120CC'), peer(1, 'ed0120AA'), peer(2, 'ed012000', 'observer'), peer(3, 'ed0120BB')],
    };
    assert.deepEqual(
      [0, 1, 2, 3].map((i) => leaderPeerIndex(m, i)),
      [1, 3, 0, undefined],
    );
    assert.equal(peerIndexOf(m, 'ed0120BB'), 3);
    assert.equal(peerIndexOf(m, 'ed0120DD'), undefined);
  });

  it('prints one cell per peer, down peers, and the leaders they report', () => {
    assert.equal(
      statusLine(12_400, [
        { index: 0, up: true, height: 41, view: 2, connected: 3, leader: 2 },
        { index: 1, up: false },
        { index: 2, up: true, height: 40, view: 2, connected: 2, leader: 2 },
      ]),
      '12s  peer-0 h=41 v=2 p=3 | peer-1 down | peer-2 h=40 v=2 p=2  leader peer-2',
    );
    assert.equal(
      statusLine(1000, [
        { index: 0, up: true, leader: 0 },
        { index: 1, up: true, leader: 1 },
      ]),
      '1s  peer-0 h=? v=? p=? | peer-1 h=? v=? p=?  leader peer-0/peer-1',
    );
    assert.equal(statusLine(0, [{ index: 0, up: false }]), '0s  peer-0 down  leader ?');
  });
});

describe('testnet up status lines', () => {
  it("prints only when the peers' statuses change", () => {
    const changed = changeFilter();
    const a = [{ index: 0, up: true, height: 4, view: 0, connected: 3 }];
    assert.equal(changed(a), true, 'the first line');
    assert.equal(changed([{ ...a[0]! }]), false, 'the same statuses again');
    assert.equal(changed([{ ...a[0]!, height: 5 }]), true, 'a new height');
    assert.equal(changed([{ index: 0, up: false }]), true, 'a peer down');
  });
});
