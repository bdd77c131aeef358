import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import {
  crashingFailPoints,
  FAILPOINT_ENV,
  failPointsFromEnv,
  noFailPoints,
  parseFailPointSpec,
  recordingFailPoints,
} from './failpoints.js';

describe('fail points', () => {
  it('parses <name>:<n> and rejects everything else', () => {
    assert.deepEqual(parseFailPointSpec('blocklog.after-write:3'), { name: 'blocklog.after-write', nth: 3 });
    for (const bad of ['blocklog', 'x:0', 'x:-1', ':2', 'x:1.5', 'x:', 'X Y:1', 'x:01']) {
      assert.equal(parseFailPointSpec(bad), undefined, bad);
    }
  });

  it('crashes exactly on the n-th hit of its own name', () => {
    let crashes = 0;
    const fp = crashingFailPoints({ name: 'a', nth: 3 }, () => {
      crashes += 1;
    });
    fp.hit('a');
    fp.hit('b');
    fp.hit('a');
    assert.equal(crashes, 0);
    fp.hit('a');
    assert.equal(crashes, 1);
    fp.hit('a');
    assert.equal(crashes, 1);
  });

  it('keeps separate counters per instance', () => {
    let crashes = 0;
    const one = crashingFailPoints({ name: 'a', nth: 2 }, () => crashes++);
    const two = crashingFailPoints({ name: 'a', nth: 2 }, () => crashes++);
    one.hit('a');
    two.hit('a');
    assert.equal(crashes, 0);
  });

  it('records hits in order', () => {
    const fp = recordingFailPoints();
    fp.hit('x');
    fp.hit('y');
    assert.deepEqual(fp.names, ['x', 'y']);
  });

  it('is a no-op when the variable is unset, and refuses a malformed one', () => {
    assert.equal(failPointsFromEnv({}), noFailPoints);
    assert.throws(() => failPointsFromEnv({ [FAILPOINT_ENV]: 'nonsense' }), /TORANA_FAILPOINT/);
  });

  it('kills its own process with SIGKILL on the armed hit', () => {
    const url = new URL('./failpoints.ts', import.meta.url).href;
    const script = [
      `const { failPointsFromEnv } = await import(${JSON.stringify(url)});`,
      'const fp = failPointsFromEnv(process.env);',
      "fp.hit('step'); process.stdout.write('first\\n');",
      "fp.hit('step'); process.stdout.write('survived\\n');",
    ].join('\n');
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      env: { ...process.env, [FAILPOINT_ENV]: 'step:2' },
      encoding: 'utf8',
    });
    assert.equal(r.signal, 'SIGKILL', r.stderr);
    assert.equal(r.stdout, 'first\n');
  });
});
