// The signalling routes in-process (docs/conference.md "Signalling"): signed requests, who may post and
// read what, the envelope checks and bounds with their stable codes, polling with a cursor, and the SSE
// stream with a live answer and Last-Event-ID resumption.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Ed25519KeyPair } from '../../src/crypto/signer.js';
import type { GatewayApp } from '../../src/gateway/context.js';
import { createErrorRegistry } from '../../src/gateway/errors.js';
import { LEDGER_ERRORS } from '../../src/gateway/ledger-errors.js';
import { createOperatorAuth } from '../../src/gateway/operator-auth.js';
import { registerRoutes } from '../../src/gateway/route-table.js';
import { createGatewayServer } from '../../src/gateway/server.js';
import { createSignedNonceStore } from '../../src/gateway/signed-nonces.js';
import { createSignedRequests } from '../../src/gateway/signed-request.js';
import { accountId } from '../../src/model/ids.js';
import { CONFERENCE_GATEWAY_ERRORS } from '../../src/modules/conference/gateway-errors.js';
import { SignalBox } from '../../src/modules/conference/signal-box.js';
import { sealSignal } from '../../src/modules/conference/signal-envelope.js';
import { type SignalCallPort, signalRoutes } from '../../src/modules/conference/signal-routes.js';
import { signRequest } from '../../src/sdk/signed-request.js';

const key = (n: number) => Ed25519KeyPair.fromSeed(new Uint8Array(32).fill(n));
const who = (n: number) => ({ key: key(n), id: accountId(key(n).publicKeyText(), 'wonderland') });
const host = who(1);
const alice = who(2);
const bob = who(3);
const carol = who(4);
const stranger = who(9);
const many = ['a', 'b', 'c', 'd'].map((n, i) => accountId(key(10 + i).publicKeyText(), n));
const CALL = 'wonderland:tea';
const ENDED = 'wonderland:over';
const PARTY = 'wonderland:party';
const LOUNGE = 'wonderland:lounge';
/** Every account but `stranger` is registered. */
const registered = new Set([host.id, alice.id, bob.id, carol.id, ...many]);

const calls: SignalCallPort = {
  call: (id) =>
    id === CALL
      ? { host: host.id, status: { kind: 'Active' } }
      : id === ENDED
        ? { host: host.id, status: { kind: 'Ended' } }
        : id === PARTY || id === LOUNGE
          ? { host: carol.id, status: { kind: 'Active' } }
          : undefined,
  accountExists: (id) => registered.has(id),
  // A name in place of an account id: any `label@domain` that is no account id (the aliases module's form).
  accountName: (text) =>
    /^[a-z0-9][a-z0-9._-]*@[a-z_]+$/.test(text) && !text.startsWith('ed0120')
      ? { field: 'account_alias', id: text === 'alice@wonderland' ? alice.id : undefined }
      : undefined,
};

async function envelope(to: string, text = 'v=0 offer', from = host): Promise<string> {
  const r = await sealSignal(
    { callId: from === host ? CALL : PARTY, kind: 'offer', from: from.id, to },
    new TextEncoder().encode(text),
    from.key,
  );
  assert.ok(r.ok);
  return Buffer.from(r.envelope).toString('base64');
}

