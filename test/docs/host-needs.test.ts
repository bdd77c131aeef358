import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { decisionHere, namespacePrefix, removeNamespaces, unmet } from './host-needs.js';

describe('doc example host needs', () => {
  it('a run needs="netns" block runs as root with ip netns, else is a skip saying why', () => {
    const why = unmet('netns');
    const d = decisionHere({ kind: 'run', needs: 'netns' });
    if (why === undefined) assert.deepEqual(d, { kind: 'run', needs: 'netns' });
    else {
      assert.equal(d.kind, 'skip');
      assert.match(
        (d as { reason: string }).reason,
        /^needs root and Linux network namespaces \(ip netns\): /,
      );
    }
    console.log(`netns here: ${why ?? 'available'}`);
    assert.deepEqual(decisionHere({ kind: 'run' }), { kind: 'run' });
  });

  it('prefixes are unique and never those of test:hosts or the page default', () => {
    const a = namespacePrefix();
    const b = namespacePrefix();
    assert.notEqual(a, b);
    for (const p of [a, b]) {
      assert.match(p, /^tdoc\d+x[0-9a-f]{6}-$/);
      assert.ok(!p.startsWith('thost-') && !p.startsWith('demo-'));
    }
  });

  it('removes the namespaces of its prefix only', { skip: unmet('netns') }, () => {
    const p = namespacePrefix();
    const other = `${namespacePrefix()}keep`;
    for (const ns of [`${p}sw`, `${p}m1`, other]) spawnSync('ip', ['netns', 'add', ns]);
    try {
      assert.deepEqual(removeNamespaces(p).sort(), [`${p}m1`, `${p}sw`]);
      const left = spawnSync('ip', ['netns', 'list'], { encoding: 'utf8' }).stdout;
      assert.ok(!left.includes(p) && left.includes(other));
    } finally {
      spawnSync('ip', ['netns', 'del', other]);
    }
  });
});
