import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  ADMIN,
  ALICE,
  acc,
  amount,
  asset,
  BOB,
  CAROL,
  type Chain,
  expectCode,
  ROSE,
  world,
} from '../../../test/fixtures/state/state-fixture.js';
import type { Instruction } from '../../model/instructions.js';
import { formatNumeric } from '../../model/numeric.js';
import { REPO_YEAR_MS, type RepoAgreement, repoAgreementId, repoRunId } from './model.js';
import { repoInstructions as ix, type RepoTermsInput } from './sdk.js';

// ALICE borrows ROSE (the cash, scale 2) from BOB against BOND (scale 0); GOLD (scale 1) is another
// collateral; ESCROW holds the collateral; CAROL is a custodian.
const BOND = 'bond#wonderland';
const GOLD = 'gold#wonderland';
const ESCROW = acc(5);
const DAY = 86_400_000;
const DEFINITIONS = [ROSE, BOND, GOLD];

function setUp(): Chain {
  const chain = world();
  const none = () => new Map();
  const def = (id: string, scale: number): Instruction => ({
    kind: 'RegisterAssetDefinition',
    id,
    scale,
    mintable: { kind: 'Infinitely' },
    metadata: none(),
  });
  expectCode(
    chain,
    ADMIN,
    [
      { kind: 'RegisterAccount', id: ESCROW, metadata: none() },
      def(BOND, 0),
      def(GOLD, 1),
      { kind: 'SetParameter', parameter: { kind: 'Custom', id: 'repo_escrow_account', payload: ESCROW } },
      { kind: 'MintAsset', asset: asset(ROSE, BOB), amount: amount('5000') },
      { kind: 'MintAsset', asset: asset(ROSE, ALICE), amount: amount('500') },
      { kind: 'MintAsset', asset: asset(BOND, ALICE), amount: amount('100') },
      { kind: 'MintAsset', asset: asset(GOLD, ALICE), amount: amount('1000') },
    ],
    'Committed',
  );
  return chain;
}

/** 1000.00 ROSE against 12 BOND at 100 ROSE each, 5 % a year, 2 % haircut, a day's margin window. */
function terms(chain: Chain, over: Partial<RepoTermsInput> = {}): RepoTermsInput {
  return {
    counterparty: BOB,
    cash: { definition: ROSE, quantity: '1000' },
    collateral: { definition: BOND, quantity: '12' },
    rateBps: 500,
    haircutBps: 200,
    // A year after the acceptance block that follows the initiation (blocks 1 s apart).
    maturityMs: (chain.timeMs ?? 1_000 * (chain.height + 2)) + 365 * DAY,
    collateralPrice: '100',
    marginWindowMs: DAY,
    ...over,
  };
}

const balance = (chain: Chain, definition: string, account: string): string => {
  const a = chain.state.tables.asset.get(asset(definition, account));
  return a === undefined ? '0' : formatNumeric(a.value);
};

const agreement = (chain: Chain, id: string): RepoAgreement => {
  const a = chain.state.tables.repoAgreement.get(id);
  assert.ok(a, `agreement ${id}`);
  return a;
};

/** Initiated by ALICE and accepted by BOB at the chain's next block times; the id. */
function open(chain: Chain, reference = 'R-1', over: Partial<RepoTermsInput> = {}): string {
  expectCode(chain, ALICE, [ix.initiateRepo(reference, terms(chain, over))], 'Committed');
  const id = repoAgreementId(ALICE, reference);
  expectCode(chain, BOB, [ix.acceptRepo(id)], 'Committed');
  return id;
}

/** Every definition's sum of balances. */
function totals(chain: Chain): Record<string, bigint> {
  const out: Record<string, bigint> = {};
  for (const d of DEFINITIONS) out[d] = 0n;
  for (const id of chain.state.tables.asset.sortedIds()) {
    const d = DEFINITIONS.find((x) => id.startsWith(`${x}#`));
    if (d !== undefined) out[d]! += chain.state.tables.asset.get(id)!.value.mantissa;
  }
  return out;
}

