import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ADMIN,
  ALICE,
  amount,
  asset,
  BOB,
  expectCode,
  ROSE,
  world,
} from '../../../test/fixtures/state/state-fixture.js';
import type { Instruction } from '../../model/instructions.js';
import { WorldState } from '../../state/world-state.js';
import { subscription } from './reads.js';

const DAY = 86_400_000;
const plan = (billFor: 'Current' | 'Previous', trialMs = 0): Instruction => ({
  kind: 'RegisterSubscriptionPlan',
  id: `p-${billFor.toLowerCase()}`,
  billing: {
    cadence: { kind: 'FixedPeriod', periodMs: DAY },
    billFor: { kind: billFor },
    retryBackoffMs: 1000,
    maxFailures: 2,
    graceMs: 0,
  },
  pricing: { kind: 'Fixed', amount: amount('2'), assetDefinition: ROSE },
  trialMs,
});

describe('subscriptions (executor)', () => {
  it('billed in arrears with a trial: first charge at the end of the first period; cancel at period end charges the last one', () => {
    const chain = world();
    expectCode(
      chain,
      ADMIN,
      [{ kind: 'MintAsset', asset: asset(ROSE, ALICE), amount: amount('10') }],
      'Committed',
    );
    chain.timeMs = 1_000_000;
    expectCode(chain, BOB, [plan('Previous', DAY)], 'Committed');
    expectCode(chain, ALICE, [{ kind: 'Subscribe', id: 's', plan: 'p-previous' }], 'Committed');
    const s = subscription(chain.state, 's')!;
    assert.deepEqual(
      [s.currentPeriodStartMs, s.currentPeriodEndMs, s.nextChargeMs],
      [1_000_000 + DAY, 1_000_000 + 2 * DAY, 1_000_000 + 2 * DAY],
    );
    assert.equal(chain.state.tables.trigger.get('$sub:s')?.authority, ALICE);
    chain.timeMs = 1_000_000 + 2 * DAY - 1;
    assert.deepEqual(chain.block([]).triggers, []);
    expectCode(chain, ALICE, [{ kind: 'CancelSubscription', id: 's', atPeriodEnd: true }], 'Committed');
    chain.timeMs = 1_000_000 + 2 * DAY;
    const out = chain.block([]);
    assert.deepEqual(
      out.triggers.map((r) => r.events.map((e) => e.kind)),
      [
        [
          'AssetRemoved',
          'AssetAdded',
          'SubscriptionInvoiced',
          'SubscriptionStatusChanged',
          'TriggerExecuted',
        ],
      ],
    );
    const done = subscription(chain.state, 's')!;
    assert.equal(done.status.kind, 'Canceled');
    assert.deepEqual(
      [done.latestInvoice?.periodStartMs, done.latestInvoice?.periodEndMs],
      [1_000_000 + DAY, 1_000_000 + 2 * DAY],
    );
    assert.equal(chain.state.asset(asset(ROSE, BOB))?.value.mantissa, 200n);
    assert.equal(chain.state.tables.trigger.get('$sub:s'), undefined);
  });

  it('a charge cannot be pulled outside its billing trigger, even from a trigger of the subscriber', () => {
    const chain = world();
    expectCode(chain, BOB, [plan('Current', DAY)], 'Committed');
    expectCode(chain, ALICE, [{ kind: 'Subscribe', id: 's', plan: 'p-current' }], 'Committed');
    expectCode(chain, BOB, [{ kind: 'Subscribe', id: 't', plan: 'p-current' }], 'subscription_invalid');
    expectCode(chain, ALICE, [{ kind: 'Subscribe', id: 's', plan: 'p-current' }], 'already_exists');
    expectCode(chain, ALICE, [{ kind: 'ChargeSubscription', id: 's' }], 'subscription_charge_not_allowed');
    const sneaky: Instruction = {
      kind: 'RegisterTrigger',
      id: 'sneaky',
      due: { kind: 'Height', height: chain.height + 2 },
      instructions: [{ kind: 'ChargeSubscription', id: 's' }],
    };
    expectCode(chain, ALICE, [sneaky], 'Committed');
    const run = chain.block([]).triggers[0]!.events.at(-1)!;
    assert.ok(run.kind === 'TriggerFailed' && run.reason.code === 'subscription_charge_not_allowed');
    expectCode(chain, ALICE, [{ kind: 'UnregisterTrigger', id: '$sub:s' }], 'trigger_reserved');
    const copy = WorldState.fromEntries(chain.state.entries());
    assert.deepEqual(copy.stateRoot(), chain.state.stateRoot());
    assert.equal(subscription(copy, 's')?.status.kind, 'Active');
  });
});