describe('conference signalling routes', () => {
  let app: GatewayApp;
  let box: SignalBox;
  let url: string;
  before(async () => {
    app = await createGatewayServer({
      logLevel: 'silent',
      limits: { ratePerSecond: 0 },
      errors: createErrorRegistry({ ...LEDGER_ERRORS, ...CONFERENCE_GATEWAY_ERRORS }),
    });
    box = new SignalBox(
      {
        offersPerCallMax: 3,
        answersPerCallMax: 10,
        envelopeBytesMax: 1024,
        ttlMs: 60_000,
        bytesMax: 1 << 20,
        answerBytesMax: 1 << 20,
        hostBytesMax: 1 << 20,
        hostRecordsMax: 3,
      },
      Date.now,
    );
    const routes = signalRoutes({
      box,
      calls,
      auth: createSignedRequests({
        signers: { registered: (id) => calls.accountExists(id), clockDriftMs: () => 30_000 },
        nonces: createSignedNonceStore(1000),
        now: Date.now,
      }),
      errors: app.gateway.errors,
      bodyBytesMax: 64 * 1024,
      offersPerRequestMax: 8,
      pageMax: 100,
    });
    registerRoutes(app, routes, {
      profile: 'full',
      operatorAuth: createOperatorAuth({
        operators: [],
        now: Date.now,
        audience: { chainId: 'test', nodeKey: 'none' },
      }),
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  });
  after(() => app.close());

  function signed(as: typeof host, method: 'GET' | 'POST', path: string, body?: unknown) {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const headers = signRequest({
      method,
      url: path,
      account: as.id,
      signer: as.key,
      ...(text === undefined ? {} : { body: text }),
    });
    return app.inject({
      method,
      url: path,
      headers: { ...headers, ...(text === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(text === undefined ? {} : { payload: text }),
    });
  }
  const offersPath = (call = CALL) => `/v1/conference/calls/${call}/offers`;

  it('the host posts offers; each participant (and the host) reads its own, nobody else', async () => {
    const posted = await signed(host, 'POST', offersPath(), {
      offers: [
        { to: alice.id, envelope: await envelope(alice.id, 'for alice') },
        { to: bob.id, envelope: await envelope(bob.id) },
      ],
    });
    assert.equal(posted.statusCode, 201, posted.body);
    const items = posted.json().items;
    assert.deepEqual(
      items.map((i: { to: string; kind: string; from: string }) => [i.kind, i.from, i.to]),
      [
        ['offer', host.id, alice.id],
        ['offer', host.id, bob.id],
      ],
    );
    const mine = await signed(alice, 'GET', `${offersPath()}/${alice.id}`);
    assert.equal(mine.statusCode, 200);
    assert.equal(mine.json().envelope, items[0].envelope);
    assert.equal((await signed(host, 'GET', `${offersPath()}/${alice.id}`)).statusCode, 200);
    const theirs = await signed(bob, 'GET', `${offersPath()}/${alice.id}`);
    assert.equal(theirs.json().code, 'conference_signal_forbidden');
    const none = await signed(host, 'GET', `${offersPath()}/${host.id}`);
    assert.equal(none.json().code, 'conference_signal_offer_not_found');
  });

  it('takes an account alias for a recipient and a participant; an unbound one is 404', async () => {
    const posted = await signed(host, 'POST', offersPath(), {
      offers: [{ to: 'alice@wonderland', envelope: await envelope(alice.id, 'by alias') }],
    });
    assert.equal(posted.statusCode, 201, posted.body);
    assert.equal(posted.json().items[0].to, alice.id);
    const mine = await signed(alice, 'GET', `${offersPath()}/alice@wonderland`);
    assert.equal(mine.statusCode, 200, mine.body);
    assert.equal(mine.json().envelope, posted.json().items[0].envelope);
    const unbound = await signed(host, 'POST', offersPath(), {
      offers: [{ to: 'nobody@wonderland', envelope: await envelope(alice.id) }],
    });
    assert.equal(unbound.statusCode, 404);
    assert.deepEqual(unbound.json().details, { index: 0, account_alias: 'nobody@wonderland' });
    const noOffer = await signed(host, 'GET', `${offersPath()}/nobody@wonderland`);
    assert.equal(noOffer.json().code, 'not_found');
  });

  it('refuses with stable codes: unsigned, not the host, unknown or ended call, bad recipient or envelope', async () => {
    const good = { offers: [{ to: alice.id, envelope: await envelope(alice.id) }] };
    const unsigned = await app.inject({ method: 'POST', url: offersPath(), payload: good });
    assert.equal(unsigned.json().code, 'signature_missing');
    const cases: Array<[typeof host, string, unknown, number, string]> = [
      [alice, CALL, good, 403, 'conference_signal_not_host'],
      [host, 'wonderland:nope', good, 404, 'conference_not_found'],
      [host, ENDED, good, 409, 'conference_signal_call_ended'],
      [
        host,
        CALL,
        { offers: [{ to: 'not an account', envelope: good.offers[0]!.envelope }] },
        400,
        'conference_signal_recipient_invalid',
      ],
      [
        host,
        CALL,
        { offers: [good.offers[0]!, { to: stranger.id, envelope: await envelope(stranger.id) }] },
        422,
        'conference_signal_recipient_not_registered',
      ],
      [
        host,
        CALL,
        { offers: [{ to: alice.id, envelope: Buffer.from([2, ...new Uint8Array(80)]).toString('base64') }] },
        400,
        'conference_signal_envelope_invalid',
      ],
      [
        host,
        CALL,
        { offers: [{ to: alice.id, envelope: Buffer.alloc(1025, 1).toString('base64') }] },
        413,
        'conference_signal_envelope_too_large',
      ],
    ];
    for (const [as, call, body, status, code] of cases) {
      const r = await signed(as, 'POST', offersPath(call), body);
      assert.deepEqual([r.statusCode, r.json().code], [status, code], call);
    }
    const offers = await Promise.all(
      many.slice(0, 3).map(async (to) => ({ to, envelope: await envelope(to) })),
    );
    const full = await signed(host, 'POST', offersPath(), { offers });
    assert.deepEqual([full.statusCode, full.json().code], [422, 'conference_signal_offers_full']);
  });

  it('holds one host to its quota of offers over its calls: 429 with Retry-After; other hosts unaffected', async () => {
    const post = async (call: string, to: string[]) =>
      signed(carol, 'POST', offersPath(call), {
        offers: await Promise.all(to.map(async (t) => ({ to: t, envelope: await envelope(t, 'x', carol) }))),
      });
    assert.equal((await post(PARTY, many.slice(0, 2))).statusCode, 201);
    assert.equal((await post(LOUNGE, [many[2]!])).statusCode, 201);
    const over = await post(LOUNGE, [many[3]!]);
    assert.deepEqual([over.statusCode, over.json().code], [429, 'conference_signal_host_quota_exceeded']);
    const { retry_after_s, ...details } = over.json().details;
    assert.deepEqual(details, { quota: 'records', limit: 3, wanted: 4 });
    // Until carol's oldest offer expires (TTL 60 s, posted a moment ago).
    assert.ok(retry_after_s > 30 && retry_after_s <= 60, String(retry_after_s));
    assert.equal(over.headers['retry-after'], String(retry_after_s));
    assert.equal(box.offer(LOUNGE, many[3]!), undefined, 'nothing of a refused request is stored');
    assert.equal((await post(PARTY, [many[0]!])).statusCode, 201, 'replacing an offer takes no more quota');
    assert.equal(box.offer(CALL, alice.id)?.from, host.id, "another host's offers stay");
  });

  it('polls offers and committed answers after a cursor; non-hosts see only their own', async () => {
    const first = (await signed(host, 'GET', `/v1/conference/calls/${CALL}/signals`)).json();
    assert.equal(first.items.length, 2);
    box.addAnswer({
      callId: CALL,
      from: alice.id,
      to: host.id,
      envelope: new Uint8Array([1, 2, 3]),
      height: 7,
    });
    const next = (
      await signed(host, 'GET', `/v1/conference/calls/${CALL}/signals?after=${first.cursor}`)
    ).json();
    assert.deepEqual(
      next.items.map((i: { kind: string; from: string; height: number }) => [i.kind, i.from, i.height]),
      [['answer', alice.id, 7]],
    );
    const bobs = (await signed(bob, 'GET', `/v1/conference/calls/${CALL}/signals`)).json();
    assert.deepEqual(
      bobs.items.map((i: { to: string }) => i.to),
      [bob.id],
    );
  });

  it('streams signals as SSE: stored ones first, then live answers; resumes after Last-Event-ID', async () => {
    const path = `/v1/conference/calls/${CALL}/signals/stream`;
    const read = async (headers: Record<string, string>, until: (text: string) => boolean) => {
      const ac = new AbortController();
      const res = await fetch(`${url}${path}`, {
        headers: {
          ...signRequest({ method: 'GET', url: path, account: host.id, signer: host.key }),
          ...headers,
        },
        // A stream that never brings the expected events fails the test instead of hanging it.
        signal: AbortSignal.any([ac.signal, AbortSignal.timeout(10_000)]),
      });
      assert.equal(res.status, 200);
      let text = '';
      const decoder = new TextDecoder();
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        text += decoder.decode(chunk, { stream: true });
        if (until(text)) break;
      }
      ac.abort();
      return text;
    };
    const ids = (t: string) => [...t.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
    const live = setTimeout(
      () =>
        box.addAnswer({ callId: CALL, from: bob.id, to: host.id, envelope: new Uint8Array([9]), height: 8 }),
      100,
    );
    const all = await read({}, (t) => ids(t).length >= 4);
    clearTimeout(live);
    assert.deepEqual(
      [...all.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]),
      ['offer', 'offer', 'answer', 'answer'],
    );
    const seen = ids(all);
    const resumed = await read({ 'last-event-id': String(seen[2]) }, (t) => ids(t).length >= 1);
    assert.deepEqual(ids(resumed), [seen[3]]);
  });
});
