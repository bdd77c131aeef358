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
} from '../../test/fixtures/state/state-fixture.js';
import type { Instruction } from '../model/instructions.js';
import { subscription, trigger } from './subscription-reads.js';
import { WorldState } from './world-state.js';

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
    assert.equal(trigger(chain.state, '$sub:s')?.authority, ALICE);
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
    assert.equal(trigger(chain.state, '$sub:s'), undefined);
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
