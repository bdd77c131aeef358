// Private conferences end to end through the executor with real proofs from the SDK prover and the
// committed development keys (docs/conference.md "Private rosters", "Shielded fee"): shield, a
// private create and join paying exactly the fee, leave, private usage; forged proofs, proofs for
// another call, reused nullifiers, shortfalls, double spends, unknown roots and missing keys are
// each rejected with their code and change nothing; replaying the blocks gives the same state root.
// Proves seven times in all (once per distinct proof); every rejection reuses one of them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assetId } from '../../src/model/ids.js';
import type { Instruction } from '../../src/model/instructions.js';
import type { SignedTransaction } from '../../src/model/transaction.js';
import { getCall } from '../../src/modules/conference/rows.js';
import {
  createFeeBind,
  joinBindFor,
  type NoteSpendValue,
  noteOwnerHash,
  proveNoteSpend,
  proveRoster,
  proveUsage,
  type RosterProofValue,
  releaseProver,
  rosterCommitment,
} from '../../src/modules/conference/sdk-zk.js';
import { WorldState } from '../../src/state/world-state.js';
import { toHex } from '../../src/util/hex.js';
import { fieldFromHex, fieldToHex } from '../../src/zk/field.js';
import {
  CALL,
  conferenceWorld,
  create,
  expectRejected,
  manifest,
} from '../fixtures/state/conference-fixture.js';
import {
  ADMIN,
  ALICE,
  acc,
  amount,
  BOB,
  CAROL,
  type Chain,
  expectCode,
  outcome,
  ROSE,
  tx,
} from '../fixtures/state/state-fixture.js';
import { devZkParameters } from '../helpers/zk.js';

const POOL = acc(9);
const TREASURY = acc(10);
const SECRETS = [101n, 202n, 303n];
const ROSTER = SECRETS.map(rosterCommitment);
const BIG = { value: 1000n, secret: 7n, blinding: 8n };
const SMALL = { value: 100n, secret: 9n, blinding: 10n };
const CHANGE = { secret: 11n, blinding: 12n };

const rosterProof = (p: RosterProofValue, withJoin = false) => ({
  nullifier: fieldToHex(p.nullifier),
  proof: p.proof,
  ...(withJoin && p.joinNullifier !== undefined ? { joinNullifier: fieldToHex(p.joinNullifier) } : {}),
});
const privateLeave = (p: RosterProofValue, withJoin = true): Instruction => ({
  kind: 'LeaveConference',
  call: CALL,
  private: rosterProof(p, withJoin),
});
const noteSpend = (s: NoteSpendValue) => ({
  root: fieldToHex(s.root),
  nullifier: fieldToHex(s.nullifier),
  changeCommitment: fieldToHex(s.changeCommitment),
  proof: s.proof,
});

/** Runs and records every transaction so the test can replay them into a fresh chain. */
class Recorded {
  readonly log: ([string, Instruction[]] | SignedTransaction[])[] = [];
  constructor(readonly chain: Chain) {}
  ok(authority: string, instructions: Instruction[]): void {
    expectCode(this.chain, authority, instructions, 'Committed');
    this.log.push([authority, instructions]);
  }
  rejected(authority: string, instructions: Instruction[], code: string): void {
    expectRejected(this.chain, authority, instructions, code);
    this.log.push([authority, instructions]);
  }
  /** Several transactions of one authority in one block; their outcomes. */
  sameBlock(authority: string, batches: Instruction[][]): string[] {
    const txs = batches.map((ins, i) => tx(authority, ins, this.chain.height * 10 + i));
    this.log.push(txs);
    return this.chain.block(txs).results.map(outcome);
  }
  replay(into: Recorded): void {
    for (const entry of this.log) {
      if (typeof entry[0] === 'string') into.chain.run(entry[0], entry[1] as Instruction[]);
      else into.chain.block(entry as SignedTransaction[]);
    }
  }
  leaves(): bigint[] {
    return this.chain.state.shieldedPool().leaves.map((h) => fieldFromHex(h)!);
  }
  balance(account: string): bigint {
    return this.chain.state.asset(assetId(ROSE, account))?.value.mantissa ?? 0n;
  }
}

