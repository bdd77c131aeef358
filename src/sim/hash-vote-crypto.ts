// VoteCrypto for the simulator: a vote "signature" is 96 bytes derived from a hash of (signer secret,
// vote message); verifying recomputes it. The secret is derived from the peer id, so this proves
// nothing against a real adversary — it stands in for BLS12-381, whose pairings are far too slow for
// thousands of seeds. A byzantine sim node signs only with its own secret (byzantine.ts keeps to that).
// An aggregate is the hash of the signers' signatures in roster order, with the signers' bitmap.

import type { Qc, VoteCrypto, VoteSubject } from '../consensus/bft/types.js';
import { signerIndexes, signersBitmap, voteMessage } from '../consensus/certificate.js';
import type { ValidatorSet } from '../consensus/validator-set.js';
import { hash } from '../crypto/hash.js';
import { bytesEqual } from '../util/hex.js';

const encoder = new TextEncoder();

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

function widen(h: Uint8Array): Uint8Array {
  return concat([h, h, h]);
}

function subjectOf(s: VoteSubject | Qc) {
  return {
    phase: typeof s.phase === 'string' ? { kind: s.phase } : s.phase,
    height: s.height,
    view: s.view,
    epoch: 0,
    blockHash: s.blockHash,
    validatorSetHash: s.validatorSetHash,
  };
}

export class HashVoteCrypto implements VoteCrypto {
  private readonly secrets = new Map<string, Uint8Array>();

  constructor(
    private readonly chainId: string,
    /** This peer's id; undefined for an observer. */
    private readonly self: string | undefined,
  ) {}

  private secret(peer: string): Uint8Array {
    let s = this.secrets.get(peer);
    if (s === undefined) {
      s = hash(encoder.encode(`torana-sim/secret|${peer}`));
      this.secrets.set(peer, s);
    }
    return s;
  }

  /** The signature of `peer` over a vote message (the byzantine wrappers sign with their own id). */
  signAs(peer: string, subject: VoteSubject | Qc): Uint8Array {
    const msg = voteMessage(this.chainId, subjectOf(subject) as Parameters<typeof voteMessage>[1]);
    return widen(hash(concat([this.secret(peer), msg])));
  }

  sign(subject: VoteSubject): Uint8Array {
    if (this.self === undefined) throw new Error('an observer has no consensus key to vote with');
    return this.signAs(this.self, subject);
  }

  verifyVote(
    subject: VoteSubject,
    signerIndex: number,
    roster: ValidatorSet,
    signature: Uint8Array,
  ): boolean {
    const v = roster.validators[signerIndex];
    return v !== undefined && bytesEqual(this.signAs(v.peer, subject), signature);
  }

  aggregate(
    subject: VoteSubject,
    votes: { index: number; signature: Uint8Array }[],
    roster: ValidatorSet,
  ): Qc {
    const sorted = [...votes].sort((a, b) => a.index - b.index);
    return {
      ...(subjectOf(subject) as Omit<Qc, 'signers' | 'signature'>),
      signers: signersBitmap(
        sorted.map((v) => v.index),
        roster.size,
      ),
      signature: widen(hash(concat(sorted.map((v) => v.signature)))),
    };
  }

  verifyQc(qc: Qc, roster: ValidatorSet) {
    if (!bytesEqual(qc.validatorSetHash, roster.hash)) return 'wrong_validator_set' as const;
    const signers = signerIndexes(qc.signers, roster.size);
    if (signers === undefined) return 'bad_bitmap' as const;
    if (signers.length < roster.quorum) return 'no_quorum' as const;
    const sigs = signers.map((i) => this.signAs(roster.validators[i]!.peer, qc));
    return bytesEqual(widen(hash(concat(sigs))), qc.signature) ? undefined : ('bad_signature' as const);
  }
}
