import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ADMIN,
  ALICE,
  acc,
  amount,
  asset,
  BOB,
  CAROL,
  expectCode,
  ROSE,
  world,
} from '../../../test/fixtures/state/state-fixture.js';
import type { Instruction } from '../../model/instructions.js';
import { WorldState } from '../../state/world-state.js';
import {
  MULTISIG_PENDING_PER_PROPOSER_MAX,
  type MultisigSpec,
  multisigAccountId,
  proposalRowId,
} from './model.js';
import { instructionsHash } from './proposal-row.js';

const MS = multisigAccountId('wonderland', 'treasury');

function spec(
  quorum = 2,
  ttl = 10_000,
  members: [string, number][] = [
    [ALICE, 1],
    [BOB, 1],
    [CAROL, 1],
  ],
): MultisigSpec {
  return { signatories: new Map(members), quorum, transactionTtlMs: ttl };
}

const register = (s = spec(), account = MS, seed = 'treasury'): Instruction => ({
  kind: 'RegisterMultisig',
  account,
  seed,
  spec: s,
});
const pay = (n: string): Instruction => ({
  kind: 'TransferAsset',
  source: asset(ROSE, MS),
  destination: ADMIN,
  amount: amount(n),
});
const propose = (instructions: Instruction[]): Instruction => ({
  kind: 'ProposeMultisig',
  multisig: MS,
  instructions,
});
const approve = (hash: string): Instruction => ({
  kind: 'ApproveMultisig',
  multisig: MS,
  instructionsHash: hash,
});

/** A world with the 2-of-3 treasury holding 10 ROSE. */
function funded() {
  const chain = world();
  expectCode(
    chain,
    ADMIN,
    [register(), { kind: 'MintAsset', asset: asset(ROSE, MS), amount: amount('10') }],
    'Committed',
  );
  return chain;
}

