// The crash scenarios shared by the short tests (test/crash/, inside `npm test`) and the long ones
// (test/reliability/): random kills under load, and a crash at each named persistence step.

import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import {
  AnnouncedHistory,
  assertRecovered,
  checkRecovery,
  figureLine,
  type RecoveryReport,
} from './check.js';
import { type ChildRun, makeNodeDir, runCrashChild } from './harness.js';
import { seededRandom } from './workload.js';

/** The persistence steps of src/storage/README.md "Fail points" that a running node passes through. */
export const PERSISTENCE_FAILPOINTS = [
  'blocklog.segment-created',
  'blocklog.before-write',
  'blocklog.mid-write',
  'blocklog.after-write',
  'blocklog.after-fsync',
  'state.before-commit',
  'state.mid-transaction',
  'state.after-commit',
] as const;

/** With 10 % overdrafts, this many announcements without one rejection means a broken workload. */
const OVERDRAFT_CHECK_MIN_TXS = 200;

export interface Tally {
  kills: number;
  history: AnnouncedHistory;
  last: RecoveryReport | undefined;
}

function describeRun(run: ChildRun): string {
  return `signal ${run.signal} code ${run.code} timedOut ${run.timedOut} stderr: ${run.stderr.slice(-2000)}`;
}

/** One child run on `dir`, then the full recovery check; `label` names seed and round in failures. */
async function roundTrip(
  dir: string,
  tally: Tally,
  label: string,
  run: ChildRun,
  expect: 'parent-kill' | 'fail-point',
): Promise<RecoveryReport> {
  assert.equal(
    run.timedOut,
    false,
    `${label}: child neither died nor was killed in time; ${describeRun(run)}`,
  );
  assert.equal(run.signal, 'SIGKILL', `${label}: child was not killed; ${describeRun(run)}`);
  assert.equal(run.killedByParent, expect === 'parent-kill', `${label}: killed by the wrong party`);
  tally.kills++;
  tally.history.add(run);
  const report = await checkRecovery(dir, tally.history);
  assertRecovered(report, tally.history, label);
  tally.last = report;
  return report;
}

async function withDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await makeNodeDir();
  const result = await fn(dir).catch((e: unknown) => {
    // Keep the directory of a failing run for inspection.
    throw new Error(`${String(e)}\n(node directory kept at ${dir})`, { cause: e });
  });
  await rm(dir, { recursive: true, force: true });
  return result;
}

/**
 * `rounds` times: start the child on the same directory, SIGKILL it a random delay after its first
 * announcement (seeded, printed), reopen and check. Returns the figure line.
 */
export function killRounds(opts: {
  rounds: number;
  seed: number;
  killAfterMinMs: number;
  killAfterMaxMs: number;
}): Promise<string> {
  return withDir(async (dir) => {
    const random = seededRandom(opts.seed);
    const tally: Tally = { kills: 0, history: new AnnouncedHistory(), last: undefined };
    for (let round = 0; round < opts.rounds; round++) {
      const span = opts.killAfterMaxMs - opts.killAfterMinMs;
      const killAfterMs = opts.killAfterMinMs + Math.floor(random() * span);
      const label = `seed ${opts.seed} round ${round} (kill after ${killAfterMs} ms)`;
      const run = await runCrashChild(dir, { seed: opts.seed + round, killAfterMs });
      assert.ok(run.announced.length > 0, `${label}: nothing announced; ${describeRun(run)}`);
      await roundTrip(dir, tally, label, run, 'parent-kill');
    }
    // The workload asks for overdrafts on purpose; if none was ever rejected it did not run as meant.
    if (tally.history.txs.size >= OVERDRAFT_CHECK_MIN_TXS)
      assert.ok((tally.last?.rejectedSeen ?? 0) > 0, `seed ${opts.seed}: no transfer was ever rejected`);
    return summary(`kill -9 x${opts.rounds} seed=${opts.seed}`, tally);
  });
}

/**
 * Arms `<name>:<nth>`, lets the fail point kill the child, checks recovery; with `continueMs`, a
 * second child then keeps committing on the recovered directory for that long before a parent kill.
 */
export function failPointCase(opts: {
  name: string;
  nth: number;
  seed: number;
  continueMs?: number;
}): Promise<string> {
  return withDir(async (dir) => {
    const tally: Tally = { kills: 0, history: new AnnouncedHistory(), last: undefined };
    const spec = `${opts.name}:${opts.nth}`;
    const label = `fail point ${spec} seed ${opts.seed}`;
    const run = await runCrashChild(dir, { seed: opts.seed, failPoint: spec });
    await roundTrip(dir, tally, label, run, 'fail-point');
    if (opts.continueMs !== undefined) {
      const again = await runCrashChild(dir, { seed: opts.seed + 1, killAfterMs: opts.continueMs });
      assert.ok(again.announced.length > 0, `${label}: nothing committed after recovery`);
      await roundTrip(dir, tally, `${label} (continued)`, again, 'parent-kill');
    }
    return summary(spec, tally);
  });
}

/**
 * The recovery path's own fail point: a mid-write crash leaves a torn tail, the next start crashes
 * right after truncating it (`blocklog.recovery-truncated`), and the start after that must be clean.
 */
export function recoveryTruncatedCase(seed: number): Promise<string> {
  return withDir(async (dir) => {
    const tally: Tally = { kills: 0, history: new AnnouncedHistory(), last: undefined };
    const torn = await runCrashChild(dir, { seed, failPoint: 'blocklog.mid-write:6' });
    assert.ok(
      torn.signal === 'SIGKILL' && !torn.killedByParent,
      `mid-write did not fire; ${describeRun(torn)}`,
    );
    tally.kills++;
    tally.history.add(torn);
    const label = `blocklog.recovery-truncated:1 seed ${seed}`;
    const run = await runCrashChild(dir, { seed: seed + 1, failPoint: 'blocklog.recovery-truncated:1' });
    assert.equal(run.readyHeight, undefined, `${label}: the node started although a torn tail was there`);
    const report = await roundTrip(dir, tally, label, run, 'fail-point');
    assert.equal(report.truncatedTailBytes, 0, `${label}: the tail was truncated before the crash`);
    return summary('blocklog.recovery-truncated:1', tally);
  });
}

function summary(name: string, tally: Tally): string {
  const lost = (tally.last?.lost.length ?? 0) + (tally.last?.changedBlocks.length ?? 0);
  const rejected = tally.last?.rejectedSeen ?? 0;
  return figureLine(name, {
    kills: tally.kills,
    history: tally.history,
    lost,
    blocks: tally.last?.blocksChecked ?? 0,
    extra: `rejected_seen=${rejected} height=${tally.last?.height ?? 0}`,
  });
}
