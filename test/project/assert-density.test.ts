// The core keeps its invariants asserted at the point of action (docs/design/architecture.md "Decisions that shape everything"): in
// consensus, pipeline and storage, at least one always-on assertion per function on average, as measured
// by scripts/assert-density.mjs. A change that adds functions without their invariants fails here.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';

const ROOT = new URL('../..', import.meta.url).pathname;
const FOLDERS = ['consensus', 'pipeline', 'storage'];
const PER_FUNCTION_MIN = 1;

interface Row {
  folder: string;
  functions: number;
  assertions: number;
  perFunction: number;
}

describe('assertion density of the core', () => {
  it(`consensus, pipeline and storage hold at least ${PER_FUNCTION_MIN} assertion per function`, () => {
    const out = execFileSync(process.execPath, ['scripts/assert-density.mjs', ...FOLDERS, '--json'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    const rows = JSON.parse(out.trim().split('\n').at(-1)!) as Row[];
    assert.deepEqual(
      rows.map((r) => r.folder),
      FOLDERS,
    );
    for (const r of rows) {
      assert.ok(r.functions > 0, `${r.folder}: no functions found`);
      assert.ok(
        r.perFunction >= PER_FUNCTION_MIN,
        `${r.folder}: ${r.assertions} assertions for ${r.functions} functions (${r.perFunction.toFixed(3)})`,
      );
    }
  });
});
