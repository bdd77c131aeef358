// The test runner's record of durations (scripts/test-runner.mjs, scripts/test-durations.mjs): every
// file's duration lands in the JSON record, the summary comes before the closing counts CI reads, a file
// over its budget is a warning (over 3× called out), and timing never changes the exit code. The budget
// table (scripts/test-budgets.json) names only files that exist. The tiers (scripts/test-tiers.json):
// `npm test` and `npm run test:integration` together run every test file outside test/reliability/, each
// exactly once, and `npm test` keeps a multi-process network.

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  BATCH_FILES_MAX,
  BATCH_TEST_FILES_MAX,
  batchFiles,
  OWN_PROCESS_MARKER,
  // @ts-expect-error: a plain ES module script without types
} from '../../scripts/test-batches.mjs';
// @ts-expect-error: a plain ES module script without types
import { fileTimeoutMs } from '../../scripts/test-durations.mjs';

const ROOT = new URL('../..', import.meta.url).pathname;
const RUNNER = join(ROOT, 'scripts/test-runner.mjs');

interface Record {
  files_run: number;
  wall_s: number;
  files: { [file: string]: { s: number; passed: boolean; budget_s?: number; timed_out?: boolean } };
}

function runRunner(cwd: string, args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--test-timeout=20000', RUNNER, ...args], {
      cwd,
      // Not NODE_TEST_CONTEXT: the runner must report as at the top, not as a child of this test.
      env: { ...process.env, NODE_OPTIONS: '', NODE_TEST_CONTEXT: undefined },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    // A runner that hangs (it did on a file cut off mid-report) fails its test instead of the whole
    // file's timeout: far above a run of these small files on a loaded machine (~10 s at load 20).
    const hung = setTimeout(() => {
      out += '\n[runner killed after 150 s]';
      child.kill('SIGKILL');
    }, 150_000);
    child.on('close', (code) => {
      clearTimeout(hung);
      resolve({ code, out });
    });
  });
}

describe('the per-file timeout', () => {
  it("is the tier's own up to 8 processes per core, stretched with the load above that, at most 4x", () => {
    assert.equal(fileTimeoutMs(480_000, 0.5, 2), 480_000);
    assert.equal(fileTimeoutMs(480_000, 16, 2), 480_000);
    assert.equal(fileTimeoutMs(480_000, 40, 2), 1_200_000);
    assert.equal(fileTimeoutMs(480_000, 40, 4), 600_000);
    assert.equal(fileTimeoutMs(480_000, 500, 2), 1_920_000);
  });
});

describe('the budget table', () => {
  it('names files that exist, each with a positive budget', () => {
    const table = JSON.parse(readFileSync(join(ROOT, 'scripts/test-budgets.json'), 'utf8')) as {
      default_s: number;
      files: { [file: string]: number };
    };
    assert.ok(table.default_s > 0);
    assert.ok(Object.keys(table.files).length > 0);
    for (const [file, s] of Object.entries(table.files)) {
      assert.ok(file.endsWith('.test.ts') && existsSync(join(ROOT, file)), `${file} exists`);
      assert.ok(s > 0, `${file}: ${s}`);
    }
  });
});

/** The files `node scripts/test.mjs --list …` would run. */
function listed(...args: string[]): string[] {
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts/test.mjs'), '--list', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.split('\n').filter((l) => l !== '');
}

describe('the tiers', () => {
  const table = JSON.parse(readFileSync(join(ROOT, 'scripts/test-tiers.json'), 'utf8')) as {
    integration: { [file: string]: string };
  };

  it('names files that exist, each with what it proves', () => {
    assert.ok(Object.keys(table.integration).length > 0);
    for (const [file, why] of Object.entries(table.integration)) {
      assert.ok(file.endsWith('.test.ts') && existsSync(join(ROOT, file)), `${file} exists`);
      assert.ok(!file.startsWith('test/reliability/'), `${file}: the reliability suite is its own tier`);
      assert.ok(why.length > 20, `${file}: say what it proves`);
    }
  });

  it('npm test and the integration tier run every test file outside test/reliability/ once', () => {
    const quick = listed();
    const integration = listed('--integration');
    assert.deepEqual([...integration].sort(), Object.keys(table.integration).sort());
    assert.deepEqual(
      quick.filter((f) => integration.includes(f)),
      [],
      'no file in both',
    );
    const every = listed('--only', '.test.ts');
    assert.deepEqual([...quick, ...integration].sort(), [...every].sort());
    assert.ok(every.every((f) => !f.startsWith('test/reliability/')));
    assert.ok(
      quick.some((f) => f.startsWith('test/network/')),
      'npm test keeps a network of validator processes',
    );
  });
});

