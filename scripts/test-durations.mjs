// Per-file test durations: the budget table (scripts/test-budgets.json, committed) and the record of a
// run (test-durations.json in the root, git-ignored), with the summary the runner prints at the end.
// Timing never fails the run: a file over its budget is a warning, one over 3× its budget is called
// out on a line of its own; only the per-file timeout (scripts/test.mjs) stops a file.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';

/** How far over its budget a file must run before the summary calls it out on its own line. */
export const BUDGET_ALARM_FACTOR = 3;

/**
 * The budget table: `{ default_s, files: { path: seconds } }`. Files are listed slowest first; the order
 * of `files` is the order scripts/test.mjs starts them in (one source for both).
 */
export function loadBudgets(path) {
  const raw = JSON.parse(readFileSync(path, 'utf8'));
  if (typeof raw.default_s !== 'number' || typeof raw.files !== 'object') {
    throw new Error(`${path}: expected { default_s: number, files: { path: seconds } }`);
  }
  return { defaultS: raw.default_s, files: raw.files };
}

export function budgetOf(budgets, file) {
  return budgets.files[file] ?? budgets.defaultS;
}

/** The files of the table, biggest budget first (ties keep the table's order). */
export function slowestFirst(budgets) {
  return Object.entries(budgets.files)
    .map(([file, s], i) => ({ file, s, i }))
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .map((e) => e.file);
}

/**
 * Writes the record of a run. `merge`: a partial run (`--only`) updates its files in the record of the
 * last run instead of replacing it.
 */
export function writeDurations(path, { results, wallS, concurrency, merge, budgets }) {
  const previous = merge && existsSync(path) ? safeRead(path) : undefined;
  const files = { ...(previous?.files ?? {}) };
  for (const r of results) {
    files[r.file] = {
      s: round(r.s),
      passed: r.passed,
      ...(r.timedOut ? { timed_out: true } : {}),
      ...(budgets === undefined ? {} : { budget_s: budgetOf(budgets, r.file) }),
    };
  }
  const sorted = Object.fromEntries(Object.entries(files).sort((a, b) => b[1].s - a[1].s));
  const record = {
    finished_at: new Date().toISOString(),
    wall_s: round(wallS),
    concurrency,
    files_run: results.length,
    sum_s: round(results.reduce((n, r) => n + r.s, 0)),
    load_average: loadavg().map(round),
    files: sorted,
  };
  writeFileSync(path, `${JSON.stringify(record, null, 2)}\n`);
  return record;
}

function safeRead(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

function round(x) {
  return Math.round(x * 10) / 10;
}

/** The closing summary: slowest files, totals, files over budget. One string per line. */
export function summaryLines({ results, wallS, budgets, slowest = 15, recordPath }) {
  const lines = [];
  const byTime = [...results].sort((a, b) => b.s - a.s);
  const sum = results.reduce((n, r) => n + r.s, 0);
  lines.push(
    `durations: ${results.length} files, runner ${wallS.toFixed(1)} s, sum of files ${sum.toFixed(1)} s`,
  );
  lines.push(
    `load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}; record: ${recordPath}`,
  );
  lines.push(`slowest ${Math.min(slowest, byTime.length)}:`);
  for (const r of byTime.slice(0, slowest)) {
    const budget = budgets === undefined ? '' : ` (budget ${budgetOf(budgets, r.file)} s)`;
    lines.push(
      `  ${r.s.toFixed(1).padStart(7)} s  ${r.file}${budget}${r.timedOut ? ' TIMED OUT' : r.passed ? '' : ' FAILED'}`,
    );
  }
  if (budgets === undefined) return lines;
  const over = byTime.filter((r) => r.s > budgetOf(budgets, r.file));
  for (const r of over) {
    const b = budgetOf(budgets, r.file);
    const factor = r.s / b;
    const alarm = factor > BUDGET_ALARM_FACTOR ? `OVER ${BUDGET_ALARM_FACTOR}x BUDGET` : 'over budget';
    lines.push(
      `warning: ${alarm}: ${r.file} took ${r.s.toFixed(1)} s, budget ${b} s (${factor.toFixed(1)}x)`,
    );
  }
  if (over.length === 0) lines.push('every file within its budget');
  return lines;
}

/**
 * The per-file timeout of a run: `baseMs` on a machine whose load is up to 8 processes per core, and
 * stretched in proportion above that (at most 4×), so that a timeout still stops a hung file and never
 * fails a slow one: a file's wall time grows with the processes it shares the cores with (the route
 * fuzz, ~30 s in CI, ran past 480 s at load 26). `load`: the 1-minute load average when the run starts
 * plus the busy processes scripts/load.mjs has just started (the average lags behind them).
 */
export function fileTimeoutMs(baseMs, load, cores) {
  const factor = Math.min(4, Math.max(1, load / (cores * 8)));
  return Math.round(baseMs * factor);
}
