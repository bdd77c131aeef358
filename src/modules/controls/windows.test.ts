import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CONTROL_WINDOWS } from './model.js';
import { bucketStart, parseWindowName, windowName } from './windows.js';

const utc = (y: number, m: number, d: number, h = 0, min = 0, s = 0, ms = 0) =>
  Date.UTC(y, m - 1, d, h, min, s, ms);

describe('transfer control buckets (UTC, block time)', () => {
  it('hours and days start on their UTC boundary', () => {
    const t = utc(2026, 11, 26, 7, 59, 59, 999);
    assert.equal(bucketStart('Hour', t), utc(2026, 11, 26, 7));
    assert.equal(bucketStart('Hour', t + 1), utc(2026, 11, 26, 8));
    assert.equal(bucketStart('Day', t), utc(2026, 11, 26));
    assert.equal(bucketStart('Day', utc(2026, 11, 27) - 1), utc(2026, 11, 26));
    assert.equal(bucketStart('Tx', t), 0);
  });

  it('weeks start on Monday 00:00, also before the first Monday of the epoch', () => {
    // 26 November 2026 is a Thursday; the 23rd a Monday; the 29th a Sunday.
    assert.equal(bucketStart('Week', utc(2026, 11, 26, 12)), utc(2026, 11, 23));
    assert.equal(bucketStart('Week', utc(2026, 11, 29, 23, 59)), utc(2026, 11, 23));
    assert.equal(bucketStart('Week', utc(2026, 11, 30)), utc(2026, 11, 30));
    // 1 January 1970 was a Thursday: its week began on Monday 29 December 1969.
    assert.equal(bucketStart('Week', 0), utc(1969, 12, 29));
  });

  it('months are calendar months (leap years, year ends)', () => {
    assert.equal(bucketStart('Month', utc(2028, 2, 29, 23, 59)), utc(2028, 2, 1));
    assert.equal(bucketStart('Month', utc(2028, 3, 1)), utc(2028, 3, 1));
    assert.equal(bucketStart('Month', utc(2026, 12, 31, 23, 59, 59, 999)), utc(2026, 12, 1));
    assert.equal(bucketStart('Month', utc(2027, 1, 1)), utc(2027, 1, 1));
  });

  it('window names round-trip; unknown names are refused', () => {
    for (const w of CONTROL_WINDOWS) assert.equal(parseWindowName(windowName(w)), w);
    assert.equal(parseWindowName('year'), undefined);
    assert.equal(parseWindowName('Day'), undefined);
  });
});
