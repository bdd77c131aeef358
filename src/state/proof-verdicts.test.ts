import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  claimKey,
  claimsOf,
  type ProofClaim,
  ProofClaimRecorder,
  ProofVerdictCache,
  type ProofVerdicts,
  proofCount,
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

  it('the recorder answers the known claims valid and stops at the first new one', () => {
    const r = new ProofClaimRecorder([claim()]);
    assert.equal(r.verdict(claim()), true);
    assert.equal(r.verdict(claim({ signals: [1n, 1n] })), false);
    assert.equal(r.verdict(claim({ signals: [2n, 2n] })), false);
    assert.deepEqual(r.next?.signals, [1n, 1n]);
  });

  it('learns a run’s claims one run each, never running past the last one it was told of', () => {
    // A "transaction" checking three proofs in order, then doing costly work after the last.
    const checks = [claim(), claim({ signals: [1n, 1n] }), claim({ signals: [2n, 2n] })];
    let runs = 0;
    let pastTheLast = 0;
    const run = (port: ProofVerdicts) => {
      runs++;
      for (const c of checks) if (!port.verdict(c)) return;
      pastTheLast++;
    };
    const learnt = claimsOf(3, run);
    assert.deepEqual(learnt.map(claimKey), checks.map(claimKey));
    assert.equal(runs, 3);
    assert.equal(pastTheLast, 0, 'no run went past its last proof');
    assert.equal(claimsOf(5, run).length, 3, 'a run that meets no new claim ends the search');
    assert.equal(claimsOf(1, run).length, 1, 'at most the limit');
  });

  it('counts the proof-shaped values anywhere in instructions, and nothing else', () => {
    assert.equal(proofCount([{ kind: 'X', fee: { root: 'ab', proof: proof(2) }, p: proof(3) }]), 2);
    assert.equal(proofCount([{ kind: 'Batch', inner: [{ kind: 'Y', m: new Map([['k', proof(3)]]) }] }]), 1);
    assert.equal(proofCount([{ kind: 'T', amount: 1n, bytes: new Uint8Array(64) }]), 0);
    const wrongSize = { a: new Uint8Array(64), b: new Uint8Array(64), c: new Uint8Array(64) };
    assert.equal(proofCount([{ kind: 'Z', p: wrongSize }]), 0);
    assert.equal(proofCount([]), 0);
  });
});
