import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ed25519KeyPair } from '../crypto/signer.js';
import type { Peer } from '../model/entities.js';
import { activePeersAt, admittedPeers, followMembership } from './admission.js';

const id = (n: number) => Ed25519KeyPair.fromSeed(new Uint8Array(32).fill(n)).publicKeyText();
const [self, a, b, c] = [id(1), id(2), id(3), id(4)];

function row(peer: string, registeredAt: number, disabledAt?: number): Peer {
  return {
    id: peer,
    address: `10.0.0.${registeredAt}:7000`,
    blsKey: 'unused',
    registeredAt,
    activeFrom: registeredAt + 1,
    ...(disabledAt === undefined ? {} : { disabledAt }),
  };
}

describe('admittedPeers', () => {
  it('adds registered peers the configuration does not list, sorted, without itself', () => {
    const list = admittedPeers(
      [`${a}@127.0.0.1:1`],
      [
        { id: c, address: 'h3:3' },
        { id: a, address: 'elsewhere:9' },
        { id: self, address: 'me:1' },
        { id: b, address: 'not an address' },
      ],
      self,
    );
    assert.deepEqual(list, [`${a}@127.0.0.1:1`, ...[`${c}@h3:3`, b].sort()]);
  });

  it('leaves out registered ids that are not Ed25519 keys', () => {
    assert.deepEqual(admittedPeers([], [{ id: 'ea0130zz', address: 'h:1' }], self), []);
  });
});

describe('followMembership', () => {
  it('admits a peer from the height it becomes active and drops it when unregistered', () => {
    const rows: Peer[] = [row(a, 0)];
    let height = 1;
    const lists: string[][] = [];
    let commit = () => {};
    followMembership({
      network: { selfId: self, setPeers: (p) => lists.push([...p]) },
      configured: [`${a}@127.0.0.1:1`],
      state: { listPeers: () => rows },
      height: () => height,
      onCommit: (l) => {
        commit = l;
      },
    });
    assert.deepEqual(lists, [[`${a}@127.0.0.1:1`]]);
    rows.push(row(b, 2));
    height = 2;
    commit();
    assert.deepEqual(lists.at(-1), [`${a}@127.0.0.1:1`, `${b}@10.0.0.2:7000`], 'active at 3');
    height = 3;
    commit();
    assert.equal(lists.length, 2, 'an unchanged list is not set again');
    rows[1] = row(b, 2, 4);
    rows[0] = row(a, 0, 4);
    height = 4;
    commit();
    assert.deepEqual(lists.at(-1), [`${a}@127.0.0.1:1`], 'b dropped; a stays: configured');
  });

  it('activePeersAt follows the key lifecycle', () => {
    const state = { listPeers: () => [row(a, 0), row(b, 5), row(c, 0, 3)] };
    assert.deepEqual(
      activePeersAt(state, 3).map((p) => p.id),
      [a],
    );
    assert.deepEqual(
      activePeersAt(state, 6).map((p) => p.id),
      [a, b],
    );
  });
});