describe('multisig instructions', () => {
  it('refuses an id not derived from domain and seed, a bad spec, unknown signatories', () => {
    const chain = world();
    expectCode(chain, ADMIN, [register(spec(), acc(77))], 'multisig_account_id_mismatch');
    expectCode(chain, ADMIN, [register(spec(), MS, 'other')], 'multisig_account_id_mismatch');
    expectCode(chain, ADMIN, [register(spec(4))], 'multisig_spec_invalid');
    expectCode(chain, ADMIN, [register(spec(2, 10_000, []))], 'multisig_spec_invalid');
    expectCode(
      chain,
      ADMIN,
      [
        register(
          spec(1, 10_000, [
            [MS, 1],
            [ALICE, 1],
          ]),
        ),
      ],
      'multisig_spec_invalid',
    );
    expectCode(chain, ADMIN, [register(spec(1, 10_000, [[acc(99), 1]]))], 'account_not_found');
    expectCode(chain, BOB, [register()], 'permission_denied');
    const events = expectCode(chain, ADMIN, [register()], 'Committed');
    assert.deepEqual(
      events.map((e) => e.kind),
      ['AccountCreated', 'MultisigSpecSet'],
    );
    expectCode(chain, ADMIN, [register()], 'already_exists');
  });

  it('2-of-3: executes once at the second approval, as the multisig; a third approval is refused', () => {
    const chain = funded();
    const batch = [pay('3')];
    const hash = instructionsHash(batch);
    const proposed = expectCode(chain, ALICE, [propose(batch)], 'Committed');
    assert.ok(!proposed.some((e) => e.kind === 'MultisigExecuted'));
    expectCode(chain, ALICE, [approve(hash)], 'multisig_already_approved');
    const events = expectCode(chain, BOB, [approve(hash)], 'Committed');
    assert.ok(events.some((e) => e.kind === 'AssetRemoved' || e.kind === 'AssetAdded'));
    assert.ok(events.some((e) => e.kind === 'MultisigExecuted' && e.result.kind === 'Committed'));
    assert.equal(chain.state.asset(asset(ROSE, MS))?.value.mantissa, 700n);
    expectCode(chain, CAROL, [approve(hash)], 'multisig_proposal_not_pending');
    assert.equal(chain.state.asset(asset(ROSE, MS))?.value.mantissa, 700n);
    const row = chain.state.tables.multisigProposal.get(proposalRowId(MS, hash))!;
    assert.equal(row.status.kind, 'Finalized');
    assert.deepEqual(row.approvals, [ALICE, BOB].sort());
  });

  it('a failing batch is finalized with its rejection and leaves no writes', () => {
    const chain = funded();
    const batch = [pay('1'), pay('500')];
    const hash = instructionsHash(batch);
    expectCode(chain, ALICE, [propose(batch)], 'Committed');
    const events = expectCode(chain, BOB, [approve(hash)], 'Committed');
    assert.ok(!events.some((e) => e.kind === 'AssetAdded'));
    const row = chain.state.tables.multisigProposal.get(proposalRowId(MS, hash))!;
    assert.equal(row.status.kind, 'Finalized');
    assert.equal(row.result?.kind === 'Rejected' && row.result.reason.code, 'insufficient_funds');
    assert.equal(row.result?.kind === 'Rejected' && row.result.reason.instructionIndex, 1);
    assert.equal(chain.state.asset(asset(ROSE, MS))?.value.mantissa, 1000n);
  });

  it('refuses non-signatories, direct signing by the multisig, and approvals after expiry', () => {
    const chain = world();
    expectCode(chain, ADMIN, [register(spec(2, 1_500))], 'Committed');
    const batch: Instruction[] = [{ kind: 'Log', level: { kind: 'Info' }, message: 'x' }];
    const hash = instructionsHash(batch);
    expectCode(chain, ADMIN, [propose(batch)], 'multisig_not_signatory');
    expectCode(chain, ALICE, [propose(batch)], 'Committed');
    expectCode(chain, ALICE, [propose(batch)], 'multisig_proposal_exists');
    expectCode(chain, ADMIN, [approve(hash)], 'multisig_not_signatory');
    expectCode(
      chain,
      MS,
      [{ kind: 'Log', level: { kind: 'Info' }, message: 'x' }],
      'multisig_direct_signing',
    );
    // Proposed at 4,000 ms with a 1,500 ms TTL: expired from block time 5,500 (this block is at 6,000).
    expectCode(chain, BOB, [approve(hash)], 'multisig_proposal_expired');
    // An expired batch may be proposed again (a fresh proposal).
    expectCode(chain, BOB, [propose(batch)], 'Committed');
  });

  it('caps the live proposals of one proposer; expired ones and other proposers do not count', () => {
    const chain = world();
    expectCode(chain, ADMIN, [register(spec(2, 1_500))], 'Committed');
    const note = (i: number) => propose([{ kind: 'Log', level: { kind: 'Info' }, message: `p${i}` }]);
    const cap = MULTISIG_PENDING_PER_PROPOSER_MAX;
    expectCode(
      chain,
      ALICE,
      Array.from({ length: cap }, (_, i) => note(i)),
      'Committed',
    );
    expectCode(chain, ALICE, [note(cap)], 'multisig_proposals_full');
    expectCode(chain, BOB, [note(-1)], 'Committed');
    // Two blocks later (2,000 ms past a 1,500 ms TTL) ALICE's proposals have expired: room again.
    expectCode(chain, ALICE, [note(cap)], 'Committed');
    // Counting stored each expired one as Expired once, so the next count does not read them again.
    const open = chain.state.tables.multisigProposal.sortedChildIds(
      'openProposalsByProposer',
      `${MS} ${ALICE}`,
    );
    assert.equal(open.length, 1);
    const all = chain.state.tables.multisigProposal.sortedChildIds('proposalsByMultisig', MS);
    const kinds = all.map((id) => chain.state.tables.multisigProposal.get(id)!.status.kind);
    assert.equal(kinds.filter((k) => k === 'Expired').length, cap);
  });

  it('the spec changes only through the multisig itself', () => {
    const chain = world();
    expectCode(chain, ADMIN, [register()], 'Committed');
    const next = spec(1, 10_000, [
      [ALICE, 1],
      [BOB, 2],
    ]);
    const set: Instruction = { kind: 'SetMultisigSpec', multisig: MS, spec: next };
    expectCode(chain, ALICE, [set], 'multisig_self_only');
    expectCode(chain, ADMIN, [set], 'multisig_self_only');
    expectCode(chain, ALICE, [propose([set])], 'Committed');
    expectCode(chain, CAROL, [approve(instructionsHash([set]))], 'Committed');
    const row = chain.state.tables.multisigAccount.get(MS)!;
    assert.deepEqual(
      [...row.spec.signatories],
      [
        [ALICE, 1],
        [BOB, 2],
      ],
    );
    assert.equal(row.spec.quorum, 1);
    // CAROL is no longer a signatory; BOB alone (weight 2) reaches the quorum at once.
    expectCode(
      chain,
      CAROL,
      [propose([{ kind: 'Log', level: { kind: 'Info' }, message: 'c' }])],
      'multisig_not_signatory',
    );
    const events = expectCode(
      chain,
      BOB,
      [propose([{ kind: 'Log', level: { kind: 'Info' }, message: 'b' }])],
      'Committed',
    );
    assert.ok(events.some((e) => e.kind === 'MultisigExecuted'));
  });

  it('cancels by quorum of cancel requests; a canceled proposal never executes', () => {
    const chain = funded();
    const batch = [pay('2')];
    const hash = instructionsHash(batch);
    const cancel = (): Instruction => ({ kind: 'CancelMultisig', multisig: MS, instructionsHash: hash });
    expectCode(chain, ALICE, [propose(batch)], 'Committed');
    expectCode(chain, ALICE, [cancel()], 'Committed');
    expectCode(chain, ALICE, [cancel()], 'multisig_already_approved');
    const events = expectCode(chain, CAROL, [cancel()], 'Committed');
    assert.ok(events.some((e) => e.kind === 'MultisigCanceled'));
    expectCode(chain, BOB, [approve(hash)], 'multisig_proposal_not_pending');
    assert.equal(chain.state.asset(asset(ROSE, MS))?.value.mantissa, 1000n);
  });

  it('nested: a multisig signatory approves through its own proposal', () => {
    const chain = funded();
    const inner = multisigAccountId('wonderland', 'board');
    expectCode(
      chain,
      ADMIN,
      [
        register(
          spec(2, 10_000, [
            [BOB, 1],
            [CAROL, 1],
          ]),
          inner,
          'board',
        ),
      ],
      'Committed',
    );
    const outerSpec = spec(2, 10_000, [
      [ALICE, 1],
      [inner, 1],
    ]);
    const outer = multisigAccountId('wonderland', 'outer');
    expectCode(chain, ADMIN, [register(outerSpec, outer, 'outer')], 'Committed');
    const batch: Instruction[] = [{ kind: 'Log', level: { kind: 'Info' }, message: 'outer' }];
    const hash = instructionsHash(batch);
    expectCode(
      chain,
      ALICE,
      [{ kind: 'ProposeMultisig', multisig: outer, instructions: batch }],
      'Committed',
    );
    const approveOuter: Instruction[] = [
      { kind: 'ApproveMultisig', multisig: outer, instructionsHash: hash },
    ];
    expectCode(
      chain,
      BOB,
      [{ kind: 'ProposeMultisig', multisig: inner, instructions: approveOuter }],
      'Committed',
    );
    const events = expectCode(
      chain,
      CAROL,
      [{ kind: 'ApproveMultisig', multisig: inner, instructionsHash: instructionsHash(approveOuter) }],
      'Committed',
    );
    assert.deepEqual(
      events
        .filter((e) => e.kind === 'MultisigExecuted')
        .map((e) => e.kind === 'MultisigExecuted' && e.multisig),
      [outer, inner],
    );
    assert.equal(
      chain.state.tables.multisigProposal.get(proposalRowId(outer, hash))?.status.kind,
      'Finalized',
    );
  });

  it('refuses empty batches, and executions nested deeper than the limit', () => {
    const chain = world();
    expectCode(chain, ADMIN, [register(spec(1, 10_000, [[ALICE, 1]]))], 'Committed');
    expectCode(chain, ALICE, [propose([])], 'multisig_instructions_invalid');
    // Multisig k (k = 1..5) has multisig k-1 as its only signatory (weight 1, quorum 1); level 0 is MS.
    const ids = [MS];
    for (let k = 1; k <= 5; k++) {
      const id = multisigAccountId('wonderland', `level${k}`);
      expectCode(chain, ADMIN, [register(spec(1, 10_000, [[ids[k - 1]!, 1]]), id, `level${k}`)], 'Committed');
      ids.push(id);
    }
    // ALICE proposes to MS a batch that proposes to level1 … a chain of proposals executing at once.
    let batch: Instruction[] = [{ kind: 'Log', level: { kind: 'Info' }, message: 'deep' }];
    const nest = (depth: number) => {
      batch = [{ kind: 'Log', level: { kind: 'Info' }, message: 'deep' }];
      for (let k = depth; k >= 1; k--)
        batch = [{ kind: 'ProposeMultisig', multisig: ids[k]!, instructions: batch }];
      return batch;
    };
    const ok = expectCode(chain, ALICE, [propose(nest(3))], 'Committed');
    assert.equal(ok.filter((e) => e.kind === 'MultisigExecuted').length, 4);
    const deep = expectCode(chain, ALICE, [propose(nest(5))], 'Committed');
    // Four levels execute; the fourth's own proposal would be a fifth: that batch is recorded as rejected.
    const results = deep.flatMap((e) =>
      e.kind === 'MultisigExecuted'
        ? [[e.multisig, e.result.kind === 'Rejected' ? e.result.reason.code : 'ok']]
        : [],
    );
    assert.deepEqual(results, [
      [ids[3], 'multisig_nesting_too_deep'],
      [ids[2], 'ok'],
      [ids[1], 'ok'],
      [MS, 'ok'],
    ]);
  });

  it('signatories cannot be unregistered; a multisig takes its rows with it; rows survive fromEntries', () => {
    const chain = funded();
    expectCode(chain, ALICE, [propose([pay('1')])], 'Committed');
    expectCode(chain, ADMIN, [{ kind: 'UnregisterAccount', id: ALICE }], 'multisig_member_in_use');
    const copy = WorldState.fromEntries(chain.state.entries());
    assert.deepEqual(copy.stateRoot(), chain.state.stateRoot());
    assert.deepEqual(copy.linkedIds('multisigAccount', 'multisigsByMember', BOB), [MS]);
    assert.equal(copy.linkedIds('multisigProposal', 'proposalsByMultisig', MS).length, 1);
    expectCode(
      chain,
      ADMIN,
      [{ kind: 'BurnAsset', asset: asset(ROSE, MS), amount: amount('10') }],
      'Committed',
    );
    expectCode(chain, ADMIN, [{ kind: 'UnregisterAccount', id: MS }], 'Committed');
    assert.equal(chain.state.tables.multisigAccount.size, 0);
    assert.equal(chain.state.tables.multisigProposal.size, 0);
  });
});
