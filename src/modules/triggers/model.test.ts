import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dueBound, dueKey, nextDue } from './model.js';

describe('trigger due keys', () => {
  it('sort by kind, due value and id; the bound admits exactly the due ones', () => {
    const keys = [
      dueKey({ kind: 'Time', timeMs: 20 }, 'a'),
      dueKey({ kind: 'Height', height: 10 }, 'b'),
      dueKey({ kind: 'Height', height: 9 }, 'z'),
      dueKey({ kind: 'Height', height: 10 }, 'a'),
    ].sort();
    assert.deepEqual(keys, [
      `h:${'9'.padStart(20, '0')}:z`,
      `h:${'10'.padStart(20, '0')}:a`,
      `h:${'10'.padStart(20, '0')}:b`,
      `t:${'20'.padStart(20, '0')}:a`,
    ]);
    assert.ok(keys[2]! < dueBound('h', 10) && dueBound('h', 9) < keys[1]!);
  });

  it('repeats keep their schedule and skip missed slots', () => {
    const t = { kind: 'Time' as const, timeMs: 1000 };
    assert.deepEqual(nextDue(t, { kind: 'EveryMs', ms: 100 }, 5, 1000), { kind: 'Time', timeMs: 1100 });
    assert.deepEqual(nextDue(t, { kind: 'EveryMs', ms: 100 }, 5, 1350), { kind: 'Time', timeMs: 1400 });
    assert.deepEqual(nextDue(t, { kind: 'EveryBlocks', blocks: 3 }, 5, 1350), { kind: 'Height', height: 8 });
    assert.equal(nextDue(t, undefined, 5, 1350), undefined);
  });
});
