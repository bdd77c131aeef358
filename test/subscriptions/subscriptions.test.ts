// Subscriptions through a served node on a fast block clock (docs/subscriptions.md):
// a monthly plan charges on schedule for 15 periods across a leap February
// and short months; an insufficient balance records failed charges that are retried per the plan, then
// succeed after a top-up, and later go suspended; pause, resume, cancel (now and at period end), keep and
// usage billing behave; the invoices are reproduced exactly by re-executing the chain, and `torana
// rebuild` gives the same state root.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { EventEnvelope } from '../../src/model/events.js';
import type { Instruction } from '../../src/model/instructions.js';
import { numeric } from '../../src/model/numeric.js';
import { replayCommittedEvents } from '../../src/node/replay-events.js';
import { toHex } from '../../src/util/hex.js';
import { waitFor } from '../gateway/stream-clients.js';
import { runCli as cli } from '../helpers/cli-in-process.js';
import {
  alice,
  bob,
  type ClockFixture,
  carol,
  type J,
  startClockFixture,
  USD,
  usd,
} from '../triggers/fixture.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const utc = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d);

type Plan = Extract<Instruction, { kind: 'RegisterSubscriptionPlan' }>;
const fixedPlan = (
  id: string,
  cadence: Plan['billing']['cadence'],
  amount: string,
  extra: Partial<Plan['billing']> = {},
): Instruction => ({
  kind: 'RegisterSubscriptionPlan',
  id,
  billing: {
    cadence,
    billFor: { kind: 'Current' },
    retryBackoffMs: HOUR,
    maxFailures: 3,
    graceMs: 0,
    ...extra,
  },
  pricing: { kind: 'Fixed', amount: numeric(amount), assetDefinition: USD },
  trialMs: 0,
});

