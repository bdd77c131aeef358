// The simulator's safety checkers over honest peers, fed as peers commit (so a violation is caught at the
// event that made it): one block per height across all peers (so every chain is a prefix of the
// longest, and a committed transaction sits in the same block everywhere), equal state roots at equal
// heights, certificates of committed blocks signed by a quorum of distinct validators and verifying, and
// a restarted peer's durable chain still matching what it had announced.

import type { Qc } from '../consensus/bft/types.js';
import { signerIndexes } from '../consensus/certificate.js';
import type { ValidatorSet } from '../consensus/validator-set.js';
import type { ExecutedBlock } from '../pipeline/executed-block.js';
import type { Ledger } from '../pipeline/ledger.js';
import { toHex } from '../util/hex.js';
import type { HashVoteCrypto } from './hash-vote-crypto.js';

interface Decided {
  hashHex: string;
  stateRootHex: string;
  by: string;
}

export class Checkers {
  private readonly decided = new Map<number, Decided>();
  failure: string | undefined;
  commits = 0;

  constructor(
    private readonly roster: ValidatorSet,
    private readonly crypto: HashVoteCrypto,
  ) {}

  private fail(what: string): void {
    this.failure ??= what;
  }

  get maxHeight(): number {
    return this.decided.size;
  }

  hashAt(height: number): string | undefined {
    return this.decided.get(height)?.hashHex;
  }

  /** An honest peer committed `executed` (own commit or block sync) under `certificate`. */
  committed(peer: string, executed: ExecutedBlock, certificate: Qc | undefined): void {
    this.commits++;
    const h = executed.header.height;
    const hashHex = toHex(executed.hash);
    const stateRootHex = toHex(executed.header.stateRoot);
    const d = this.decided.get(h);
    if (d === undefined) this.decided.set(h, { hashHex, stateRootHex, by: peer });
    else if (d.hashHex !== hashHex)
      this.fail(
        `two blocks committed at height ${h}: ${d.hashHex.slice(0, 12)} by ${d.by.slice(-6)}, ${hashHex.slice(0, 12)} by ${peer.slice(-6)}`,
      );
    else if (d.stateRootHex !== stateRootHex) this.fail(`state roots differ at height ${h}`);
    if (h > 1) this.certificate(h, executed.hash, certificate);
  }

  private certificate(height: number, hash: Uint8Array, c: Qc | undefined): void {
    if (c === undefined) {
      this.fail(`height ${height} committed without a certificate`);
      return;
    }
    const signers = signerIndexes(c.signers, this.roster.size);
    if (signers === undefined || new Set(signers).size < this.roster.quorum)
      this.fail(`certificate at height ${height} has fewer than ${this.roster.quorum} signers`);
    else if (c.phase.kind !== 'Commit' || c.height !== height || toHex(c.blockHash) !== toHex(hash))
      this.fail(`certificate at height ${height} names another subject`);
    else if (this.crypto.verifyQc(c, this.roster) !== undefined)
      this.fail(`certificate at height ${height} does not verify`);
  }

  /** A peer reopened from its disk: the tip it kept must be the block decided at that height. */
  reopened(peer: string, ledger: Ledger): void {
    const h = ledger.height();
    const d = this.decided.get(h);
    const got = toHex(ledger.tipHash());
    if (d !== undefined && got !== d.hashHex)
      this.fail(
        `${peer.slice(-6)} reopened with tip ${got.slice(0, 12)} at ${h}, decided ${d.hashHex.slice(0, 12)}`,
      );
  }
}
