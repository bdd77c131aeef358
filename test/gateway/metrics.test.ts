// `/metrics` of a served node (core and gateway series; the series count stays bounded whatever paths
// clients request). Parsed with our strict parser (test/helpers/prom-parse.ts) and, when it can be had,
// with `promtool check metrics` too.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type PromFamily, PromParseError, parsePrometheusText, seriesCount } from '../helpers/prom-parse.js';
import { exampleTransaction } from '../helpers/route-catalog.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';

type Families = Map<string, PromFamily>;

/** Lint findings promtool may report on metric names the node keeps on purpose (`commit_time_ms`). */
const ACCEPTED_LINT = [/^commit_time_ms metric names should not contain abbreviated units$/];
const PROMTOOL_CACHE = join(tmpdir(), 'torana-promtool');
const APT_TIMEOUT_MS = 60_000;

/** promtool from $PROMTOOL, the PATH, a cache in tmpdir, or Debian's package extracted there. */
function findPromtool(): { path: string } | { missing: string } {
  const candidates = [process.env.PROMTOOL, 'promtool', join(PROMTOOL_CACHE, 'usr/bin/promtool')];
  for (const c of candidates) {
    if (c !== undefined && spawnSync(c, ['--version'], { stdio: 'ignore' }).status === 0) return { path: c };
  }
  const work = mkdtempSync(join(tmpdir(), 'torana-promtool-dl-'));
  try {
    const dl = spawnSync('apt-get', ['download', 'prometheus'], { cwd: work, timeout: APT_TIMEOUT_MS });
    const deb = readdirSync(work).find((f) => f.endsWith('.deb'));
    if (dl.status !== 0 || deb === undefined) return { missing: 'apt-get download prometheus failed' };
    const x = spawnSync('dpkg-deb', ['-x', join(work, deb), join(work, 'x')], { timeout: APT_TIMEOUT_MS });
    if (x.status !== 0) return { missing: 'dpkg-deb -x failed' };
    if (!existsSync(PROMTOOL_CACHE)) renameSync(join(work, 'x'), PROMTOOL_CACHE);
    const path = join(PROMTOOL_CACHE, 'usr/bin/promtool');
    return existsSync(path) ? { path } : { missing: 'the package holds no usr/bin/promtool' };
  } catch (e) {
    return { missing: `install failed: ${(e as Error).message}` };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function family(f: Families, name: string, type: string): PromFamily {
  const fam = f.get(name);
  assert.ok(fam, `series ${name} is exposed`);
  assert.equal(fam.type, type, `${name} is a ${type}`);
  return fam;
}

function value(f: Families, name: string, labels: Record<string, string> = {}): number {
  const fam = f.get(name.replace(/_(sum|count)$/, '')) ?? f.get(name);
  const s = fam?.samples.find(
    (x) => x.name === name && Object.entries(labels).every(([k, v]) => x.labels[k] === v),
  );
  assert.ok(s, `${name}${JSON.stringify(labels)} present`);
  return s.value;
}

function requestsTotal(f: Families): number {
  return (f.get('http_requests_total')?.samples ?? []).reduce((n, s) => n + s.value, 0);
}

/** Runs `n` requests with at most `width` in flight. */
async function pooled(n: number, width: number, one: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < n) await one(next++);
  };
  await Promise.all(Array.from({ length: width }, lane));
}

const METHODS = ['GET', 'POST', 'PUT', 'DELETE'] as const;

/** A path no route matches: a random first segment, sometimes percent-encoded junk after it. */
function randomUnknownPath(i: number): string {
  const token = randomBytes(8).toString('hex');
  const tails = [
    '',
    `/${i}`,
    `/${token}/x?y=${i}`,
    `/%${token.slice(0, 2)}%00`,
    '/%',
    `/${'z'.repeat(i % 300)}`,
  ];
  return `/zz-${token}${tails[i % tails.length]}`;
}

