// Abuse scenarios on signed app requests and webhooks, through real sockets against a served node
// (docs/security.md "Signed app requests", docs/webhooks.md "Limits"). Before the fix a key under a domain
// that does not exist was served (200 on POST /v1/multisig/approvals/list); 501 valid requests stamped in
// the future evicted a small per-family nonce cache and raised its watermark, so a genuine signatory's
// requests were 409 nonce_reused; `<key>@fake0…fake49` registered ~1,000 webhooks (the cap counted the
// `key@domain` text) and one owner's dead targets filled the node-wide delivery queue, so other owners'
// events were dropped. Pass: (a) every signed route (walked from the route metadata) refuses an
// unregistered signer with 403 request_signer_unregistered; (b) one account's future-stamped flood gets
// 429 request_nonces_full beyond its quota while another account is never nonce_reused; (c) one key under
// many fake domains registers nothing, and one key at its cap (over two real domains) does not block
// another owner; (d) one owner's dead-target webhooks over many commits do not drop another owner's
// deliveries: its receiver gets every event, in order.

import assert from 'node:assert/strict';
import { compileEventFilter, projectEvent } from '../../src/gateway/event-filter.js';
import { QUERY_LANGUAGE } from '../../src/node/query-language.js';
import { signRequest } from '../../src/sdk/signed-request.js';
import { registerAccounts, run } from '../helpers/node.js';
import { fetchOpenApi, liveRoutes } from '../helpers/route-catalog.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';
import { newAccount, type TestAccount } from '../helpers/tx.js';
import { startReceiver } from '../helpers/webhook-receiver.js';
import { figure } from './clients.js';

interface Answer {
  status: number;
  code?: string;
}

