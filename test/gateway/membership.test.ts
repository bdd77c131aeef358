// Membership through a served node and its key routes: RegisterPeer
// and UnregisterPeer committed by the node change what consensus-keys, bls_keys and key-lifecycle
// report, and the validator set the pipeline hands to consensus for the next height.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BlsKeyPair, blsProvePossession } from '../../src/crypto/bls.js';
import { publicKeyToText } from '../../src/crypto/keys.js';
import { Ed25519KeyPair } from '../../src/crypto/signer.js';
import { run } from '../helpers/node.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';

describe('membership routes', () => {
  let t: ServedTestNode;
  const u = (path: string) => `${t.url}/v1/consensus${path}`;
  const json = async (path: string): Promise<{ items: Record<string, unknown>[] }> =>
    (await fetch(u(path), { headers: { accept: 'application/json' } })).json() as never;
  const code = (r: Awaited<ReturnType<typeof run>>) =>
    r.status.kind === 'Rejected' ? r.status.reason.code : r.status.kind;
  before(async () => {
    t = await startServedNode({ 'telemetry.profile': 'full' });
  });
  after(async () => t.stopAll());

  it('a registered peer is reported from the next height; unregistering disables it at once', async () => {
    const own = t.node.nodeKey.publicKeyText();
    const ownKey = t.node.validatorSet.validators[0]!.blsKey;
    const peer = Ed25519KeyPair.fromSeed(new Uint8Array(32).fill(0x77)).publicKeyText();
    const bls = BlsKeyPair.fromSeed(new Uint8Array(32).fill(0x78));
    const blsKey = publicKeyToText(bls.publicKey);
    const pop = blsProvePossession(bls);

    const bad = await run(t, t.admin, [
      { kind: 'RegisterPeer', peer, address: '127.0.0.1:1', blsKey, pop: new Uint8Array(96).fill(7) },
    ]);
    assert.equal(code(bad), 'invalid_proof_of_possession');

    const ok = await run(t, t.admin, [{ kind: 'RegisterPeer', peer, address: '127.0.0.1:1', blsKey, pop }]);
    assert.equal(code(ok), 'Committed');
    const h = ok.height!;
    const sorted = [
      { peer: own, blsKey: ownKey, from: 1 },
      { peer, blsKey, from: h + 1 },
    ].sort((a, b) => (a.peer < b.peer ? -1 : 1));
    assert.deepEqual(
      t.node.pipeline.validatorSet().validators.map((v) => v.peer),
      sorted.map((v) => v.peer),
      'the pipeline hands consensus the set of the next height',
    );
    assert.deepEqual(
      (await json('/consensus-keys')).items,
      sorted.map((v, index) => ({
        index,
        peer_id: v.peer,
        algorithm: 'bls12_381',
        public_key: v.blsKey,
        active_from_height: v.from,
      })),
    );
    assert.deepEqual(
      (await json('/bls_keys')).items,
      sorted.map((v) => ({ peer_id: v.peer, bls_key: v.blsKey, active_from_height: v.from })),
    );

    const gone = await run(t, t.admin, [{ kind: 'UnregisterPeer', peer }]);
    assert.equal(code(gone), 'Committed');
    const d = gone.height!;
    assert.deepEqual(
      (await json('/bls_keys')).items.map((k) => k.peer_id),
      [own],
    );
    const life = (await json('/key-lifecycle')).items;
    const mine = {
      peer_id: own,
      bls_key: ownKey,
      status: 'active',
      registered_height: 0,
      active_from_height: 1,
    };
    const theirs = {
      peer_id: peer,
      bls_key: blsKey,
      status: 'disabled',
      registered_height: h,
      active_from_height: h + 1,
      disabled_height: d,
    };
    assert.deepEqual(life, own < peer ? [mine, theirs] : [theirs, mine]);
    assert.deepEqual(
      t.node.pipeline.validatorSet().validators.map((v) => v.peer),
      [own],
    );

    const last = await run(t, t.admin, [{ kind: 'UnregisterPeer', peer: own }]);
    assert.equal(code(last), 'last_validator');
  });
});