const privateCreate = (fee?: ReturnType<typeof noteSpend>): Instruction =>
  create(BOB, {
    privacy: { kind: 'ZkRosterV1' },
    rosterCommitments: ROSTER.map(fieldToHex),
    manifest: manifest(),
    fee,
  });
const privateJoin = (p: RosterProofValue, fee?: ReturnType<typeof noteSpend>, call = CALL): Instruction => ({
  kind: 'JoinConference',
  call,
  private: rosterProof(p),
  ...(fee === undefined ? {} : { fee }),
});

describe('private conferences with real proofs', () => {
  let r: Recorded;
  let genesisLog: number;
  let join: RosterProofValue;
  before(() => {
    r = new Recorded(conferenceWorld());
    genesisLog = r.chain.height;
  });
  after(releaseProver);

  it('without verifying keys a private create is rejected (zk_keys_not_configured)', () => {
    r.ok(ADMIN, [
      { kind: 'RegisterAccount', id: POOL, metadata: new Map() },
      { kind: 'RegisterAccount', id: TREASURY, metadata: new Map() },
    ]);
    r.rejected(BOB, [privateCreate()], 'zk_keys_not_configured');
    const shield = { kind: 'ShieldAsset', amount: amount('1'), ownerHash: fieldToHex(1n) } as const;
    r.rejected(BOB, [shield], 'zk_keys_not_configured');
    r.ok(ADMIN, devZkParameters({ pool: POOL, fee: '2.50', treasury: TREASURY }));
  });

  it('shields native asset into notes; the pool account holds their value', () => {
    r.ok(BOB, [
      {
        kind: 'ShieldAsset',
        amount: amount('10.00'),
        ownerHash: fieldToHex(noteOwnerHash(BIG.secret, BIG.blinding)),
      },
    ]);
    r.ok(BOB, [
      {
        kind: 'ShieldAsset',
        amount: amount('1'),
        ownerHash: fieldToHex(noteOwnerHash(SMALL.secret, SMALL.blinding)),
      },
    ]);
    assert.equal(r.balance(POOL), 1100n);
    assert.equal(r.balance(BOB), 10_000n - 1100n);
    assert.equal(r.leaves().length, 2);
    // The pool is locked: no ordinary debit, by the pool or the Admin, and it cannot be replaced.
    const poolAsset = assetId(ROSE, POOL);
    const out = { kind: 'TransferAsset', source: poolAsset, destination: BOB, amount: amount('1') } as const;
    r.rejected(POOL, [out], 'shielded_pool_locked');
    r.rejected(ADMIN, [out], 'shielded_pool_locked');
    r.rejected(ADMIN, [{ kind: 'BurnAsset', asset: poolAsset, amount: amount('1') }], 'shielded_pool_locked');
    r.rejected(
      ADMIN,
      [
        {
          kind: 'SetParameter',
          parameter: { kind: 'Custom', id: 'shielded_pool_account', payload: TREASURY },
        },
      ],
      'shielded_pool_locked',
    );
    assert.equal(r.balance(POOL), 1100n);
    r.rejected(
      BOB,
      [{ kind: 'ShieldAsset', amount: amount('0.001'), ownerHash: fieldToHex(1n) }],
      'invalid_amount',
    );
    r.rejected(
      POOL,
      [{ kind: 'ShieldAsset', amount: amount('1'), ownerHash: fieldToHex(1n) }],
      'invalid_amount',
    );
  });

  it('a private create without a fee spend is insufficient_shielded_value; with one it pays exactly the fee', async () => {
    r.rejected(BOB, [privateCreate()], 'insufficient_shielded_value');
    const spend = await proveNoteSpend({
      note: BIG,
      poolLeaves: r.leaves(),
      fee: 250n,
      bind: createFeeBind(CALL, BOB),
      change: CHANGE,
    });
    // Bound to BOB: the same spend cannot pay for ALICE's call of the same id.
    r.rejected(
      ALICE,
      [
        create(ALICE, {
          privacy: { kind: 'ZkRosterV1' },
          rosterCommitments: ROSTER.map(fieldToHex),
          fee: noteSpend(spend),
        }),
      ],
      'zk_proof_invalid',
    );
    r.rejected(BOB, [privateCreate({ ...noteSpend(spend), root: fieldToHex(5n) })], 'unknown_root');
    const bobBefore = r.balance(BOB);
    r.ok(BOB, [privateCreate(noteSpend(spend))]);
    assert.equal(r.balance(POOL), 1100n - 250n);
    assert.equal(r.balance(TREASURY), 250n, 'the treasury received exactly the fee');
    assert.equal(r.balance(BOB), bobBefore, 'not the creator’s own billing account');
    assert.equal(r.leaves().length, 3, 'the change note joined the pool');
    const call = getCall(r.chain.state, CALL)!;
    assert.equal(call.roster.kind, 'ZkRosterV1');
    // The note cannot be spent twice: a fresh, valid proof of the same note hits its nullifier.
    const again = await proveNoteSpend({
      note: BIG,
      poolLeaves: r.leaves(),
      fee: 250n,
      bind: createFeeBind('wonderland:other', BOB),
      change: CHANGE,
    });
    const other = {
      ...(privateCreate(noteSpend(again)) as Extract<Instruction, { kind: 'CreateConference' }>),
      call: 'wonderland:other',
    };
    r.rejected(BOB, [other], 'nullifier_reused');
  });

  it('joins privately with a roster proof and the change note; replays and forgeries are rejected', async () => {
    join = await proveRoster({
      callId: CALL,
      secret: SECRETS[0]!,
      roster: ROSTER,
      action: 'join',
      sender: ALICE,
    });
    const changeNote = { value: 750n, ...CHANGE };
    const fee = await proveNoteSpend({
      note: changeNote,
      poolLeaves: r.leaves(),
      fee: 250n,
      bind: joinBindFor(CALL, join),
      change: { secret: 13n, blinding: 14n },
    });
    // A shortfall: the small note cannot pay 2.50, the SDK refuses to prove, and a join without a spend changes nothing.
    await assert.rejects(
      proveNoteSpend({
        note: SMALL,
        poolLeaves: r.leaves(),
        fee: 250n,
        bind: joinBindFor(CALL, join),
        change: CHANGE,
      }),
      /insufficient shielded value/,
    );
    r.rejected(ALICE, [privateJoin(join)], 'insufficient_shielded_value');
    const forged = { ...join, proof: { ...join.proof, c: join.proof.a } };
    r.rejected(ALICE, [privateJoin(forged, noteSpend(fee))], 'zk_proof_invalid');
    // Front-running: the same instruction submitted by another account fails and burns nothing.
    const poolBefore = r.balance(POOL);
    r.rejected(BOB, [privateJoin(join, noteSpend(fee))], 'zk_proof_invalid');
    assert.equal(r.balance(POOL), poolBefore);
    assert.ok(!r.chain.state.isNullifierSpent('roster', fieldToHex(join.nullifier)));
    assert.ok(!r.chain.state.isNullifierSpent('note', fieldToHex(fee.nullifier)));
    // The same join in two transactions of one block: the first joins, the second finds its nullifiers
    // spent. (Twice in one transaction passes TransactionMaxWeight: two joins' proofs are too heavy.)
    const twice = privateJoin(join, noteSpend(fee));
    assert.deepEqual(r.sameBlock(ALICE, [[twice], [twice]]), ['Committed', 'nullifier_reused']);
    assert.equal(r.balance(TREASURY), 500n, 'the join fee went to the treasury too');
    assert.equal(r.balance(POOL), 1100n - 500n);
    const call = getCall(r.chain.state, CALL)!;
    assert.ok(call.roster.kind === 'ZkRosterV1' && call.roster.active === 1);
    assert.ok(r.chain.state.isNullifierSpent('roster', fieldToHex(join.nullifier)));
    r.rejected(ALICE, [privateJoin(join, noteSpend(fee))], 'nullifier_reused');
    // The same nullifier in upper case is the same field element, so the same row (canonical ids).
    const upper = fieldToHex(join.nullifier).toUpperCase();
    assert.notEqual(upper, fieldToHex(join.nullifier));
    const shouted = { ...rosterProof(join), nullifier: upper };
    r.rejected(ALICE, [{ kind: 'JoinConference', call: CALL, private: shouted }], 'nullifier_reused');
    // A proof for another call does not verify for this one.
    const elsewhere = await proveRoster({
      callId: 'wonderland:other',
      secret: SECRETS[1]!,
      roster: ROSTER,
      action: 'join',
      sender: ALICE,
    });
    r.rejected(ALICE, [privateJoin(elsewhere)], 'zk_proof_invalid');
  });

  it('leaves and records private usage with proofs bound to the action and the record', async () => {
    const leave = await proveRoster({
      callId: CALL,
      secret: SECRETS[0]!,
      roster: ROSTER,
      action: 'leave',
      sender: ALICE,
    });
    assert.equal(leave.joinNullifier, join.nullifier, 'a leave proof outputs the member’s join nullifier');
    // A member who never joined cannot leave (the active count would drop below the joins).
    const stranger = await proveRoster({
      callId: CALL,
      secret: SECRETS[1]!,
      roster: ROSTER,
      action: 'leave',
      sender: ALICE,
    });
    r.rejected(ALICE, [privateLeave(stranger)], 'conference_not_participant');
    r.rejected(ALICE, [privateLeave(leave, false)], 'conference_privacy_mismatch');
    const usage = await proveUsage({
      callId: CALL,
      secret: SECRETS[0]!,
      roster: ROSTER,
      segment: 1,
      durationMs: 1_000n,
      billedGas: '0.10',
      sender: BOB,
    });
    const record = (segment: number, p = usage): Instruction => ({
      kind: 'RecordConferenceUsage',
      call: CALL,
      segment,
      durationMs: 1_000n,
      billedGas: amount('0.10'),
      private: rosterProof(p),
    });
    r.rejected(BOB, [record(2)], 'zk_proof_invalid');
    // CAROL operates the manifest's relays, so she may record usage, but not with BOB's proof.
    r.rejected(CAROL, [record(1)], 'zk_proof_invalid');
    r.ok(BOB, [record(1)]);
    assert.equal(getCall(r.chain.state, CALL)!.usage.segments, 1);
    // Keys revoked by a malformed parameter: every private step is rejected, nothing changes.
    r.ok(ADMIN, [
      { kind: 'SetParameter', parameter: { kind: 'Custom', id: 'conference_roster_vk', payload: 'revoked' } },
    ]);
    r.rejected(ALICE, [privateLeave(leave)], 'zk_keys_not_configured');
    r.ok(ADMIN, devZkParameters({ pool: POOL, fee: '2.50', treasury: TREASURY }));
    r.rejected(BOB, [privateLeave(leave)], 'zk_proof_invalid');
    r.ok(ALICE, [privateLeave(leave)]);
    const call = getCall(r.chain.state, CALL)!;
    assert.ok(call.roster.kind === 'ZkRosterV1' && call.roster.active === 0);
    // One join per member and call: after leaving, the join nullifier stays spent.
    r.rejected(ALICE, [privateJoin(join)], 'nullifier_reused');
  });

  it('with the entry fee at 0 a note spend is refused (shielded_spend_without_fee): no leaf, no nullifier', async () => {
    r.ok(ADMIN, devZkParameters({ pool: POOL, fee: '0', treasury: TREASURY }));
    const free = 'wonderland:free';
    const spend = await proveNoteSpend({
      note: SMALL,
      poolLeaves: r.leaves(),
      fee: 0n,
      bind: createFeeBind(free, BOB),
      change: { secret: 15n, blinding: 16n },
    });
    const freeCreate = (fee?: ReturnType<typeof noteSpend>): Instruction => ({
      ...(privateCreate(fee) as Extract<Instruction, { kind: 'CreateConference' }>),
      call: free,
    });
    const leaves = r.leaves().length;
    // Before the fix this committed and appended a change note: a chain of such spends fills the tree.
    r.rejected(BOB, [freeCreate(noteSpend(spend))], 'shielded_spend_without_fee');
    assert.equal(r.leaves().length, leaves, 'no change note joined the pool');
    assert.ok(!r.chain.state.isNullifierSpent('note', fieldToHex(spend.nullifier)));
    r.ok(BOB, [freeCreate()]);
    assert.equal(r.leaves().length, leaves);
  });

  it('gives the same state root after fromEntries and after replaying every block', () => {
    const root = toHex(r.chain.state.stateRoot());
    assert.equal(toHex(WorldState.fromEntries(r.chain.state.entries()).stateRoot()), root);
    const replay = new Recorded(conferenceWorld());
    assert.equal(replay.chain.height, genesisLog);
    r.replay(replay);
    assert.equal(toHex(replay.chain.state.stateRoot()), root);
  });
});
