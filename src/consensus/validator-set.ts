// Validator sets: a sorted roster of peers with their BLS consensus keys. n peers
// tolerate f = floor((n-1)/3) faults; the commit quorum is 2f+1 (every peer when n <= 3).

import type { Infer } from '../codec/codec.js';
import { named, seq, struct } from '../codec/compound.js';
import { encode } from '../codec/frame.js';
import { hash } from '../crypto/hash.js';
import { PeerId } from '../model/ids.js';
import { PublicKeyText, parsePublicKey } from '../model/keys.js';

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
    this.hash = hash(encode(ValidatorListCodec, [...this.validators]));
    this.blsKeys = this.validators.map((v) => parsePublicKey(v.blsKey)!.bytes);
  }

  get size(): number {
    return this.validators.length;
  }

  /** Faults tolerated. */
  get f(): number {
    return Math.floor((this.size - 1) / 3);
  }

  /** Signatures needed to commit. */
  get quorum(): number {
    return this.size <= 3 ? this.size : 2 * this.f + 1;
  }

  indexOf(peer: string): number {
    return this.validators.findIndex((v) => v.peer === peer);
  }
}