async function signedFetch(
  t: ServedTestNode,
  who: TestAccount,
  method: string,
  path: string,
  body?: unknown,
  timestampMs?: number,
): Promise<Answer> {
  const text = body === undefined ? undefined : JSON.stringify(body);
  const headers: Record<string, string> = signRequest({
    method,
    url: path,
    account: who.id,
    signer: who.key,
    ...(text === undefined ? {} : { body: text }),
    ...(timestampMs === undefined ? {} : { timestampMs }),
  });
  if (text !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${t.url}${path}`, {
    method,
    headers,
    ...(text === undefined ? {} : { body: text }),
  });
  const answer = (await res.text().then((s) => (s === '' ? {} : JSON.parse(s)))) as { code?: string };
  return { status: res.status, ...(answer.code === undefined ? {} : { code: answer.code }) };
}

function tally(answers: Answer[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const a of answers) {
    const k = a.code === undefined ? String(a.status) : `${a.status} ${a.code}`;
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}

/** (a) Every signed family route refuses a signer that is not a registered account. */
export async function unregisteredSigners(size: { fakeDomains: number }): Promise<void> {
  const t = await startServedNode({ 'telemetry.profile': 'full', 'iso20022.enabled': true });
  try {
    const real = newAccount('realm');
    await registerAccounts(t, [real]);
    const routes = liveRoutes(t.served.app, await fetchOpenApi(t.url)).filter(
      (r) => r.meta.signed && r.meta.visibility !== 'operator' && r.stream !== 'ws',
    );
    const families = new Set(routes.map((r) => r.meta.family?.name));
    for (const f of ['multisig', 'conference', 'history', 'iso20022', 'webhooks'])
      assert.ok(families.has(f), `signed routes of ${f} are walked (${[...families].join(', ')})`);
    // The same key under domains that do not exist, and a fresh key under a domain that does.
    const strangers = [
      ...Array.from({ length: size.fakeDomains }, (_, i) => ({
        key: real.key,
        id: `${real.key.publicKeyText()}@fake${i}`,
      })),
      newAccount('realm'),
    ];
    const answers: Answer[] = [];
    const wrong: string[] = [];
    for (const route of routes) {
      const path = route.url.replace(/:(\w+)/g, 'x');
      for (const who of strangers) {
        const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : {};
        const a = await signedFetch(t, who, route.method, path, body);
        answers.push(a);
        if (a.status !== 403 || a.code !== 'request_signer_unregistered')
          wrong.push(`${route.method} ${route.url} as ${who.id.slice(-8)}: ${a.status} ${a.code}`);
      }
    }
    figure('unregistered signers', {
      routes: routes.length,
      families: [...families].sort().join('/'),
      requests: answers.length,
      answers: JSON.stringify(tally(answers)),
    });
    assert.deepEqual(wrong, []);
    assert.equal((await signedFetch(t, real, 'POST', '/v1/multisig/approvals/list', {})).status, 200);
  } finally {
    await t.stopAll();
  }
}

/** Where the chain's clock drift is wide enough that a loaded machine does not make requests stale. */
const DRIFT_MS = 20_000;

/**
 * (b) One account floods future-stamped requests; another account's requests are never `nonce_reused`.
 * `config`: the node's nonce limits (the scenario's default is the per-account quota).
 */
export async function futureStampedFlood(size: {
  flood: number;
  honest: number;
  quota: number;
  config?: Record<string, unknown>;
}): Promise<void> {
  const t = await startServedNode({
    'transaction.max_clock_drift_ms': DRIFT_MS,
    'gateway.rate_per_ip_per_s': 1_000_000,
    'gateway.rate_burst': 1_000_000,
    ...(size.config ?? { 'signed_requests.nonces_per_account_max': size.quota }),
  });
  try {
    const attacker = newAccount('wonderland');
    const signatory = newAccount('wonderland');
    await registerAccounts(t, [attacker, signatory]);
    const path = '/v1/multisig/approvals/list';
    const stamp = Date.now() + DRIFT_MS - 2_000;
    const flood: Answer[] = [];
    for (let i = 0; i < size.flood; i += 8)
      flood.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(8, size.flood - i) }, () =>
            signedFetch(t, attacker, 'POST', path, {}, stamp),
          ),
        )),
      );
    const honest: Answer[] = [];
    for (let i = 0; i < size.honest; i++) honest.push(await signedFetch(t, signatory, 'POST', path, {}));
    const floodCounts = tally(flood);
    const honestCounts = tally(honest);
    figure('future-stamped flood', {
      flood: size.flood,
      quota: size.quota,
      attacker: JSON.stringify(floodCounts),
      signatory: JSON.stringify(honestCounts),
    });
    assert.deepEqual(honestCounts, { 200: size.honest }, 'the genuine signatory is served');
    assert.equal(floodCounts['200'], Math.min(size.flood, size.quota), JSON.stringify(floodCounts));
    if (size.flood > size.quota)
      assert.equal(floodCounts['429 request_nonces_full'], size.flood - size.quota);
  } finally {
    await t.stopAll();
  }
}

const COMMITTED_TXS = { and: [{ eq: ['kind', 'transaction'] }, { eq: ['tx_status', 'Committed'] }] };

/** (c) One key under many fake domains registers nothing; one key at its cap does not block another owner. */
export async function webhookOwners(size: { fakeDomains: number; perOwnerMax: number }): Promise<void> {
  const t = await startServedNode({
    'webhooks.per_owner_max': size.perOwnerMax,
    'webhooks.allow_private_targets': true,
    'gateway.rate_per_ip_per_s': 1_000_000,
    'gateway.rate_burst': 1_000_000,
  });
  const rx = await startReceiver();
  try {
    const keyed = newAccount('first');
    const sameKey = { key: keyed.key, id: `${keyed.key.publicKeyText()}@second` };
    const other = newAccount('first');
    await registerAccounts(t, [keyed, sameKey, other]);
    const create = (who: TestAccount) =>
      signedFetch(t, who, 'POST', '/v1/webhooks', { url: rx.url, filter: COMMITTED_TXS });
    const fake: Answer[] = [];
    for (let i = 0; i < size.fakeDomains; i++)
      fake.push(await create({ key: keyed.key, id: `${keyed.key.publicKeyText()}@fake${i}` }));
    const mine: Answer[] = [];
    for (let i = 0; i < size.perOwnerMax + 2; i++) mine.push(await create(i % 2 === 0 ? keyed : sameKey));
    const others: Answer[] = [];
    for (let i = 0; i < size.perOwnerMax; i++) others.push(await create(other));
    const [fakeCounts, mineCounts, otherCounts] = [tally(fake), tally(mine), tally(others)];
    const registered = await countHooks(t);
    figure('webhook owners', {
      fake: JSON.stringify(fakeCounts),
      'one key, two domains': JSON.stringify(mineCounts),
      other: JSON.stringify(otherCounts),
      registered,
    });
    assert.deepEqual(fakeCounts, { '403 request_signer_unregistered': size.fakeDomains });
    assert.deepEqual(mineCounts, { 201: size.perOwnerMax, '409 webhook_limit_reached': 2 });
    assert.deepEqual(otherCounts, { 201: size.perOwnerMax });
    assert.equal(registered, 2 * size.perOwnerMax);
  } finally {
    await rx.close();
    await t.stopAll();
  }
}

async function countHooks(t: ServedTestNode): Promise<number> {
  const text = await (await fetch(`${t.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('webhooks '));
  return line === undefined ? -1 : Number(line.split(' ')[1]);
}

/** (d) One owner's dead-target webhooks over many commits; another owner's receiver gets every event. */
export async function deadTargetOwner(size: {
  deadHooks: number;
  commits: number;
  queueTotalMax: number;
  queuePerOwnerMax: number;
}): Promise<void> {
  const t = await startServedNode({
    'telemetry.profile': 'full',
    'transaction.max_clock_drift_ms': DRIFT_MS,
    'webhooks.allow_private_targets': true,
    'webhooks.per_owner_max': size.deadHooks,
    'webhooks.queue_total_max': size.queueTotalMax,
    'webhooks.queue_per_owner_max': size.queuePerOwnerMax,
    'webhooks.in_flight_max': 2,
    'webhooks.in_flight_per_owner_max': 1,
    'webhooks.timeout_ms': 30_000,
    'webhooks.attempts_max': 1000,
  });
  const dead = await startReceiver();
  dead.mode = 'hang';
  const alive = await startReceiver();
  try {
    const hog = newAccount('hogs');
    const victim = newAccount('victims');
    await registerAccounts(t, [hog, victim]);
    for (let i = 0; i < size.deadHooks; i++) {
      const a = await signedFetch(t, hog, 'POST', '/v1/webhooks', {
        url: `${dead.url}?${i}`,
        filter: COMMITTED_TXS,
      });
      assert.equal(a.status, 201, JSON.stringify(a));
    }
    const mine = await signedFetch(t, victim, 'POST', '/v1/webhooks', {
      url: alive.url,
      filter: COMMITTED_TXS,
    });
    assert.equal(mine.status, 201);
    const from = t.node.pipeline.events.lastId();
    for (let i = 0; i < size.commits; i++) {
      const r = await run(t, t.admin, [{ kind: 'RegisterDomain', id: `flood${i}`, metadata: new Map() }]);
      assert.equal(r.status.kind, 'Committed');
    }
    const f = compileEventFilter(COMMITTED_TXS, 10, QUERY_LANGUAGE);
    assert.ok(f.ok);
    const events = t.node.pipeline.events.since(from);
    assert.ok(events !== 'gone');
    const expected = events.filter((e) => f.match(projectEvent(e.event))).map((e) => e.id);
    assert.equal(expected.length, size.commits);
    await alive.waitFor((r) => r.accepted().length >= expected.length, 60_000, "the victim's every event");
    const got = alive.accepted().map((r) => (JSON.parse(r.body) as { id: number }).id);
    const metrics = await (await fetch(`${t.url}/metrics`)).text();
    const shed = metrics
      .split('\n')
      .filter((l) => l.startsWith('webhook_owner_shed_total'))
      .map((l) => l.replace('webhook_owner_shed_total', ''))
      .join(' ');
    const dropped = metrics
      .split('\n')
      .find((l) => l.startsWith('webhook_deliveries_total{outcome="dropped"}'));
    figure('dead-target owner', {
      'dead hooks': size.deadHooks,
      commits: size.commits,
      'queue total': size.queueTotalMax,
      'victim received': got.length,
      'dead receiver got': dead.received.length,
      shed,
      dropped: dropped?.split(' ')[1] ?? '?',
    });
    assert.deepEqual(got, expected, "the victim's receiver gets every event, in order");
  } finally {
    await dead.close();
    await alive.close();
    await t.stopAll();
  }
}
