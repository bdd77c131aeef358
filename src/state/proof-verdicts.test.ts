import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  carriesProof,
  claimKey,
  type ProofClaim,
  ProofClaimRecorder,
  ProofVerdictCache,
} from './proof-verdicts.js';

const proof = (fill: number) => ({
  a: new Uint8Array(64).fill(fill),
  b: new Uint8Array(128).fill(fill),
  c: new Uint8Array(64).fill(fill),
});
const claim = (over: Partial<ProofClaim> = {}): ProofClaim => ({
  key: { protocol: 'groth16', nPublic: 2 },
  proof: proof(1),
  signals: [5n, 6n],
  ...over,
});

describe('proof verdict cache', () => {
  it('keys a claim by every part: the key, each public input, each proof point', () => {
    const base = claimKey(claim());
    assert.equal(claimKey(claim()), base, 'a pure function of the content');
    const p = proof(1);
    const others = [
      claim({ key: { protocol: 'groth16', nPublic: 3 } }),
      claim({ signals: [5n, 7n] }),
      claim({ signals: [6n, 5n] }),
      claim({ signals: [5n] }),
      claim({ signals: [5n, 6n, 0n] }),
      claim({ signals: [0x56n] }),
      claim({ signals: [-5n, 6n] }),
      claim({ proof: { ...p, a: p.a.map((v, i) => (i === 63 ? v ^ 1 : v)) } }),
      claim({ proof: { ...p, b: p.b.map((v, i) => (i === 0 ? v ^ 1 : v)) } }),
      claim({ proof: { ...p, c: p.c.map((v, i) => (i === 31 ? v ^ 1 : v)) } }),
    ].map(claimKey);
    assert.equal(new Set([base, ...others]).size, others.length + 1);
  });

  it('answers only what it holds, counts hits and slow verifications, and stays bounded', () => {
    const cache = new ProofVerdictCache(2);
    assert.equal(cache.verdict(claim()), undefined);
    cache.computed(claim(), false);
    assert.equal(cache.verdict(claim()), false);
    cache.add(claim({ signals: [1n, 2n] }), true);
    cache.add(claim({ signals: [3n, 4n] }), true);
    assert.equal(cache.has(claim()), false, 'the oldest is forgotten past the bound');
    assert.equal(cache.verdict(claim({ signals: [3n, 4n] })), true);
    assert.deepEqual(cache.stats(), { size: 2, hits: 2, slowVerifications: 1 });
    assert.throws(() => new ProofVerdictCache(0), RangeError);
  });

  it('the recorder answers valid and records every claim in order', () => {
    const r = new ProofClaimRecorder();
    assert.equal(r.verdict(claim()), true);
    assert.equal(r.verdict(claim({ signals: [1n, 1n] })), true);
    assert.deepEqual(
      r.claims.map((c) => c.signals),
      [
        [5n, 6n],
        [1n, 1n],
      ],
    );
  });

  it('finds a proof-shaped value anywhere in instructions, and nothing else', () => {
    assert.equal(carriesProof([{ kind: 'X', fee: { root: 'ab', proof: proof(2) } }]), true);
    assert.equal(
      carriesProof([{ kind: 'Batch', inner: [{ kind: 'Y', m: new Map([['k', proof(3)]]) }] }]),
      true,
    );
    assert.equal(carriesProof([{ kind: 'T', amount: 1n, bytes: new Uint8Array(64) }]), false);
    const wrongSize = { a: new Uint8Array(64), b: new Uint8Array(64), c: new Uint8Array(64) };
    assert.equal(carriesProof([{ kind: 'Z', p: wrongSize }]), false);
    assert.equal(carriesProof([]), false);
  });
});
