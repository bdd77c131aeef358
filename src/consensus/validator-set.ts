// Validator sets: a sorted roster of peers with their BLS consensus keys. n peers
// tolerate f = floor((n-1)/3) faults; the commit quorum is the least q with 2q - n >= f + 1 (any two
// quorums share an honest validator): 2f+1 when n = 3f+1, every peer when n <= 3.

import type { Infer } from '../codec/codec.js';
import { named, seq, struct } from '../codec/compound.js';
import { encode } from '../codec/frame.js';
import { hash } from '../crypto/hash.js';
import { PeerId } from '../model/ids.js';
import { PublicKeyText, parsePublicKey } from '../model/keys.js';
import { assert } from '../util/assert.js';

export const ValidatorCodec = struct('Validator', { peer: PeerId, blsKey: PublicKeyText });
export type Validator = Infer<typeof ValidatorCodec>;
export const ValidatorListCodec = named('ValidatorList', seq(ValidatorCodec, 1024));

export class ValidatorSet {
  readonly validators: readonly Validator[];
  readonly hash: Uint8Array;
  readonly blsKeys: readonly Uint8Array[];

  constructor(validators: Validator[]) {
    // Canonical order: by peer id text, so every peer derives the same indexes and hash.
    this.validators = [...validators].sort((a, b) => (a.peer < b.peer ? -1 : a.peer > b.peer ? 1 : 0));
    // One slot per peer: a roster index names one validator (genesis and the peer table ensure it).
    for (let i = 1; i < this.validators.length; i++)
      assert(
        this.validators[i - 1]!.peer < this.validators[i]!.peer,
        `peer ${this.validators[i]!.peer} twice`,
      );
    this.hash = hash(encode(ValidatorListCodec, [...this.validators]));
    this.blsKeys = this.validators.map((v) => {
      const key = parsePublicKey(v.blsKey);
      assert(key !== undefined, `validator ${v.peer}: its consensus key does not parse`);
      return key.bytes;
    });
  }

  get size(): number {
    return this.validators.length;
  }

  /** Faults tolerated. */
  get f(): number {
    return Math.floor((this.size - 1) / 3);
  }

  /** Signatures needed to commit: ⌈(n + f + 1) / 2⌉ (2f+1 when n = 3f+1; 2f+2 when n is 3f+2 or 3f+3). */
  get quorum(): number {
    const q = this.size <= 3 ? this.size : Math.ceil((this.size + this.f + 1) / 2);
    // Two quorums intersect in at least f + 1 validators, so in at least one honest one.
    assert(
      q <= this.size && 2 * q - this.size >= this.f + 1,
      `quorum ${q} of ${this.size} does not intersect`,
    );
    return q;
  }

  indexOf(peer: string): number {
    return this.validators.findIndex((v) => v.peer === peer);
  }
}