describe('repo agreements', () => {
  it('initiate then accept: a deterministic id, collateral in escrow, cash to the borrower', () => {
    const chain = setUp();
    expectCode(chain, ALICE, [ix.initiateRepo('R-1', terms(chain))], 'Committed');
    const id = repoAgreementId(ALICE, 'R-1');
    assert.match(id, /^repo_[0-9a-f]{40}$/);
    assert.equal(agreement(chain, id).status.kind, 'Proposed');
    expectCode(chain, ALICE, [ix.initiateRepo('R-1', terms(chain))], 'repo_exists');
    // Only the counterparty accepts.
    expectCode(chain, CAROL, [ix.acceptRepo(id)], 'permission_denied');
    expectCode(chain, ALICE, [ix.acceptRepo(id)], 'permission_denied');
    expectCode(chain, BOB, [ix.acceptRepo(id)], 'Committed');
    assert.equal(balance(chain, BOND, ESCROW), '12');
    assert.equal(balance(chain, BOND, ALICE), '88');
    assert.equal(balance(chain, ROSE, ALICE), '1500.00');
    assert.equal(balance(chain, ROSE, BOB), '4000.00');
    const a = agreement(chain, id);
    assert.equal(a.status.kind, 'Open');
    assert.equal(a.escrow, ESCROW);
    assert.ok(chain.state.tables.trigger.get(repoRunId(id)), 'the maturity run is scheduled');
    // The run is the ledger's: its removal is refused in this module's words, a billing run's in its own.
    const remove = (trigger: string) => chain.run(BOB, [{ kind: 'UnregisterTrigger', id: trigger }]).result;
    const refused = remove(repoRunId(id));
    assert.ok(refused.kind === 'Rejected' && refused.reason.code === 'trigger_reserved');
    assert.match(refused.reason.message ?? '', /belongs to a repo agreement/);
    const billing = remove('$sub:s');
    assert.ok(billing.kind === 'Rejected');
    assert.match(billing.reason.message ?? '', /belongs to a subscription/);
    expectCode(chain, BOB, [ix.acceptRepo(id)], 'repo_invalid_state');
  });

  it('a short proposal is refused on acceptance; bounds are checked on initiation', () => {
    const chain = setUp();
    // 10 BOND × 100 = 1000 < 1000 × 1.02.
    expectCode(
      chain,
      ALICE,
      [ix.initiateRepo('R-2', terms(chain, { collateral: { definition: BOND, quantity: '10' } }))],
      'Committed',
    );
    expectCode(chain, BOB, [ix.acceptRepo(repoAgreementId(ALICE, 'R-2'))], 'repo_margin_short');
    const bad: Partial<RepoTermsInput>[] = [
      { cash: { definition: ROSE, quantity: '0.001' } },
      { haircutBps: 10_001 },
      { maturityMs: 1 },
      { marginWindowMs: 10 },
      { counterparty: ALICE },
    ];
    for (const [i, over] of bad.entries())
      expectCode(chain, ALICE, [ix.initiateRepo(`B-${i}`, terms(chain, over))], 'repo_invalid');
  });

  it('the escrow is locked: it signs nothing and only repo settlement debits it', () => {
    const chain = setUp();
    open(chain);
    const out = {
      kind: 'TransferAsset',
      source: asset(BOND, ESCROW),
      destination: ADMIN,
      amount: amount('1'),
    };
    expectCode(chain, ADMIN, [out as Instruction], 'repo_escrow_locked');
    expectCode(chain, ESCROW, [out as Instruction], 'repo_escrow_locked');
    expectCode(
      chain,
      ADMIN,
      [{ kind: 'BurnAsset', asset: asset(BOND, ESCROW), amount: amount('1') }],
      'repo_escrow_locked',
    );
    assert.equal(balance(chain, BOND, ESCROW), '12');
  });

  it('unwind at maturity by the scheduled run at the block time: cash plus interest back, collateral back', () => {
    const chain = setUp();
    const id = open(chain);
    const a = agreement(chain, id);
    // Blocks before maturity leave it open.
    chain.timeMs = a.maturityTimestampMs - 1;
    assert.deepEqual(chain.block([]).triggers, []);
    assert.equal(agreement(chain, id).status.kind, 'Open');
    chain.timeMs = a.maturityTimestampMs + 5 * DAY;
    const run = chain.block([]).triggers;
    assert.equal(run.length, 1);
    assert.equal(run[0]!.id, repoRunId(id));
    // Interest runs to maturity, not to the later block: 1000 × 5 % × (maturity − initiated) / year.
    const elapsed = BigInt(a.maturityTimestampMs - a.initiatedTimestampMs);
    const due = (100_000n * 500n * elapsed) / (10_000n * REPO_YEAR_MS);
    assert.equal(due, 5_000n); // a year: 50.00
    assert.equal(balance(chain, ROSE, BOB), '5050.00');
    assert.equal(balance(chain, ROSE, ALICE), '450.00');
    assert.equal(balance(chain, BOND, ALICE), '100');
    assert.equal(balance(chain, BOND, ESCROW), '0');
    assert.equal(agreement(chain, id).status.kind, 'Unwound');
    const settled = run[0]!.events.find((e) => e.kind === 'RepoSettled');
    assert.ok(settled && settled.kind === 'RepoSettled' && settled.atMaturity && !settled.defaulted);
    assert.equal(chain.state.tables.trigger.get(repoRunId(id)), undefined);
    // The ledger's run cannot be removed by hand nor SettleRepo run by an account.
    expectCode(chain, BOB, [ix.settleRepo(id)], 'repo_settle_not_allowed');
  });

  it('maturity without the cash and interest: the run defaults the agreement, the collateral to the lender', () => {
    const chain = setUp();
    const id = open(chain);
    expectCode(
      chain,
      ALICE,
      [{ kind: 'TransferAsset', source: asset(ROSE, ALICE), destination: CAROL, amount: amount('1000') }],
      'Committed',
    );
    chain.timeMs = agreement(chain, id).maturityTimestampMs;
    chain.block([]);
    assert.equal(agreement(chain, id).status.kind, 'Defaulted');
    assert.equal(balance(chain, BOND, BOB), '12');
    assert.equal(balance(chain, ROSE, ALICE), '500.00');
  });

  it('margin call after a price fall, then a top-up meets it again', () => {
    const chain = setUp();
    const id = open(chain);
    expectCode(chain, ALICE, [ix.setRepoPrice(id, BOND, '80')], 'permission_denied');
    expectCode(chain, BOB, [ix.setRepoPrice(id, BOND, '80')], 'Committed');
    const events = expectCode(chain, CAROL, [ix.checkRepoMargin(id)], 'Committed');
    const checked = events.find((e) => e.kind === 'RepoMarginChecked');
    assert.ok(checked && checked.kind === 'RepoMarginChecked');
    assert.equal(formatNumeric(checked.required), '1020.00');
    assert.equal(formatNumeric(checked.value), '960.00');
    const a = agreement(chain, id);
    assert.equal(a.status.kind, 'MarginCalled');
    // 12 × 80 = 960; 13 × 80 = 1040 ≥ 1020.
    expectCode(chain, ALICE, [ix.topUpRepoMargin(id, '1')], 'Committed');
    assert.equal(agreement(chain, id).status.kind, 'Open');
    assert.equal(balance(chain, BOND, ESCROW), '13');
    // The run moved back to maturity: the old deadline passes without a default.
    chain.timeMs = (a.status.kind === 'MarginCalled' ? a.status.deadlineMs : 0) + 1;
    chain.block([]);
    assert.equal(agreement(chain, id).status.kind, 'Open');
  });

  it('a margin call unmet by its deadline defaults: the collateral goes to the cash lender', () => {
    const chain = setUp();
    const id = open(chain);
    expectCode(chain, BOB, [ix.setRepoPrice(id, BOND, '50'), ix.checkRepoMargin(id)], 'Committed');
    const a = agreement(chain, id);
    assert.equal(a.status.kind, 'MarginCalled');
    const deadline = a.status.kind === 'MarginCalled' ? a.status.deadlineMs : 0;
    chain.timeMs = deadline - 1;
    chain.block([]);
    assert.equal(agreement(chain, id).status.kind, 'MarginCalled');
    chain.timeMs = deadline;
    const run = chain.block([]).triggers;
    assert.equal(run.length, 1);
    assert.equal(agreement(chain, id).status.kind, 'Defaulted');
    assert.equal(balance(chain, BOND, BOB), '12');
    assert.equal(balance(chain, BOND, ESCROW), '0');
    assert.equal(balance(chain, ROSE, ALICE), '1500.00');
  });

  it('substitution: another definition at its own price; one that breaks the requirement is refused', () => {
    const chain = setUp();
    const id = open(chain);
    const gold = (q: string) => ix.substituteRepoCollateral(id, { definition: GOLD, quantity: q });
    expectCode(chain, ALICE, [gold('110')], 'repo_no_price');
    expectCode(chain, BOB, [ix.setRepoPrice(id, GOLD, '10')], 'Committed');
    // 100.0 × 10 = 1000 < 1020: refused, nothing moves.
    expectCode(chain, ALICE, [gold('100')], 'repo_margin_short');
    assert.equal(balance(chain, BOND, ESCROW), '12');
    expectCode(chain, BOB, [gold('110')], 'permission_denied');
    expectCode(chain, ALICE, [gold('102')], 'Committed');
    assert.equal(balance(chain, GOLD, ESCROW), '102.0');
    assert.equal(balance(chain, BOND, ESCROW), '0');
    assert.equal(balance(chain, BOND, ALICE), '100');
    assert.equal(agreement(chain, id).collateralLeg.assetDefinitionId, GOLD);
  });

  it('an early unwind needs both parties; interest for the time elapsed, rounded down', () => {
    const chain = setUp();
    const id = open(chain);
    const start = agreement(chain, id).initiatedTimestampMs;
    chain.timeMs = start + 73 * DAY; // a fifth of a year: 10.00
    expectCode(chain, ALICE, [ix.unwindRepo(id)], 'Committed');
    assert.equal(agreement(chain, id).status.kind, 'Open');
    assert.equal(balance(chain, BOND, ESCROW), '12');
    chain.timeMs = start + 73 * DAY + 1;
    expectCode(chain, ALICE, [ix.unwindRepo(id)], 'repo_invalid_state');
    expectCode(chain, CAROL, [ix.unwindRepo(id)], 'permission_denied');
    chain.timeMs = start + 73 * DAY + 2;
    expectCode(chain, BOB, [ix.unwindRepo(id)], 'Committed');
    assert.equal(agreement(chain, id).status.kind, 'Unwound');
    // 1000 × 0.05 × (73 days + 2 ms) / 365 days = 10.0000000031… → 10.00.
    assert.equal(balance(chain, ROSE, BOB), '5010.00');
    assert.equal(balance(chain, BOND, ALICE), '100');
    assert.equal(chain.state.tables.trigger.get(repoRunId(id)), undefined);
  });

  it('the custodian, when named, sets the prices in place of the counterparty', () => {
    const chain = setUp();
    const id = open(chain, 'R-C', { custodian: CAROL });
    expectCode(chain, BOB, [ix.setRepoPrice(id, BOND, '90')], 'permission_denied');
    expectCode(chain, CAROL, [ix.setRepoPrice(id, BOND, '90')], 'Committed');
  });

  it('property: every definition total is conserved across random sequences of repo instructions', () => {
    const step = fc.oneof(
      fc.record({ op: fc.constant('price' as const), price: fc.integer({ min: 1, max: 200 }) }),
      fc.record({ op: fc.constant('check' as const) }),
      fc.record({ op: fc.constant('topUp' as const), q: fc.integer({ min: 1, max: 20 }) }),
      fc.record({ op: fc.constant('substitute' as const), q: fc.integer({ min: 1, max: 300 }) }),
      fc.record({ op: fc.constant('unwind' as const), byLender: fc.boolean() }),
      fc.record({ op: fc.constant('spend' as const), q: fc.integer({ min: 1, max: 1500 }) }),
      fc.record({ op: fc.constant('wait' as const), days: fc.integer({ min: 1, max: 400 }) }),
    );
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 12 }), (steps) => {
        const chain = setUp();
        const before = totals(chain);
        const id = open(chain);
        expectCode(chain, BOB, [ix.setRepoPrice(id, GOLD, '10')], 'Committed');
        let time = chain.height * 1_000 + 1_000;
        for (const s of steps) {
          time += s.op === 'wait' ? s.days * DAY : 1_000;
          chain.timeMs = time;
          const ins: [string, Instruction] | undefined =
            s.op === 'price'
              ? [BOB, ix.setRepoPrice(id, BOND, String(s.price))]
              : s.op === 'check'
                ? [CAROL, ix.checkRepoMargin(id)]
                : s.op === 'topUp'
                  ? [ALICE, ix.topUpRepoMargin(id, String(s.q))]
                  : s.op === 'substitute'
                    ? [ALICE, ix.substituteRepoCollateral(id, { definition: GOLD, quantity: String(s.q) })]
                    : s.op === 'unwind'
                      ? [s.byLender ? BOB : ALICE, ix.unwindRepo(id)]
                      : s.op === 'spend'
                        ? [
                            ALICE,
                            {
                              kind: 'TransferAsset',
                              source: asset(ROSE, ALICE),
                              destination: CAROL,
                              amount: amount(String(s.q)),
                            },
                          ]
                        : undefined;
          if (ins === undefined) chain.block([]);
          else chain.run(ins[0], [ins[1]]);
          assert.deepEqual(totals(chain), before);
          const a = agreement(chain, id);
          const held = a.status.kind === 'Open' || a.status.kind === 'MarginCalled';
          const inEscrow = chain.state.tables.asset.get(asset(a.collateralLeg.assetDefinitionId, ESCROW));
          assert.equal(inEscrow?.value.mantissa ?? 0n, held ? a.collateralLeg.quantity.mantissa : 0n);
        }
      }),
      { numRuns: 25 },
    );
  });
});
