import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Type } from 'typebox';
import { defaultConfig } from '../config/schema.js';
import { ed25519Generate } from '../crypto/ed25519.js';
import { publicKeyToText } from '../crypto/keys.js';
import type { GatewayApp } from './context.js';
import { gatewayError } from './errors.js';
import { createNonceCache } from './nonce-cache.js';
import {
  createOperatorAuth,
  DEFAULT_OPERATOR_MAX_AGE_MS,
  DEFAULT_OPERATOR_NONCES_MAX,
  type OperatorAuthOptions,
} from './operator-auth.js';
import { operatorMessage, sha256Hex, signOperatorRequest } from './operator-message.js';
import { sortedQuery } from './request-text.js';
import { registerRoutes } from './route-table.js';
import { createGatewayServer } from './server.js';

const operator = ed25519Generate();
const stranger = ed25519Generate();
const T0 = 1_700_000_000_000;
const AUDIENCE = { chainId: 'chain-a', nodeKey: 'ed0120node-a' };

async function operatorServer(
  operators: string[],
  now: () => number,
  extra: Partial<OperatorAuthOptions> = {},
): Promise<GatewayApp> {
  const app = await createGatewayServer({ logLevel: 'silent', limits: { ratePerSecond: 0 } });
  const operatorAuth = createOperatorAuth({
    operators,
    now,
    maxAgeMs: 30_000,
    noncesMax: 100,
    audience: AUDIENCE,
    ...extra,
  });
  registerRoutes(
    app,
    [
      {
        method: 'POST',
        url: '/v1/runtime/upgrades/propose',
        operationId: 'proposeUpgrade',
        summary: 'propose',
        tags: ['runtime'],
        visibility: 'operator',
        schema: { body: Type.Object({ name: Type.String() }) },
        handler: async (req) => ({ ok: true, name: (req.body as { name: string }).name }),
      },
    ],
    { profile: 'disabled', operatorAuth },
  );
  await app.ready();
  return app;
}

describe('operator authentication', () => {
  let app: GatewayApp;
  const now = T0;
  const url = '/v1/runtime/upgrades/propose?b=2&a=1&a=0';
  const body = '{"name":"v2"}';
  const send = (headers: Record<string, string>, payload = body, path = url) =>
    app.inject({
      method: 'POST',
      url: path,
      payload,
      headers: { 'content-type': 'application/json', ...headers },
    });
  const signed = (overrides: Partial<Parameters<typeof signOperatorRequest>[0]> = {}) =>
    signOperatorRequest({
      method: 'POST',
      url,
      body,
      seed: operator.seed,
      timestampMs: now,
      ...AUDIENCE,
      ...overrides,
    });

  before(async () => {
    app = await operatorServer(
      [publicKeyToText({ algorithm: 'ed25519', bytes: operator.publicKey })],
      () => now,
    );
  });
  after(() => app.close());

  it('accepts a correctly signed request (whatever the query order on the wire)', async () => {
    const r = await send(signed(), body, '/v1/runtime/upgrades/propose?a=0&a=1&b=2');
    assert.equal(r.statusCode, 200, r.body);
    assert.deepEqual(r.json(), { ok: true, name: 'v2' });
  });

  it('401 operator_auth_missing without the headers', async () => {
    const r = await send({});
    assert.equal(r.statusCode, 401);
    assert.equal(r.json().code, 'operator_auth_missing');
    assert.equal(r.json().details.missing.length, 4);
  });

  const invalid: [string, () => Record<string, string>, string, string?][] = [
    [
      'unknown key',
      () =>
        signOperatorRequest({
          method: 'POST',
          url,
          body,
          seed: stranger.seed,
          timestampMs: now,
          ...AUDIENCE,
        }),
      'unknown_key',
    ],
    ['tampered body', () => signed(), 'signature', '{"name":"v3"}'],
    ['signature over another path', () => signed({ url: '/v1/runtime/upgrades/cancel/1' }), 'signature'],
    // A request signed for another node or another chain (same operator key) does not verify.
    ['signed for another node', () => signed({ nodeKey: 'ed0120node-b' }), 'signature'],
    ['signed for another chain', () => signed({ chainId: 'chain-b' }), 'signature'],
    ['timestamp too old', () => signed({ timestampMs: now - 30_001 }), 'timestamp_skew'],
    ['timestamp in the future', () => signed({ timestampMs: now + 30_001 }), 'timestamp_skew'],
    [
      'malformed timestamp',
      () => ({ ...signed(), 'x-ledger-operator-timestamp': '12e5' }),
      'timestamp_format',
    ],
    ['short nonce', () => signed({ nonce: 'short' }), 'nonce_format'],
    ['malformed key', () => ({ ...signed(), 'x-ledger-operator-key': 'ed0120zz' }), 'key_format'],
    [
      'malformed signature',
      () => ({ ...signed(), 'x-ledger-operator-signature': 'abcd' }),
      'signature_format',
    ],
  ];
  for (const [name, headers, reason, payload] of invalid) {
    it(`401 operator_auth_invalid: ${name}`, async () => {
      const r = await send(headers(), payload);
      assert.equal(r.statusCode, 401);
      assert.equal(r.json().code, 'operator_auth_invalid');
      assert.equal(r.json().details.reason, reason);
    });
  }

  it('401 operator_replay for a reused nonce; a forged request does not burn the nonce', async () => {
    const headers = signed({ nonce: 'replay-test-nonce-0001' });
    const forged = await send(headers, '{"name":"evil"}');
    assert.equal(forged.json().details.reason, 'signature');
    assert.equal((await send(headers)).statusCode, 200);
    const again = await send(headers);
    assert.equal(again.statusCode, 401);
    assert.equal(again.json().code, 'operator_replay');
  });

  it('403 operator_access_disabled when no operators are configured', async () => {
    const closed = await operatorServer([], () => now);
    try {
      const r = await closed.inject({ method: 'POST', url, payload: body, headers: signed() });
      assert.equal(r.statusCode, 403);
      assert.equal(r.json().code, 'operator_access_disabled');
    } finally {
      await closed.close();
    }
  });
});