describe('scripts/test-runner.mjs --durations', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'torana-runner-'));
    writeFileSync(join(dir, 'quick.test.mjs'), "import { it } from 'node:test';\nit('passes', () => {});\n");
    writeFileSync(
      join(dir, 'slow.test.mjs'),
      "import { it } from 'node:test';\nit('waits', () => new Promise((r) => setTimeout(r, 300)));\n",
    );
    writeFileSync(
      join(dir, 'fails.test.mjs'),
      "import assert from 'node:assert';\nimport { it } from 'node:test';\nit('fails', () => assert.equal(1, 2));\n",
    );
    // slow.test.mjs runs at least 0.3 s: far over 3× its budget; quick.test.mjs has the default.
    writeFileSync(
      join(dir, 'budgets.json'),
      JSON.stringify({ default_s: 60, files: { 'slow.test.mjs': 0.01 } }),
    );
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('records every file, warns over budget, and the exit code follows the tests only', async () => {
    const durations = join(dir, 'durations.json');
    const pass = await runRunner(dir, [
      '--durations',
      durations,
      '--budgets',
      'budgets.json',
      '2',
      'slow.test.mjs',
      'quick.test.mjs',
    ]);
    assert.equal(pass.code, 0, `over budget is not a failure:\n${pass.out}`);
    const record = JSON.parse(readFileSync(durations, 'utf8')) as Record;
    assert.equal(record.files_run, 2);
    // Slowest first, by the durations measured (on a loaded machine the quick file may take longer).
    assert.deepEqual(Object.keys(record.files).sort(), ['quick.test.mjs', 'slow.test.mjs']);
    const took = Object.values(record.files).map((f) => f.s);
    assert.deepEqual(
      took,
      [...took].sort((a, b) => b - a),
      `slowest first: ${JSON.stringify(record)}`,
    );
    assert.ok(record.files['slow.test.mjs']!.s >= 0.3, JSON.stringify(record));
    assert.deepEqual(
      [record.files['slow.test.mjs']!.passed, record.files['slow.test.mjs']!.budget_s],
      [true, 0.01],
    );
    assert.equal(record.files['quick.test.mjs']!.budget_s, 60);
    const lines = pass.out.split('\n');
    const summary = lines.findIndex((l) => /^# durations: 2 files, runner [\d.]+ s/.test(l));
    const counts = lines.findIndex((l) => /^# tests 2$/.test(l));
    assert.ok(summary >= 0 && counts > summary, `the summary precedes the closing counts:\n${pass.out}`);
    assert.ok(
      lines.some((l) => /^# warning: OVER 3x BUDGET: slow\.test\.mjs took [\d.]+ s, budget 0\.01 s/.test(l)),
    );
    assert.ok(
      !lines.some((l) => l.includes('quick.test.mjs took')),
      'a file within its budget is not warned about',
    );

    const fail = await runRunner(dir, ['--durations', durations, '--merge', '1', 'fails.test.mjs']);
    assert.equal(fail.code, 1);
    const merged = JSON.parse(readFileSync(durations, 'utf8')) as Record;
    assert.equal(merged.files['fails.test.mjs']!.passed, false);
    assert.ok(merged.files['slow.test.mjs'] !== undefined, '--merge keeps the files of the last run');
  });
});

/** `top/folder/name`. */
const at = (top: string, folder: string, name: string) => [top, folder, name].join('/');

describe('scripts/test-runner.mjs: a batch runs several files in one process', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'torana-runner-batch-'));
    // Each file notes the process it ran in.
    const note =
      "import { appendFileSync } from 'node:fs';\nappendFileSync('pids.txt', process.pid + '\\n');\n";
    writeFileSync(
      join(dir, 'a.test.mjs'),
      `${note}import { it } from 'node:test';\nit('passes', () => {});\n`,
    );
    writeFileSync(
      join(dir, 'b.test.mjs'),
      `${note}import assert from 'node:assert';\nimport { it } from 'node:test';\nit('fails', () => assert.equal(1, 2));\n`,
    );
    writeFileSync(
      join(dir, 'c.test.mjs'),
      `${note}import { it } from 'node:test';\nit('waits', () => new Promise((r) => setTimeout(r, 300)));\n`,
    );
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('records each file of the batch, names the failing one, and the exit code follows the tests', async () => {
    const durations = join(dir, 'durations.json');
    const r = await runRunner(dir, ['--durations', durations, '2', 'a.test.mjs+b.test.mjs+c.test.mjs']);
    assert.equal(r.code, 1, r.out);
    const pids = readFileSync(join(dir, 'pids.txt'), 'utf8').trim().split('\n');
    assert.equal(pids.length, 3);
    assert.equal(new Set(pids).size, 1, 'one process');
    const record = JSON.parse(readFileSync(durations, 'utf8')) as Record;
    assert.equal(record.files_run, 3);
    assert.deepEqual(
      Object.entries(record.files)
        .map(([f, v]) => `${f} ${v.passed}`)
        .sort(),
      ['a.test.mjs true', 'b.test.mjs false', 'c.test.mjs true'],
    );
    assert.ok(record.files['c.test.mjs']!.s >= 0.3, JSON.stringify(record));
    assert.ok(
      r.out.split('\n').some((l) => /^not ok \d+ - b\.test\.mjs$/.test(l)),
      `the failure names its file:\n${r.out}`,
    );
  });

  it('test.mjs batches the small files under src/ and test/ by folder, those starting a child process too, never a budgeted or marked one', () => {
    const files = [
      at('src', 'a', 'slow.test.ts'),
      ...Array.from({ length: 22 }, (_, i) => at('src', 'a', `f${String(i).padStart(2, '0')}.test.ts`)),
      at('src', 'b', 'one.test.ts'),
      at('test', 'x', 'e2e.test.ts'),
      at('src', 'c', 'marked.test.ts'),
      at('src', 'c', 'plain.test.ts'),
      at('src', 'c', 'other.test.ts'),
      ...Array.from({ length: 7 }, (_, i) => at('test', 'y', `g${i}.test.ts`)),
      at('test', 'y', 'spawns.test.ts'),
      at('test', 'y', 'helped.test.ts'),
      at('test', 'y', 'marked-spawns.test.ts'),
    ];
    // What a file of test/y holds: a child process of its own, or through a helper of test/ (and the
    // marker, for one of them).
    const text = (f: string) =>
      f.includes('marked')
        ? `// ${OWN_PROCESS_MARKER}: a global\nimport { spawn } from 'node:child_process';\n`
        : f.endsWith('spawns.test.ts')
          ? "import { spawn } from 'node:child_process';\n"
          : f.endsWith('helped.test.ts')
            ? "import { startChild } from '../helpers/child.js';\n"
            : '\n';
    // Paths built from parts: they name files of the temporary root, not of the repository.
    const root = mkdtempSync(join(tmpdir(), 'torana-batches-'));
    try {
      for (const f of files) {
        mkdirSync(dirname(join(root, f)), { recursive: true });
        writeFileSync(join(root, f), text(f));
      }
      mkdirSync(join(root, 'test', 'helpers'));
      writeFileSync(
        join(root, 'test', 'helpers', 'child.ts'),
        "export { startChild } from './spawner.js';\n",
      );
      writeFileSync(
        join(root, 'test', 'helpers', 'spawner.ts'),
        "import { fork } from 'node:child_process';\nexport const startChild = () => fork('x');\n",
      );
      const out = batchFiles(root, files, new Set([at('src', 'a', 'slow.test.ts')]));
      const a = files.slice(1, 23);
      const y = files.slice(28, 35);
      assert.equal(BATCH_FILES_MAX, 20);
      assert.equal(BATCH_TEST_FILES_MAX, 5);
      assert.deepEqual(out, [
        at('src', 'a', 'slow.test.ts'),
        a.slice(0, 20).join('+'),
        a.slice(20).join('+'),
        at('src', 'b', 'one.test.ts'),
        at('test', 'x', 'e2e.test.ts'),
        at('src', 'c', 'marked.test.ts'),
        `${at('src', 'c', 'plain.test.ts')}+${at('src', 'c', 'other.test.ts')}`,
        y.slice(0, 5).join('+'),
        // A file that starts a child process, itself or through a helper, is batched like the others:
        // its children start afresh either way, and its own process no longer pays the start-up alone.
        [...y.slice(5), at('test', 'y', 'spawns.test.ts'), at('test', 'y', 'helped.test.ts')].join('+'),
        at('test', 'y', 'marked-spawns.test.ts'),
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('scripts/test-runner.mjs: each member of a batch keeps its own tests', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'torana-runner-members-'));
    // A helper with a top-level await, imported by the first and the third member: imported all at
    // once, the third member's module is evaluated in the continuation of the first's import.
    writeFileSync(
      join(dir, 'shared.mjs'),
      'await new Promise((r) => setTimeout(r, 200));\nexport const x = 1;\n',
    );
    writeFileSync(
      join(dir, 'a.test.mjs'),
      "import './shared.mjs';\nimport { describe, it } from 'node:test';\ndescribe('a suite', () => { it('a test', () => new Promise((r) => setTimeout(r, 300))); });\n",
    );
    writeFileSync(
      join(dir, 'b.test.mjs'),
      "import { describe, it } from 'node:test';\ndescribe('b suite', () => { it('b test', () => {}); });\n",
    );
    writeFileSync(
      join(dir, 'c.test.mjs'),
      "import './shared.mjs';\nimport { it } from 'node:test';\nit('c test', () => {});\n",
    );
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('a member that shares a slow helper with an earlier one reports its tests under its own file', async () => {
    const durations = join(dir, 'durations.json');
    const r = await runRunner(dir, ['--durations', durations, '1', 'a.test.mjs+b.test.mjs+c.test.mjs']);
    assert.equal(r.code, 0, r.out);
    // The TAP report: each member's test sits between its file's `# Subtest:` line and its `ok` line.
    const lines = r.out.split('\n');
    const within = (file: string, test: string) => {
      const start = lines.indexOf(`# Subtest: ${file}`);
      const end = lines.findIndex((l) => new RegExp(`^ok \\d+ - ${file.replace('.', '\\.')}$`).test(l));
      const at = lines.findIndex((l) => l.trim() === `# Subtest: ${test}`);
      return start >= 0 && start < at && at < end;
    };
    for (const [file, test] of [
      ['a.test.mjs', 'a test'],
      ['b.test.mjs', 'b test'],
      ['c.test.mjs', 'c test'],
    ] as const)
      assert.ok(within(file, test), `${test} is reported under ${file}:\n${r.out}`);
  });
});

describe('scripts/test-runner.mjs: a file ends when its tests are done', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'torana-runner-exit-'));
    // Its test passes at once but leaves an interval behind: its event loop never empties.
    writeFileSync(
      join(dir, 'leaves-a-timer.test.mjs'),
      "import { it } from 'node:test';\nit('passes', () => { setInterval(() => {}, 1_000); });\n",
    );
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('a file that leaves a timer behind passes instead of running into the per-file timeout', async () => {
    const durations = join(dir, 'durations.json');
    // runRunner's per-file timeout is 20 s: a file that only ends when its event loop empties times out.
    const r = await runRunner(dir, ['--durations', durations, '1', 'leaves-a-timer.test.mjs']);
    assert.equal(r.code, 0, r.out);
    const record = JSON.parse(readFileSync(durations, 'utf8')) as Record;
    assert.deepEqual(record.files['leaves-a-timer.test.mjs'], {
      s: record.files['leaves-a-timer.test.mjs']!.s,
      passed: true,
    });
  });
});

