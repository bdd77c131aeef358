// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../modules/registry.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodePeerMessage } from '../consensus/bft/messages.js';
import type { EvidenceEntry } from '../consensus/evidence-store.js';
import { ValidatorSet } from '../consensus/validator-set.js';
import { BlsKeyPair } from '../crypto/bls.js';
import { publicKeyToText } from '../crypto/keys.js';
import { Ed25519KeyPair } from '../crypto/signer.js';
import type { MessageHandler } from '../p2p/types.js';
import { toHex } from '../util/hex.js';
import { recordEvidence, routeToEngine } from './bft.js';

/** Validators are named by their peer (Ed25519) key; the set orders them by it. */
const peer = (seed: number) => Ed25519KeyPair.fromSeed(new Uint8Array(32).fill(seed)).publicKeyText();
const [a, b, c, d, e] = [1, 2, 3, 4, 5].map(peer) as [string, string, string, string, string];

function validator(id: string, seed: number) {
  return { peer: id, blsKey: publicKeyToText(BlsKeyPair.fromSeed(new Uint8Array(32).fill(seed)).publicKey) };
}

describe('routeToEngine', () => {
  it('hands consensus messages to the engine and keeps the messages a module claims from it', () => {
    const handlers: MessageHandler[] = [];
    const seen: string[] = [];
    // A module's claim by magic (descriptor `peerMessages`), as modules/load.ts `modulePeerMessage` gives it.
    const magic = new TextEncoder().encode('MODX');
    const claimed = (b: Uint8Array) => b.length >= 4 && magic.every((x, i) => b[i] === x);
    routeToEngine(
      { onMessage: (fn) => handlers.push(fn) },
      { onMessage: (from, bytes) => seen.push(`${from}:${bytes.length}`) },
      claimed,
    );
    const tip = encodePeerMessage({ kind: 'Tip', height: 7 });
    const own = new Uint8Array([...magic, 1, 2, 3]);
    for (const h of handlers) {
      void h('a', tip);
      void h('b', own);
    }
    assert.deepEqual(seen, [`a:${tip.length}`]);
  });
});

describe('recordEvidence', () => {
  it('records a finding against the validator set of its height, not the set in force when it runs', () => {
    // Height 1..9: a, b, c, d. From height 10 `a` left and `e` joined: the indexes name others.
    const before = new ValidatorSet([validator(a, 1), validator(b, 2), validator(c, 3), validator(d, 4)]);
    const after = new ValidatorSet([validator(b, 2), validator(c, 3), validator(d, 4), validator(e, 5)]);
    const history = [
      { height: 1, set: before },
      { height: 10, set: after },
    ];
    const recorded: EvidenceEntry[] = [];
    const deps = {
      chainId: 'torana-test',
      // The effect runs after the roster change: the host's set is the new one.
      host: { validatorSet: () => after, height: () => 10 },
      clock: { nowMs: () => 1_700_000_000_000 },
      evidence: {
        add: (entry: EvidenceEntry) => {
          recorded.push(entry);
          return 'accepted' as const;
        },
      },
      history,
    };
    const offence = {
      kind: 'InvalidProposal' as const,
      view: 0,
      proposer: a,
      blockHash: new Uint8Array(32).fill(7),
      reason: 'wrong leader',
    };
    recordEvidence(deps, { ...offence, height: 9 });
    recordEvidence(deps, { ...offence, proposer: e, height: 10 });
    const [old, current] = recorded.map((r) => r.evidence);
    assert.ok(old?.kind === 'InvalidProposal' && current?.kind === 'InvalidProposal');
    assert.equal(toHex(old.validatorSetHash), toHex(before.hash));
    assert.equal(before.validators[old.proposerIndex]?.peer, a);
    assert.equal(toHex(current.validatorSetHash), toHex(after.hash));
    assert.equal(after.validators[current.proposerIndex]?.peer, e);
    console.log(
      `height 9 → set ${toHex(old.validatorSetHash).slice(0, 12)} index ${old.proposerIndex} (a); height 10 → set ${toHex(current.validatorSetHash).slice(0, 12)} index ${current.proposerIndex} (e)`,
    );
  });
});