describe('the strict Prometheus text parser', () => {
  const h = (body: string) => `# TYPE h histogram\n${body}`;
  const bad: [string, RegExp][] = [
    ['x 1\n', /without a TYPE/],
    ['# TYPE x counter\nx 1', /end with/],
    ['# TYPE x counter\nx{a="1} 1\n', /unterminated/],
    ['# TYPE x counter\nx{a="\\q"} 1\n', /bad escape/],
    ['# TYPE x counter\nx{a="1",a="2"} 1\n', /duplicate label/],
    ['# TYPE x counter\nx{__a="1"} 1\n', /bad label name/],
    ['# TYPE x counter\nx{a=1} 1\n', /not quoted/],
    ['# TYPE x counter\nx 1\nx 2\n', /duplicate series/],
    ['# TYPE x counter\nx one\n', /bad value/],
    ['# TYPE x counter\nx -1\n', /negative counter/],
    ['# TYPE x gauge\n# TYPE y gauge\nx 1\ny 1\nx{a="b"} 1\n', /not contiguous/],
    ['# TYPE x nonsense\n', /unknown type/],
    ['# TYPE x gauge\n# TYPE x gauge\n', /repeated/],
    [h('h_bucket{le="1"} 2\nh_bucket{le="+Inf"} 1\nh_sum 1\nh_count 1\n'), /decrease/],
    [h('h_bucket{le="1"} 1\nh_sum 1\nh_count 1\n'), /\+Inf/],
    [h('h_bucket{le="1"} 1\nh_bucket{le="+Inf"} 2\nh_sum 1\nh_count 3\n'), /_count 3 != \+Inf bucket 2/],
    [h('h_bucket{le="+Inf"} 2\nh_count 2\n'), /_sum or _count missing/],
    [h('h_bucket 2\n'), /without le/],
  ];
  for (const [text, reason] of bad) {
    it(`refuses ${JSON.stringify(text).slice(0, 60)}`, () => {
      assert.throws(
        () => parsePrometheusText(text),
        (e: unknown) => e instanceof PromParseError && reason.test(e.message),
      );
    });
  }

  it('reads escapes, specials, timestamps and consistent histograms', () => {
    const text = [
      '# HELP x A \\\\ help\\nline.',
      '# TYPE x gauge',
      'x{a="q\\"x\\\\y\\nz",b="}"} +Inf 1700000000000',
      'x{a="2"} NaN',
      h('h_bucket{le="0.5"} 1\nh_bucket{le="+Inf"} 3\nh_sum 2.5e0\nh_count 3'),
    ].join('\n');
    const f = parsePrometheusText(`${text}\n`);
    const x = f.get('x')!;
    assert.equal(x.help, 'A \\ help\nline.');
    assert.deepEqual(x.samples[0]!.labels, { a: 'q"x\\y\nz', b: '}' });
    assert.equal(x.samples[0]!.value, Infinity);
    assert.ok(Number.isNaN(x.samples[1]!.value));
    assert.equal(seriesCount(f), 6);
  });
});

