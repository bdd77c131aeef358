// Route fuzz (long version): every registered route of a served node — ISO 20022 bridge routes
// included, which the short test/gateway/bad-input.test.ts cannot reach — gets random and mutated
// requests for FUZZ_SECONDS (default 60), round-robin over the live route table: baselines, single and
// stacked mutations, body-aware mutations (codec length inflation, XML edits), structured hostile probes,
// made-up paths with odd methods; a separate lane sends malformed HTTP as raw bytes (lib/route-fuzzer.ts).
// Pass: never a 5xx, every error body `{code, message, details}` with a code of the registry and of
// docs/errors.md at that status; /health stays fast. Failing requests are kept under regressions/routes/
// and replayed first. Replay a run with FUZZ_SEED=<printed seed>.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Pool } from 'undici';
import { Ed25519KeyPair } from '../../src/crypto/signer.js';
import { numeric } from '../../src/model/numeric.js';
import { startHealthMonitor } from '../helpers/health-monitor.js';
import { run } from '../helpers/node.js';
import { discoverSamples, fetchOpenApi, liveRoutes } from '../helpers/route-catalog.js';
import { operatorAudience } from '../helpers/served.js';
import { newAccount } from '../helpers/tx.js';
import { type BridgeNode, startBridgeNode } from '../iso20022/bridge-fixture.js';
import { loadRegressions, saveRegression } from './lib/regressions.js';
import { RouteFuzzer } from './lib/route-fuzzer.js';
import { percentile } from './lib/route-send.js';

const SECONDS = Number(process.env.FUZZ_SECONDS ?? 60);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000_007);
const CONCURRENCY = 8;
const HEALTH_LATENCY_MAX_MS = 1_000;
const FINDINGS_KEPT_MAX = 10;
const OPERATOR_SEED = new Uint8Array(32).fill(0x31);
const SUITE = 'routes';

/** Something real behind every id-taking route: a domain, an account, an asset, an NFT. */
async function seedWorld(t: BridgeNode): Promise<void> {
  const meta = new Map<string, never>();
  const alice = newAccount('wonderland', 7);
  const definition = {
    kind: 'RegisterAssetDefinition' as const,
    id: 'rose#wonderland',
    scale: 2,
    metadata: meta,
  };
  const r = await run(t, t.admin, [
    { kind: 'RegisterDomain', id: 'wonderland', metadata: meta },
    { kind: 'RegisterAccount', id: alice.id, metadata: meta },
    { ...definition, mintable: { kind: 'Infinitely' } },
    { kind: 'MintAsset', asset: `rose#wonderland#${alice.id}`, amount: numeric('10.50') },
    { kind: 'RegisterNft', id: 'deed$wonderland', content: meta },
  ]);
  assert.equal(r.status.kind, 'Committed', JSON.stringify(r.status));
}

describe('route fuzzing over every live route (long)', { timeout: (SECONDS + 240) * 1000 }, () => {
  let t: BridgeNode;
  let pool: Pool;
  let fuzzer: RouteFuzzer;

  before(async () => {
    t = await startBridgeNode({
      'telemetry.profile': 'full',
      'operator.public_keys': [Ed25519KeyPair.fromSeed(OPERATOR_SEED).publicKeyText()],
    });
    await seedWorld(t);
    const routes = liveRoutes(t.served.app, await fetchOpenApi(t.url));
    pool = new Pool(t.url, { connections: CONCURRENCY, pipelining: 1 });
    const target = {
      url: t.url,
      chainId: t.chainId,
      admin: t.admin,
      registry: () => t.served.app.gateway.errors.specs,
      operator: { seed: OPERATOR_SEED, audience: operatorAudience(t.node) },
    };
    fuzzer = new RouteFuzzer(target, pool, routes, await discoverSamples(t.url), SEED);
  });
  after(async () => {
    await pool?.close();
    await t?.stopAll();
  });

  it('every kept regression request passes', async () => {
    const kept = loadRegressions(SUITE);
    const problems: string[] = [];
    for (const { file, record } of kept) {
      const problem = await fuzzer.replay(record);
      if (problem !== undefined) problems.push(`${file}: ${problem}`);
    }
    console.log(
      `[figure] route regressions: ${kept.length} kept requests replayed, ${problems.length} failing`,
    );
    assert.deepEqual(problems, []);
  });

  it(`answers every request with a documented 4xx or a valid 2xx, never 5xx (${SECONDS} s)`, {
    skip: SECONDS <= 0,
  }, async () => {
    console.log(`[seed] ${SEED} (replay with FUZZ_SEED=${SEED})`);
    const monitor = startHealthMonitor(t.url);
    let health = { latencies: [] as number[], failures: [] as string[] };
    try {
      await fuzzer.run(CONCURRENCY, Date.now() + SECONDS * 1000);
    } finally {
      health = await monitor.stop();
    }
    const found = `fuzz-routes seed ${SEED} ${new Date().toISOString()}`;
    for (const f of fuzzer.findings.slice(0, FINDINGS_KEPT_MAX))
      saveRegression(SUITE, 'route', f.saved, f.text, found);
    const lat = [...health.latencies].sort((a, b) => a - b);
    const max = lat.at(-1) ?? 0;
    console.log(
      `[figure] route fuzz: ${fuzzer.tried} requests to ${fuzzer.routeCount} routes in ${SECONDS} s ` +
        `(${JSON.stringify(Object.fromEntries(fuzzer.strategies))}); answers ${JSON.stringify(Object.fromEntries([...fuzzer.counts].sort()))}; ` +
        `raw lane ${fuzzer.raws} malformed requests (${fuzzer.rawSilent} closed or awaiting more); ` +
        `/health ${lat.length}x p50 ${percentile(lat, 50).toFixed(1)} ms p99 ${percentile(lat, 99).toFixed(1)} ms max ${max.toFixed(1)} ms; ` +
        `problems ${fuzzer.findings.length}`,
    );
    assert.deepEqual(
      fuzzer.findings.slice(0, 20).map((f) => f.text),
      [],
      `${fuzzer.findings.length} problems (kept under regressions/routes/)`,
    );
    assert.ok(fuzzer.tried >= fuzzer.routeCount, 'every route was reached at least once');
    assert.deepEqual(health.failures, []);
    assert.ok(max < HEALTH_LATENCY_MAX_MS, `/health took ${max.toFixed(0)} ms at worst`);
  });

  it('the gateway counted no 5xx and no internal_error', async () => {
    const metrics = t.served.app.gateway.metrics;
    const fiveXx = (await metrics.requests.get()).values.filter((v) =>
      String(v.labels.status).startsWith('5'),
    );
    assert.deepEqual(fiveXx, []);
    const rejected = await metrics.rejected.get();
    assert.ok(!rejected.values.some((v) => v.labels.reason === 'internal_error' && v.value > 0));
    assert.equal((await fetch(`${t.url}/health`)).status, 200);
  });
});