describe('scripts/test-runner.mjs: the report keeps a file’s last tests', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'torana-runner-flush-'));
    // A long failure message takes the report's serializer a while: under the force exit alone the
    // process ended before it and the test after it were reported (only the file failed, unnamed).
    writeFileSync(
      join(dir, 'fails-last.test.mjs'),
      [
        "import assert from 'node:assert';",
        "import { it } from 'node:test';",
        "it('passes first', () => {});",
        "it('fails with a long message', () => assert.equal('a'.repeat(300_000), 'b'));",
        "it('passes after it', () => {});",
      ].join('\n'),
    );
    // A child process started with the test process's own flags is not a test file: its output stays
    // its own (no report of a test file of its own).
    writeFileSync(join(dir, 'child.mjs'), "process.stdout.write('plain\\n');\n");
    writeFileSync(
      join(dir, 'spawns.test.mjs'),
      [
        "import assert from 'node:assert';",
        "import { execFileSync } from 'node:child_process';",
        "import { it } from 'node:test';",
        "it('a child keeps its output', () => {",
        "  const out = execFileSync(process.execPath, [...process.execArgv, 'child.mjs'], { encoding: 'utf8' });",
        "  assert.equal(out, 'plain\\n');",
        '});',
      ].join('\n'),
    );
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reports every test of a file whose last tests end with a long failure, alone and in a batch', async () => {
    for (const files of [['fails-last.test.mjs'], ['spawns.test.mjs+fails-last.test.mjs']]) {
      const r = await runRunner(dir, ['1', ...files]);
      assert.equal(r.code, 1, r.out);
      const lines = r.out.split('\n');
      for (const name of ['passes first', 'passes after it'])
        assert.ok(
          lines.some((l) => new RegExp(`^\\s*ok \\d+ - ${name}$`).test(l)),
          `${files}: ${name} reported:\n${r.out.slice(0, 3_000)}`,
        );
      assert.ok(
        lines.some((l) => /^\s*not ok \d+ - fails with a long message$/.test(l)),
        `${files}: the failure named:\n${r.out.slice(0, 3_000)}`,
      );
      assert.ok(lines.includes(`# tests ${files[0]!.includes('+') ? 4 : 3}`), r.out.slice(-2_000));
    }
  });

  it('a child process a test starts with its own flags reports nothing of its own', async () => {
    const r = await runRunner(dir, ['1', 'spawns.test.mjs']);
    assert.equal(r.code, 0, r.out);
  });
});