describe('operator replay across a restart', () => {
  it('refuses a request accepted before the restart, replayed after it within the window', async () => {
    let mark = Number.NEGATIVE_INFINITY;
    const saved: number[] = [];
    const watermark = () => ({
      initialMs: mark,
      async save(ms: number) {
        mark = ms;
        saved.push(ms);
      },
    });
    const keys = [publicKeyToText({ algorithm: 'ed25519', bytes: operator.publicKey })];
    const url = '/v1/runtime/upgrades/propose';
    const payload = '{"name":"v2"}';
    const headers = signOperatorRequest({
      method: 'POST',
      url,
      body: payload,
      seed: operator.seed,
      timestampMs: T0,
      ...AUDIENCE,
    });
    const post = (app: GatewayApp, h: Record<string, string>) =>
      app.inject({ method: 'POST', url, payload, headers: { 'content-type': 'application/json', ...h } });
    const first = await operatorServer(keys, () => T0, { watermark: watermark() });
    assert.equal((await post(first, headers)).statusCode, 200);
    await first.close();
    assert.deepEqual(saved, [T0], 'the accepted timestamp is saved before the answer');
    // The restarted node (5 s later, well inside the ±30 s window) has forgotten its nonces in memory.
    const second = await operatorServer(keys, () => T0 + 5_000, { watermark: watermark() });
    try {
      const replay = await post(second, headers);
      assert.equal(replay.statusCode, 401);
      assert.equal(replay.json().code, 'operator_replay');
      const fresh = signOperatorRequest({
        method: 'POST',
        url,
        body: payload,
        seed: operator.seed,
        timestampMs: T0 + 5_000,
        ...AUDIENCE,
      });
      assert.equal((await post(second, fresh)).statusCode, 200, 'a fresh request is served');
    } finally {
      await second.close();
    }
  });
});