describe('subscriptions (served node, fast block clock)', () => {
  let f: ClockFixture;
  before(async () => {
    f = await startClockFixture();
  });
  after(async () => {
    await f.t.stopAll();
  });

  const sub = async (id: string) => (await f.get(`/v1/subscriptions/${id}`)).body as J;
  /** Waits until subscription `id` has made `n` charge attempts. */
  const attempts = (id: string, n: number) =>
    waitFor(
      `${id} attempt ${n}`,
      () => (f.t.node.ledger.state.tables.subscription.get(id)?.latestInvoice?.number ?? 0) >= n,
    );

  it('a monthly plan charges on schedule for 15 periods (leap February, 30- and 31-day months)', async () => {
    const monthly = { kind: 'MonthlyCalendar' as const, anchorDay: 31, anchorTimeMs: 6 * HOUR };
    assert.equal((await f.tx(carol, [fixedPlan('monthly', monthly, '10.00')])).code, 'Committed');
    f.clock.jumpTo(utc(2027, 12, 15));
    assert.equal((await f.tx(alice, [{ kind: 'Subscribe', id: 'm1', plan: 'monthly' }])).code, 'Committed');
    // Billed in advance: the first (partial) period is charged in the subscribing block.
    await attempts('m1', 1);
    const expected = [
      utc(2027, 12, 31),
      utc(2028, 1, 31),
      utc(2028, 2, 29),
      utc(2028, 3, 31),
      utc(2028, 4, 30),
      utc(2028, 5, 31),
      utc(2028, 6, 30),
      utc(2028, 7, 31),
      utc(2028, 8, 31),
      utc(2028, 9, 30),
      utc(2028, 10, 31),
      utc(2028, 11, 30),
      utc(2028, 12, 31),
      utc(2029, 1, 31),
      utc(2029, 2, 28),
    ].map((t) => t + 6 * HOUR);
    const periods: [number, number][] = [];
    periods.push([(await sub('m1')).invoice.period_start_ms, (await sub('m1')).invoice.period_end_ms]);
    for (let i = 0; i < 14; i++) {
      f.clock.jumpTo(expected[i]!);
      await attempts('m1', i + 2);
      const inv = (await sub('m1')).invoice;
      assert.equal(inv.status.kind, 'Paid');
      periods.push([inv.period_start_ms, inv.period_end_ms]);
    }
    assert.deepEqual(
      periods.slice(1),
      expected.slice(0, 14).map((t, i) => [t, expected[i + 1]!]),
    );
    assert.equal(periods[0]![1], expected[0]);
    const item = await sub('m1');
    assert.equal(item.subscription.status.kind, 'Active');
    assert.equal(item.subscription.next_charge_ms, expected[14]);
    assert.equal(item.plan.id, 'monthly');
    assert.equal(f.balance(carol), '150.00');
    assert.equal(f.balance(alice), '850.00');
  });

  it('a failed charge is recorded with its reason and retried; a top-up pays; repeated failures suspend', async () => {
    const daily = { kind: 'FixedPeriod' as const, periodMs: DAY };
    assert.equal((await f.tx(carol, [fixedPlan('daily25', daily, '25.00')])).code, 'Committed');
    const start = f.clock.nowMs();
    const s = await f.tx(bob, [{ kind: 'Subscribe', id: 'b1', plan: 'daily25' }]);
    assert.equal(s.code, 'Committed');
    await attempts('b1', 1);
    let item = await sub('b1');
    assert.equal(item.invoice.status.kind, 'Failed');
    assert.equal(item.invoice.status.reason, 'insufficient_funds');
    assert.equal(item.subscription.status.kind, 'PastDue');
    assert.equal(item.subscription.failure_count, 1);
    const firstDue = item.subscription.due_at_ms;
    assert.ok(firstDue >= start);
    f.clock.jump(HOUR);
    await attempts('b1', 2);
    assert.equal((await sub('b1')).subscription.failure_count, 2);
    // Top-up, then the next retry pays and billing returns to the schedule.
    const mint = { kind: 'MintAsset' as const, asset: usd(bob), amount: numeric('30.00') };
    assert.equal((await f.tx(f.t.admin, [mint])).code, 'Committed');
    f.clock.jump(HOUR);
    await attempts('b1', 3);
    item = await sub('b1');
    assert.equal(item.invoice.status.kind, 'Paid');
    assert.equal(item.subscription.status.kind, 'Active');
    assert.equal(item.subscription.failure_count, 0);
    assert.equal(item.subscription.next_charge_ms, firstDue + DAY);
    assert.equal(f.balance(bob), '5.00');
    // 5.00 left: three failures, one an hour, then suspended and the billing trigger gone.
    f.clock.jumpTo(firstDue + DAY);
    await attempts('b1', 4);
    f.clock.jump(HOUR);
    await attempts('b1', 5);
    assert.equal((await sub('b1')).subscription.status.kind, 'PastDue');
    f.clock.jump(HOUR);
    await attempts('b1', 6);
    item = await sub('b1');
    assert.equal(item.subscription.status.kind, 'Suspended');
    assert.equal(item.subscription.failure_count, 3);
    assert.equal((await f.get(`/v1/triggers/${encodeURIComponent('$sub:b1')}`)).status, 404);
    const listed = await f.get(`/v1/subscriptions?status=suspended&owned_by=${encodeURIComponent(bob.id)}`);
    assert.deepEqual(
      listed.body.items.map((i: J) => i.subscription_id),
      ['b1'],
    );
    assert.equal(listed.body.total, 1);
  });

  it('pause, resume, cancel at period end, keep, cancel now, usage billing; refusals', async () => {
    const daily = { kind: 'FixedPeriod' as const, periodMs: DAY };
    assert.equal((await f.tx(carol, [fixedPlan('daily1', daily, '1.00')])).code, 'Committed');
    assert.equal((await f.tx(alice, [{ kind: 'Subscribe', id: 'p1', plan: 'daily1' }])).code, 'Committed');
    await attempts('p1', 1);
    assert.equal((await f.tx(bob, [{ kind: 'PauseSubscription', id: 'p1' }])).code, 'permission_denied');
    assert.equal(
      (await f.tx(alice, [{ kind: 'ChargeSubscription', id: 'p1' }])).code,
      'subscription_charge_not_allowed',
    );
    assert.equal((await f.tx(alice, [{ kind: 'PauseSubscription', id: 'p1' }])).code, 'Committed');
    assert.equal((await sub('p1')).subscription.status.kind, 'Paused');
    const h = f.t.node.ledger.height();
    f.clock.jump(2 * DAY);
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(f.t.node.ledger.height(), h, 'a paused subscription is not charged');
    assert.equal(
      (await f.tx(alice, [{ kind: 'ChargeSubscriptionNow', id: 'p1' }])).code,
      'subscription_invalid_state',
    );
    // Resume: billing restarts at the resuming block (charged there); the paused days are not charged.
    assert.equal((await f.tx(alice, [{ kind: 'ResumeSubscription', id: 'p1' }])).code, 'Committed');
    await attempts('p1', 2);
    const resumed = await sub('p1');
    assert.equal(resumed.subscription.status.kind, 'Active');
    assert.equal(resumed.invoice.period_end_ms - resumed.invoice.period_start_ms, DAY);
    assert.ok(resumed.subscription.next_charge_ms > f.clock.nowMs());
    const cancelAtEnd: Instruction = { kind: 'CancelSubscription', id: 'p1', atPeriodEnd: true };
    assert.equal((await f.tx(alice, [cancelAtEnd])).code, 'Committed');
    assert.equal((await sub('p1')).subscription.cancel_at_period_end, true);
    assert.equal((await f.tx(alice, [{ kind: 'KeepSubscription', id: 'p1' }])).code, 'Committed');
    assert.equal((await sub('p1')).subscription.cancel_at_period_end, false);
    assert.equal((await f.tx(carol, [cancelAtEnd])).code, 'Committed');
    f.clock.jumpTo((await sub('p1')).subscription.next_charge_ms);
    await waitFor(
      'p1 canceled',
      () => f.t.node.ledger.state.tables.subscription.get('p1')?.status.kind === 'Canceled',
    );
    assert.equal((await sub('p1')).invoice.number, 2, 'no charge for the period after the cancellation');
    assert.equal((await f.tx(alice, [{ kind: 'Subscribe', id: 'p2', plan: 'daily1' }])).code, 'Committed');
    assert.equal(
      (await f.tx(alice, [{ kind: 'CancelSubscription', id: 'p2', atPeriodEnd: false }])).code,
      'Committed',
    );
    assert.equal((await sub('p2')).subscription.status.kind, 'Canceled');
    assert.equal(
      (await f.tx(alice, [{ kind: 'KeepSubscription', id: 'p2' }])).code,
      'subscription_invalid_state',
    );
    // Usage: billed in arrears at unit price × units recorded by the provider, then reset.
    const metered: Instruction = {
      kind: 'RegisterSubscriptionPlan',
      id: 'metered',
      billing: {
        cadence: daily,
        billFor: { kind: 'Previous' },
        retryBackoffMs: HOUR,
        maxFailures: 3,
        graceMs: DAY,
      },
      pricing: { kind: 'Usage', unitPrice: numeric('0.05'), unitKey: 'calls', assetDefinition: USD },
      trialMs: 0,
    };
    assert.equal((await f.tx(carol, [metered])).code, 'Committed');
    assert.equal((await f.tx(alice, [{ kind: 'Subscribe', id: 'u1', plan: 'metered' }])).code, 'Committed');
    const usage = (units: string): Instruction => ({
      kind: 'RecordSubscriptionUsage',
      id: 'u1',
      unitKey: 'calls',
      units: numeric(units),
    });
    assert.equal((await f.tx(alice, [usage('5')])).code, 'permission_denied');
    assert.equal(
      (await f.tx(carol, [{ ...usage('5'), unitKey: 'bytes' } as Instruction])).code,
      'subscription_usage_not_allowed',
    );
    assert.equal((await f.tx(carol, [usage('60'), usage('40')])).code, 'Committed');
    const before = f.balance(carol);
    f.clock.jumpTo((await sub('u1')).subscription.next_charge_ms);
    await attempts('u1', 1);
    const u = await sub('u1');
    assert.equal(u.invoice.amount, '5.00');
    assert.equal(u.subscription.usage_accumulated, '0');
    assert.equal(Number(f.balance(carol)) - Number(before), 5);
    const plans = await f.get(`/v1/subscriptions/plans?provider=${encodeURIComponent(carol.id)}`);
    assert.deepEqual(
      plans.body.items.map((p: J) => p.id),
      ['daily1', 'daily25', 'metered', 'monthly'],
    );
    assert.equal((await f.get('/v1/subscriptions?status=bogus')).status, 400);
    assert.equal((await f.get('/v1/subscriptions/nope')).status, 404);
  });

  it('re-executing the chain reproduces every invoice; rebuild gives the same state root', async () => {
    const replayed: EventEnvelope[] = [];
    await replayCommittedEvents(f.t.node, 0, (events) => replayed.push(...events));
    const live = f.t.node.pipeline.events.since(0);
    assert.notEqual(live, 'gone');
    const invoices = (es: EventEnvelope[]) =>
      es
        .filter((e) => e.event.kind === 'Data' && e.event.data.kind === 'SubscriptionInvoiced')
        .map((e) =>
          JSON.stringify([e.id, e.event], (_k, v) =>
            typeof v === 'bigint' ? String(v) : v instanceof Uint8Array ? toHex(v) : v,
          ),
        );
    const fromReplay = invoices(replayed);
    assert.ok(fromReplay.length >= 24, `${fromReplay.length} invoices`);
    assert.deepEqual(fromReplay, invoices(live as EventEnvelope[]));
    const { t } = f;
    const root = toHex(t.node.ledger.state.stateRoot());
    await t.node.stop();
    const rebuilt = await cli(['rebuild', '--dir', t.dir, '--json']);
    assert.equal(rebuilt.code, 0, rebuilt.err);
    assert.equal(JSON.parse(rebuilt.out).state_root, root);
    const node = await t.restart();
    assert.equal(toHex(node.ledger.state.stateRoot()), root);
    assert.equal(node.ledger.state.tables.subscription.get('m1')?.latestInvoice?.number, 15);
  });
});
