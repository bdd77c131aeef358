// The profile table of docs/configuration.md ("Telemetry profiles") says which profiles serve each
// visibility class; it must say what profileAllows() does.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { profileAllows, TELEMETRY_PROFILES, type Visibility } from './profiles.js';

const DOC = new URL('../../docs/configuration.md', import.meta.url);
const CLASSES: readonly Visibility[] = ['public', 'status', 'metrics', 'developer', 'operator'];

/** class → profiles named in the "served under" cell of the section's table (every profile for "every profile"). */
function documentedTable(text: string): Map<string, string[]> {
  const start = text.indexOf('\n## Telemetry profiles\n');
  assert.ok(start >= 0, 'docs/configuration.md has no "Telemetry profiles" section');
  const section = text.slice(start, text.indexOf('\n## ', start + 1));
  const table = new Map<string, string[]>();
  for (const m of section.matchAll(/^\| `(\w+)` \| ([^|]+) \|/gm)) {
    const cell = m[2]!;
    const named = [...cell.matchAll(/`(\w+)`/g)].map((n) => n[1]!);
    table.set(m[1]!, cell.startsWith('every profile') ? [...TELEMETRY_PROFILES] : named);
  }
  return table;
}

describe('telemetry profiles', () => {
  it('docs/configuration.md lists, for each class, exactly the profiles that serve it', () => {
    const table = documentedTable(readFileSync(DOC, 'utf8'));
    assert.deepEqual([...table.keys()].sort(), [...CLASSES].sort());
    for (const c of CLASSES) {
      const served = TELEMETRY_PROFILES.filter((p) => profileAllows(p, c));
      assert.deepEqual(table.get(c), served, `class ${c}`);
    }
  });
});
