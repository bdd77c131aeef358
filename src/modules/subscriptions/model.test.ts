import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nextBoundary, planProblem } from './model.js';

const utc = (y: number, m: number, d: number, h = 0) => Date.UTC(y, m - 1, d, h);

describe('billing periods', () => {
  it('monthly anchors clamp to the month length and never drift', () => {
    const c = { kind: 'MonthlyCalendar' as const, anchorDay: 31, anchorTimeMs: 0 };
    let t = utc(2028, 1, 10);
    const seen: number[] = [];
    for (let i = 0; i < 5; i++) {
      t = nextBoundary(c, t);
      seen.push(t);
    }
    assert.deepEqual(seen, [
      utc(2028, 1, 31),
      utc(2028, 2, 29),
      utc(2028, 3, 31),
      utc(2028, 4, 30),
      utc(2028, 5, 31),
    ]);
    assert.equal(nextBoundary(c, utc(2029, 1, 31)), utc(2029, 2, 28));
    assert.equal(nextBoundary(c, utc(2029, 12, 31)), utc(2030, 1, 31));
    // Exactly at an anchor: the next one; just before it: that one.
    const d1 = { kind: 'MonthlyCalendar' as const, anchorDay: 1, anchorTimeMs: 3_600_000 };
    assert.equal(nextBoundary(d1, utc(2028, 3, 1, 1)), utc(2028, 4, 1, 1));
    assert.equal(nextBoundary(d1, utc(2028, 3, 1, 1) - 1), utc(2028, 3, 1, 1));
    assert.equal(nextBoundary({ kind: 'FixedPeriod', periodMs: 5000 }, 1000), 6000);
  });

  it('plans out of range are refused with the field named', () => {
    const base = {
      billing: {
        cadence: { kind: 'MonthlyCalendar' as const, anchorDay: 1, anchorTimeMs: 0 },
        billFor: { kind: 'Current' as const },
        retryBackoffMs: 1,
        maxFailures: 1,
        graceMs: 0,
      },
      pricing: { kind: 'Fixed' as const, amount: { mantissa: 1n, scale: 0 }, assetDefinition: 'a#b' },
      trialMs: 0,
    };
    assert.equal(planProblem(base), undefined);
    const cadence = (c: typeof base.billing.cadence | { kind: 'FixedPeriod'; periodMs: number }) =>
      planProblem({ ...base, billing: { ...base.billing, cadence: c } });
    assert.match(cadence({ kind: 'MonthlyCalendar', anchorDay: 32, anchorTimeMs: 0 })!, /anchor_day/);
    assert.match(
      cadence({ kind: 'MonthlyCalendar', anchorDay: 1, anchorTimeMs: 86_400_000 })!,
      /anchor_time_ms/,
    );
    assert.match(cadence({ kind: 'FixedPeriod', periodMs: 999 })!, /period_ms/);
    assert.match(planProblem({ ...base, billing: { ...base.billing, maxFailures: 0 } })!, /max_failures/);
    const free = { ...base, pricing: { ...base.pricing, amount: { mantissa: 0n, scale: 0 } } };
    assert.match(planProblem(free)!, /price/);
  });
});