describe('/metrics of a served node (profile full)', () => {
  let t: ServedTestNode;
  const scrape = async (): Promise<{ text: string; families: Families }> => {
    const res = await fetch(`${t.url}/metrics`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    return { text, families: parsePrometheusText(text) };
  };
  before(async () => {
    t = await startServedNode({ 'telemetry.profile': 'full' });
  });
  after(async () => t.stopAll());

  it('exposes the core and gateway series, labelled by route pattern and status', async () => {
    await fetch(`${t.url}/v1/accounts/${encodeURIComponent(t.admin.id)}`).then((r) => r.arrayBuffer());
    await fetch(`${t.url}/no-such-route`).then((r) => r.arrayBuffer());
    await fetch(`${t.url}/health`, { headers: { 'x-ledger-api-version': '999' } }).then((r) =>
      r.arrayBuffer(),
    );
    const { families: f } = await scrape();
    for (const g of ['block_height', 'queue_size', 'connected_peers', 'view_changes', 'domains', 'accounts'])
      family(f, g, 'gauge');
    assert.ok(value(f, 'domains') >= 1 && value(f, 'accounts') >= 1, 'genesis domain and account counted');
    assert.equal(value(f, 'block_height'), 1);
    family(f, 'txs', 'gauge');
    for (const type of ['accepted', 'rejected']) value(f, 'txs', { type });
    family(f, 'commit_time_ms', 'histogram');
    family(f, 'http_requests_total', 'counter');
    assert.equal(
      value(f, 'http_requests_total', { route: '/v1/accounts/:id', method: 'GET', status: '200' }),
      1,
    );
    assert.equal(value(f, 'http_requests_total', { route: 'unmatched', method: 'GET', status: '404' }), 1);
    value(f, 'http_requests_total', { route: '/health', method: 'GET', status: '400' });
    family(f, 'http_request_duration_seconds', 'histogram');
    value(f, 'http_request_duration_seconds_count', { route: '/v1/accounts/:id', method: 'GET' });
    family(f, 'http_active_connections', 'gauge');
    assert.ok(value(f, 'http_active_connections', { scheme: 'http' }) >= 1, 'the scrape itself is open');
    family(f, 'http_rejected_requests_total', 'counter');
    assert.equal(value(f, 'http_rejected_requests_total', { reason: 'not_found' }), 1);
    assert.equal(value(f, 'http_rejected_requests_total', { reason: 'unsupported_api_version' }), 1);
    const routes = new Set((f.get('http_requests_total')?.samples ?? []).map((s) => s.labels.route));
    assert.ok(![...routes].some((r) => r?.includes(t.admin.id)), 'no raw path in a label');
  });

  it('passes promtool check metrics when promtool can be had', async (ctx) => {
    const tool = findPromtool();
    if ('missing' in tool) {
      ctx.diagnostic(`promtool not available (${tool.missing}): only the built-in strict parser ran`);
      ctx.skip(`promtool not available: ${tool.missing}`);
      return;
    }
    const { text } = await scrape();
    const r = spawnSync(tool.path, ['check', 'metrics'], { input: text, encoding: 'utf8' });
    const findings = `${r.stdout}${r.stderr}`.split('\n').filter((l) => l.trim() !== '');
    // Exit 1 is a parse error; 3 means lint findings only, of which we accept the mandated names.
    assert.notEqual(r.status, 1, findings.join('\n'));
    const unexpected = findings.filter((l) => !ACCEPTED_LINT.some((re) => re.test(l.trim())));
    assert.deepEqual(unexpected, [], `promtool ${tool.path}`);
    ctx.diagnostic(`promtool ${tool.path}: ${findings.length} accepted lint finding(s)`);
  });

  it('1,000 requests to random unknown paths add a bounded set of `unmatched` series', async () => {
    const before = (await scrape()).families;
    const tokens: string[] = [];
    const hit = async (i: number) => {
      const path = randomUnknownPath(i);
      tokens.push(path.slice(4, 20));
      // Through the node's own request pipeline (inject): the labels are what is tested, not the socket.
      const res = await t.served.app.inject({ method: METHODS[i % METHODS.length]!, url: path });
      assert.ok(res.statusCode === 404 || res.statusCode === 400, `${path}: ${res.statusCode}`);
    };
    await pooled(500, 8, hit);
    const middle = await scrape();
    await pooled(500, 8, (i) => hit(i + 500));
    const { text, families: f } = await scrape();
    // Every request is counted once (the scrapes in between count too).
    assert.equal(requestsTotal(f) - requestsTotal(before), 1_000 + 2);
    // The second 500 random paths add no series at all: the set saturated after the first ones.
    assert.equal(seriesCount(f), seriesCount(middle.families));
    // At most: per method (4) a request counter per status (404, 400) and a duration histogram (16
    // series), plus two rejection reasons; nothing per path.
    const added = seriesCount(f) - seriesCount(before);
    assert.ok(added <= METHODS.length * (2 + 16) + 2, `${added} new series`);
    const app = t.served.app;
    const patterns = new Set([...app.gateway.routes.map((r) => r.url), 'unmatched']);
    for (const s of f.get('http_requests_total')!.samples)
      assert.ok(patterns.has(s.labels.route!), s.labels.route);
    for (const token of tokens) assert.ok(!text.includes(token), `${token} leaked into a label`);
  });

  it('block_height and txs move after a transaction is committed', async () => {
    const before = (await scrape()).families;
    const body = exampleTransaction({ chainId: t.chainId, admin: t.admin }, 1);
    const res = await fetch(`${t.url}/transaction`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-codec' },
      body,
    });
    assert.equal(res.status, 202);
    const hash = ((await res.json()) as { tx_hash: string }).tx_hash;
    const deadline = Date.now() + 10_000;
    for (;;) {
      const s = await fetch(`${t.url}/v1/pipeline/transactions/status?hash=${hash}`);
      if (s.status === 200 && ((await s.json()) as { status: string }).status === 'Committed') break;
      assert.ok(Date.now() < deadline, 'the transaction commits within 10 s');
      await new Promise((r) => setTimeout(r, 20));
    }
    const { families: f } = await scrape();
    assert.equal(value(f, 'block_height'), value(before, 'block_height') + 1);
    assert.equal(value(f, 'txs', { type: 'accepted' }), value(before, 'txs', { type: 'accepted' }) + 1);
    assert.equal(value(f, 'commit_time_ms_count'), value(before, 'commit_time_ms_count') + 1);
    assert.equal(value(f, 'queue_size'), 0);
  });
});