describe('billing runs are the ledger’s: the triggers module refuses their removal in this module’s words', () => {
  it('UnregisterTrigger on any `$` id: trigger_reserved with the message recorded in every committed result', () => {
    const chain = world();
    // The message is consensus data (in the committed result and the results root): byte for byte.
    for (const id of ['$sub:s', '$other']) {
      const { result } = chain.run(ALICE, [{ kind: 'UnregisterTrigger', id }]);
      assert.ok(result.kind === 'Rejected');
      assert.equal(result.reason.code, 'trigger_reserved');
      assert.equal(result.reason.message, `${id} belongs to a subscription: cancel or pause it instead`);
    }
  });
});

describe('subscription charges wait for their billing point (block time)', () => {
  const setup = (billFor: 'Current' | 'Previous', trialMs: number) => {
    const chain = world();
    const mint = { kind: 'MintAsset', asset: asset(ROSE, ALICE), amount: amount('100') } as const;
    expectCode(chain, ADMIN, [mint], 'Committed');
    chain.timeMs = 1_000_000;
    expectCode(chain, BOB, [plan(billFor, trialMs)], 'Committed');
    expectCode(
      chain,
      ALICE,
      [{ kind: 'Subscribe', id: 's', plan: `p-${billFor.toLowerCase()}` }],
      'Committed',
    );
    return chain;
  };
  const balance = (chain: ReturnType<typeof world>, who: string) =>
    chain.state.asset(asset(ROSE, who))?.value.mantissa ?? 0n;
  const now: Instruction = { kind: 'ChargeSubscriptionNow', id: 's' };

  it('the provider cannot take 50 periods during a trial: refused, nothing moves, no invoice', () => {
    const chain = setup('Current', DAY);
    expectCode(
      chain,
      BOB,
      Array.from({ length: 50 }, () => now),
      'subscription_charge_not_due',
    );
    expectCode(chain, BOB, [now], 'subscription_charge_not_due');
    expectCode(chain, ALICE, [now], 'subscription_charge_not_due'); // not even the subscriber, in the trial
    assert.equal(balance(chain, ALICE), 10_000n);
    assert.equal(subscription(chain.state, 's')?.latestInvoice, undefined);
  });

  it('at the billing point either may charge one period; the next one is not due; the subscriber pays one early', () => {
    const chain = setup('Current', DAY);
    chain.timeMs = 1_000_000 + DAY - 1;
    assert.deepEqual(chain.block([]).triggers, []);
    chain.timeMs = 1_000_000 + DAY; // the trigger charges the first period in this block
    chain.block([]);
    assert.equal(balance(chain, ALICE), 9_800n);
    expectCode(chain, BOB, [now], 'subscription_charge_not_due');
    expectCode(chain, ALICE, [now, now], 'subscription_charge_not_due'); // one period ahead at most
    expectCode(chain, ALICE, [now], 'Committed');
    expectCode(chain, ALICE, [now], 'subscription_charge_not_due');
    assert.equal(balance(chain, ALICE), 9_600n);
    const s = subscription(chain.state, 's')!;
    assert.equal(s.dueAtMs, 1_000_000 + 3 * DAY);
    assert.equal(s.latestInvoice?.number, 2);
    chain.timeMs = 1_000_000 + 3 * DAY + 5; // a late block: the trigger charges first, the provider gets nothing more
    chain.block([]);
    expectCode(chain, BOB, [now], 'subscription_charge_not_due');
    assert.equal(balance(chain, ALICE), 9_400n);
  });

  it('billed in arrears: the provider waits for the period end; the subscriber may settle the running period once', () => {
    const chain = setup('Previous', DAY);
    chain.timeMs = 1_000_000 + DAY / 2;
    expectCode(chain, ALICE, [now], 'subscription_charge_not_due'); // the trial
    chain.timeMs = 1_000_000 + DAY + 1;
    expectCode(chain, BOB, [now], 'subscription_charge_not_due');
    expectCode(chain, ALICE, [now], 'Committed');
    expectCode(chain, ALICE, [now], 'subscription_charge_not_due');
    assert.equal(balance(chain, ALICE), 9_800n);
    expectCode(chain, ALICE, [{ kind: 'CancelSubscription', id: 's', atPeriodEnd: true }], 'Committed');
    chain.timeMs = 1_000_000 + 2 * DAY + 2; // the billing point of the period paid early: the next one
    chain.block([]);
    expectCode(chain, ALICE, [now], 'subscription_charge_not_due'); // canceling: nothing to pay early
  });
});