describe('operator message layout', () => {
  it('is the tag, chain id, node key, METHOD, path, sorted query, body hash, timestamp, nonce by lines', () => {
    const text = new TextDecoder().decode(
      operatorMessage({
        chainId: 'c',
        nodeKey: 'k',
        method: 'post',
        url: '/p%20x?b=2&a=%2F&a=1&flag',
        bodySha256Hex: 'ab',
        timestampMs: 5,
        nonce: 'n',
      }),
    );
    assert.equal(text, 'torana-operator-v1\nc\nk\nPOST\n/p%20x\na=%2F&a=1&b=2&flag=\nab\n5\nn');
    assert.equal(sortedQuery(''), '');
    assert.equal(
      sha256Hex(new Uint8Array()),
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
  });
});

describe('nonce cache', () => {
  it('forgets the oldest nonce but refuses anything stamped at or before it while it could replay', () => {
    const cache = createNonceCache(2, 1_000);
    assert.ok(cache.checkAndAdd('a', 100, 100));
    assert.ok(cache.checkAndAdd('b', 200, 200));
    assert.ok(!cache.checkAndAdd('a', 100, 200), 'replay');
    assert.ok(cache.checkAndAdd('c', 300, 300)); // evicts a (stamp 100): watermark 100
    assert.equal(cache.size(), 2);
    assert.ok(!cache.checkAndAdd('a', 100, 300), 'evicted nonce still refused through the watermark');
    assert.ok(cache.checkAndAdd('d', 301, 301));
  });

  it('does not raise the watermark for nonces already outside the window', () => {
    const cache = createNonceCache(1, 1_000);
    assert.ok(cache.checkAndAdd('a', 100, 100));
    assert.ok(cache.checkAndAdd('b', 5_000, 5_000)); // a expired long ago
    assert.ok(cache.checkAndAdd('c', 4_500, 5_000));
  });
});

describe('operator window defaults', () => {
  it('the gateway defaults equal the config defaults and the documented ±30 s / 10,000', () => {
    assert.equal(defaultConfig().operator.requestMaxAgeMs, DEFAULT_OPERATOR_MAX_AGE_MS);
    assert.equal(defaultConfig().operator.noncesMax, DEFAULT_OPERATOR_NONCES_MAX);
    assert.equal(DEFAULT_OPERATOR_MAX_AGE_MS, 30_000);
    assert.equal(DEFAULT_OPERATOR_NONCES_MAX, 10_000);
  });
});

describe('operator authentication by session token (OperatorSessionVerifier port)', () => {
  const good = 'G'.repeat(43);
  const sessions = {
    verify: (token: string) =>
      token === good
        ? { sessionId: 's1', operatorKey: 'k' }
        : gatewayError('operator_session_revoked', { reason: 'revoked' }),
  };
  const propose = (app: GatewayApp, headers: Record<string, string>) =>
    app.inject({
      method: 'POST',
      url: '/v1/runtime/upgrades/propose',
      payload: '{"name":"v3"}',
      headers: { 'content-type': 'application/json', ...headers },
    });
  const key = publicKeyToText({ algorithm: 'ed25519', bytes: operator.publicKey });

  it('a verified bearer token replaces the signed headers; the verifier decides the refusal', async () => {
    const app = await operatorServer([key], () => T0, { sessions });
    try {
      const ok = await propose(app, { authorization: `Bearer ${good}` });
      assert.deepEqual([ok.statusCode, ok.json()], [200, { ok: true, name: 'v3' }]);
      const lower = await propose(app, { authorization: `bearer ${good}` });
      assert.equal(lower.statusCode, 200);
      const revoked = await propose(app, { authorization: `Bearer ${'R'.repeat(43)}` });
      assert.deepEqual([revoked.statusCode, revoked.json().code], [401, 'operator_session_revoked']);
      const malformed = await propose(app, { authorization: 'Bearer short' });
      assert.deepEqual([malformed.statusCode, malformed.json().details.reason], [401, 'bearer_format']);
      const basic = await propose(app, { authorization: 'Basic dXNlcjpwYXNz' });
      assert.deepEqual([basic.statusCode, basic.json().code], [401, 'operator_auth_missing']);
    } finally {
      await app.close();
    }
  });

  it('without a verifier a bearer token opens nothing; without operators it is 403 first', async () => {
    const plain = await operatorServer([key], () => T0);
    const closed = await operatorServer([], () => T0, { sessions });
    try {
      const r = await propose(plain, { authorization: `Bearer ${good}` });
      assert.deepEqual([r.statusCode, r.json().code], [401, 'operator_auth_missing']);
      const c = await propose(closed, { authorization: `Bearer ${good}` });
      assert.deepEqual([c.statusCode, c.json().code], [403, 'operator_access_disabled']);
    } finally {
      await plain.close();
      await closed.close();
    }
  });
});
