// The shipped monitoring files (deploy/prometheus/, deploy/grafana/, docs/operations.md "Alerts"):
// every series an alert or a dashboard panel reads is one a node exports (a renamed metric fails
// here, not silently in someone's Grafana), every alert is explained in the docs, and the rules pass
// Prometheus' own checker and their unit tests (`promtool`, Debian's prometheus package; .ci/run
// installs it, and in CI its absence fails this test).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { inject } from '../helpers/inject.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';

const root = new URL('../../', import.meta.url);
const read = (p: string) => readFileSync(new URL(p, root), 'utf8');
const RULES = 'deploy/prometheus/torana-alerts.yml';

/** Series Prometheus itself provides, not the node. */
const PROMETHEUS_OWN = new Set(['up']);
const PROMQL_WORDS = new Set([
  'sum',
  'by',
  'without',
  'rate',
  'irate',
  'increase',
  'delta',
  'changes',
  'histogram_quantile',
  'and',
  'or',
  'unless',
  'on',
  'ignoring',
  'avg',
  'max',
  'min',
  'count',
  'le',
]);

/** Metric names in a PromQL expression: identifiers outside label matchers, ranges and strings. */
export function seriesOf(expr: string): string[] {
  const bare = expr
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/"[^"]*"/g, ' ');
  const out = new Set<string>();
  for (const m of bare.matchAll(/\b([a-zA-Z_:][a-zA-Z0-9_:]*)\b(?!\s*\()/g)) {
    const name = m[1]!;
    if (PROMQL_WORDS.has(name) || /^\d/.test(name)) continue;
    out.add(name.replace(/_(bucket|sum|count)$/, ''));
  }
  // Grouping labels (`by (instance, le)`) are not series.
  for (const m of bare.matchAll(/\bby\s*\(([^)]*)\)/g))
    for (const l of m[1]!.split(',')) out.delete(l.trim());
  return [...out];
}

function ruleExprs(): { alert: string; expr: string }[] {
  const text = read(RULES);
  return [...text.matchAll(/- alert: (\w+)\n\s+expr: (.+)/g)].map((m) => ({ alert: m[1]!, expr: m[2]! }));
}

function dashboardExprs(): string[] {
  const d = JSON.parse(read('deploy/grafana/torana-dashboard.json')) as {
    panels: { title: string; targets: { expr: string }[] }[];
  };
  return d.panels.flatMap((p) => p.targets.map((t) => t.expr));
}

describe('monitoring files', () => {
  let t: ServedTestNode;
  let exported: Set<string>;
  before(async () => {
    t = await startServedNode({ 'telemetry.profile': 'full' });
    const text = (await inject(t.served.app, '/metrics')).text;
    exported = new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]!));
  });
  after(() => t?.stopAll());

  it('reads only series a node exports (alerts and dashboard)', () => {
    const rules = ruleExprs();
    assert.ok(rules.length >= 10, `${rules.length} alerts found`);
    const exprs = [...rules.map((r) => r.expr), ...dashboardExprs()];
    const missing = exprs.flatMap((e) =>
      seriesOf(e)
        .filter((s) => !exported.has(s) && !PROMETHEUS_OWN.has(s))
        .map((s) => `${s} in ${e}`),
    );
    assert.deepEqual(missing, []);
  });

  it('finds the series of an expression (and would notice a renamed one)', () => {
    assert.deepEqual(
      seriesOf('histogram_quantile(0.99, sum by (instance, le) (rate(commit_time_ms_bucket[5m]))) > 1000'),
      ['commit_time_ms'],
    );
    assert.ok(!exported.has('commit_time_seconds'));
  });

  it('explains every alert in docs/operations.md', () => {
    const doc = read('docs/operations.md');
    const unexplained = ruleExprs().filter((r) => !doc.includes(`\`${r.alert}\``));
    assert.deepEqual(
      unexplained.map((r) => r.alert),
      [],
    );
  });

  it('passes promtool check rules and promtool test rules', (ctx) => {
    const probe = spawnSync('promtool', ['--version'], { encoding: 'utf8' });
    if (probe.error !== undefined) {
      assert.ok(
        process.env.CI === undefined,
        "promtool is missing in CI: .ci/run installs Debian's prometheus package",
      );
      ctx.skip(
        'promtool not installed (Debian package prometheus); run `apt-get install prometheus` to check the rules',
      );
      return;
    }
    const dir = new URL('deploy/prometheus/', root).pathname;
    const check = spawnSync('promtool', ['check', 'rules', 'torana-alerts.yml'], {
      cwd: dir,
      encoding: 'utf8',
    });
    assert.equal(check.status, 0, check.stdout + check.stderr);
    const unit = spawnSync('promtool', ['test', 'rules', 'torana-alerts.test.yml'], {
      cwd: dir,
      encoding: 'utf8',
    });
    assert.equal(unit.status, 0, unit.stdout + unit.stderr);
  });
});
