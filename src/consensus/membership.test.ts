import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ADMIN,
  Chain,
  expectCode,
  genesisInstructions,
  key,
  registerPeer,
  tx,
} from '../../test/fixtures/state/state-fixture.js';
import type { Instruction } from '../model/instructions.js';
import { toHex } from '../util/hex.js';
import { keyLifecycle, rosterHistory, validatorSetAt } from './membership.js';

/** A chain whose genesis registers validators `ns` (as a genesis file's transaction does). */
function chainWith(...ns: number[]): Chain {
  const c = new Chain();
  const out = c.block([tx(ADMIN, [...genesisInstructions(), ...ns.map((n) => registerPeer(n))])]);
  assert.equal(out.results[0]!.kind, 'Committed', JSON.stringify(out.results[0]));
  return c;
}

const peersAt = (c: Chain, h: number) => validatorSetAt(c.state, h).validators.map((v) => v.peer);

describe('validatorSetAt', () => {
  it('holds the genesis validators from block 1, sorted by peer id', () => {
    const c = chainWith(0x42, 0x41);
    assert.deepEqual(peersAt(c, 0), []);
    assert.deepEqual(peersAt(c, 1), [key(0x41), key(0x42)]);
    assert.deepEqual(peersAt(c, 2), [key(0x41), key(0x42)]);
    const set = validatorSetAt(c.state, 1);
    assert.equal(set.validators[0]!.blsKey, registerPeer(0x41).blsKey);
  });

  it('a key registered at h is active from h + 1', () => {
    const c = chainWith(0x41);
    expectCode(c, ADMIN, [registerPeer(0x50)], 'Committed');
    const h = c.height;
    assert.deepEqual(peersAt(c, h), [key(0x41)]);
    assert.deepEqual(peersAt(c, h + 1), [key(0x41), key(0x50)]);
    assert.deepEqual(peersAt(c, h + 100), [key(0x41), key(0x50)]);
  });

  it('unregistering at h disables the key at once, and the history stays', () => {
    const c = chainWith(0x41, 0x42);
    expectCode(c, ADMIN, [{ kind: 'UnregisterPeer', peer: key(0x41) }], 'Committed');
    const h = c.height;
    assert.deepEqual(peersAt(c, h - 1), [key(0x41), key(0x42)]);
    assert.deepEqual(peersAt(c, h), [key(0x42)]);
    assert.deepEqual(peersAt(c, h + 1), [key(0x42)]);
    assert.deepEqual(
      keyLifecycle(c.state).map((k) => [k.peerId, k.registeredAt, k.activeFrom, k.disabledAt]),
      [
        [key(0x41), 0, 1, h],
        [key(0x42), 0, 1, undefined],
      ],
    );
  });

  it('a rejected registration changes nothing', () => {
    const c = chainWith(0x41);
    const bad = { ...registerPeer(0x50), pop: registerPeer(0x51).pop };
    expectCode(c, ADMIN, [bad], 'invalid_proof_of_possession');
    assert.deepEqual(peersAt(c, c.height + 1), [key(0x41)]);
    assert.equal(keyLifecycle(c.state).length, 1);
  });
});

describe('membership determinism', () => {
  it('two ledgers that run the same blocks have the same state roots and validator sets', () => {
    const blocks: Instruction[][] = [
      [registerPeer(0x50), registerPeer(0x51)],
      [{ kind: 'UnregisterPeer', peer: key(0x41) }],
      [registerPeer(0x52)],
      [{ kind: 'UnregisterPeer', peer: key(0x51) }, registerPeer(0x53)],
    ];
    const run = () => {
      const c = chainWith(0x41);
      const trace: string[] = [];
      for (const [i, ins] of blocks.entries()) {
        const out = c.block([tx(ADMIN, ins, i + 1)]);
        assert.equal(out.results[0]!.kind, 'Committed', JSON.stringify(out.results[0]));
        trace.push(`${toHex(out.root)} ${toHex(validatorSetAt(c.state, c.height + 1).hash)}`);
      }
      return trace;
    };
    const a = run();
    const b = run();
    assert.deepEqual(a, b);
    assert.equal(new Set(a).size, a.length, 'every block changed the state root');
  });
});

describe('rosterHistory', () => {
  it('rebuilds every validator set with the first height it applies to from the peer rows alone', () => {
    const c = chainWith(0x41, 0x42);
    expectCode(c, ADMIN, [registerPeer(0x50)], 'Committed');
    const registered = c.height;
    expectCode(c, ADMIN, [{ kind: 'RegisterDomain', id: 'between', metadata: new Map() }], 'Committed');
    expectCode(c, ADMIN, [{ kind: 'UnregisterPeer', peer: key(0x41) }], 'Committed');
    const removed = c.height;
    const history = rosterHistory(c.state, c.height + 1);
    assert.deepEqual(
      history.map((e) => [e.height, e.set.validators.map((v) => v.peer)]),
      [
        [1, [key(0x41), key(0x42)]],
        [registered + 1, [key(0x41), key(0x42), key(0x50)]],
        [removed, [key(0x42), key(0x50)]],
      ],
    );
    for (const e of history) assert.equal(toHex(e.set.hash), toHex(validatorSetAt(c.state, e.height).hash));
  });
});
