// The ISO 20022 bridge theft (docs/security.md "The ISO 20022 bridge"), attempted every way we know, over
// real sockets: a pacs.008 (flat JSON form) whose pins name a victim as the source account and the attacker
// as the target. Before the fix it answered 202 and settled (the routes were public and the bridge signed
// with the genesis admin key). Now:
//   unsigned                                   401 signature_missing
//   stale timestamp / forged signature         401 request_stale / 403 request_signature_invalid
//   replayed honest request                    409 nonce_reused
//   signed by a non-participant                403 iso_participant_not_authorised (not_a_participant)
//   a participant, for another bank's BIC      403 iso_participant_not_authorised (bic)
//   a participant, own BIC, pin on the victim  403 iso_participant_not_authorised (account): pins narrow only
//   a gateway wired WITHOUT the participant    202, the bridge signs, and the executor rejects it:
//   check (the route check removed), and the   debit_not_granted (the victim never granted the bridge;
//   bridge account even holding Admin          a TransferDelegate's other tokens do not count)
// After every attempt the victim's balance is unchanged. Prints one `[figure]` line.

import assert from 'node:assert/strict';
import { numeric } from '../../src/model/numeric.js';
import type { ModuleRouteEnv } from '../../src/modules/descriptor.js';
import { iso20022Module } from '../../src/modules/iso20022/descriptor.js';
import { iso20022Family } from '../../src/modules/iso20022/routes/family.js';
import { buildGateway } from '../../src/node/serve.js';
import { fromHex } from '../../src/util/hex.js';
import { run } from '../helpers/node.js';
import { newAccount } from '../helpers/tx.js';
import {
  type BridgeNode,
  balance,
  bridgeOf,
  EUR,
  post,
  signedHeaders,
  startBridgeNode,
  waitFor,
} from '../iso20022/bridge-fixture.js';
import { sample } from '../iso20022/messages.js';

const EVIL_BIC = 'EVILGB2LXXX';

export interface TheftFigures {
  attempts: number;
  refusedAtRoute: number;
  refusedByExecutor: number;
  victimBalance: string;
}

/** `attempts`: how many times each route-level attack is repeated (each with a fresh message id). */
export async function bridgeTheft(opts: { attempts: number }): Promise<TheftFigures> {
  const mallory = newAccount('bank', 31);
  const evilBank = newAccount('bank', 32);
  const stranger = newAccount('bank', 33);
  const victim = newAccount('bank', 34);
  const participants = { [evilBank.id]: { bics: [EVIL_BIC], account_ids: [mallory.id] } };
  const b = await startBridgeNode({}, participants);
  try {
    const setup = await run(b, b.admin, [
      ...[mallory, evilBank, stranger, victim].map((a) => ({
        kind: 'RegisterAccount' as const,
        id: a.id,
        metadata: new Map(),
      })),
      { kind: 'MintAsset', asset: `${EUR}#${victim.id}`, amount: numeric('5000.00') },
    ]);
    assert.equal(setup.status.kind, 'Committed', JSON.stringify(setup.status));
    const before = balance(b, EUR, victim);
    const theft = (id: string, debtorBic: string) => ({
      ...JSON.parse(sample('pacs008.flat.json')),
      message_id: id,
      debtor_bic: debtorBic,
      ledger_id: b.chainId,
      source_account_id: victim.id,
      target_account_id: mallory.id,
      asset_definition_id: EUR,
      amount: '4000.00',
    });
    const expect = async (
      r: Promise<{ status: number; body: Record<string, unknown> }>,
      status: number,
      code: string,
      reason?: string,
    ) => {
      const a = await r;
      assert.equal(a.status, status, JSON.stringify(a.body));
      assert.equal(a.body.code, code, JSON.stringify(a.body));
      if (reason !== undefined) assert.equal((a.body.details as { reason?: string }).reason, reason);
      assert.equal(balance(b, EUR, victim), before, 'the victim kept every cent');
    };
    let refusedAtRoute = 0;
    for (let i = 0; i < opts.attempts; i++) {
      const m = (what: string) => `THEFT-${what}-${i}`;
      await expect(
        post(b, 'pacs008', theft(m('UNSIGNED'), 'DEUTDEFFXXX'), {}, null),
        401,
        'signature_missing',
      );
      await expect(
        post(b, 'pacs008', theft(m('STRANGER'), 'DEUTDEFFXXX'), {}, stranger),
        403,
        'iso_participant_not_authorised',
        'not_a_participant',
      );
      await expect(
        post(b, 'pacs008', theft(m('OTHER-BIC'), 'DEUTDEFFXXX'), {}, evilBank),
        403,
        'iso_participant_not_authorised',
        'bic',
      );
      await expect(
        post(b, 'pacs008', theft(m('PIN'), EVIL_BIC), {}, evilBank),
        403,
        'iso_participant_not_authorised',
        'account',
      );
      await expect(staleOrForged(b, theft(m('STALE'), EVIL_BIC), 'stale'), 401, 'request_stale');
      await expect(
        staleOrForged(b, theft(m('FORGED'), EVIL_BIC), 'forged'),
        403,
        'request_signature_invalid',
      );
      await expect(replayed(b, m('REPLAY')), 409, 'nonce_reused');
      refusedAtRoute += 7;
    }
    // Worst case for the ledger's own limit: the bridge account was even (mis)granted Admin.
    const admin = await run(b, b.admin, [
      { kind: 'GrantPermission', account: b.bridgeAccount, permission: { name: 'Admin', payload: null } },
    ]);
    assert.equal(admin.status.kind, 'Committed', JSON.stringify(admin.status));
    const refusedByExecutor = await withoutRouteCheck(b, theft('THEFT-UNCHECKED', 'DEUTDEFFXXX'));
    assert.equal(balance(b, EUR, victim), before, 'the executor kept the victim whole');
    const figures = {
      attempts: opts.attempts * 7 + 1,
      refusedAtRoute,
      refusedByExecutor,
      victimBalance: balance(b, EUR, victim),
    };
    console.log(`[figure] bridge theft: ${JSON.stringify(figures)}`);
    return figures;
  } finally {
    await b.stopAll();
  }
}

/** The theft signed by the fixture bank but 10 minutes old, or with a signature over another body. */
async function staleOrForged(b: BridgeNode, body: object, how: 'stale' | 'forged') {
  const text = JSON.stringify(body);
  const path = '/v1/iso20022/pacs008';
  const headers =
    how === 'stale'
      ? signedHeaders(b.bank, 'POST', path, text, Date.now() - 600_000)
      : signedHeaders(b.bank, 'POST', path, '{}');
  const res = await fetch(`${b.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: text,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** An honest, harmless signed GET sent twice with the same headers: the second is a replay. */
async function replayed(b: BridgeNode, id: string) {
  const path = `/v1/iso20022/messages/${id}`;
  const headers = signedHeaders(b.bank, 'GET', path);
  const first = await fetch(`${b.url}${path}`, { headers });
  assert.equal(first.status, 404, 'the first (unknown message) is answered');
  const res = await fetch(`${b.url}${path}`, { headers });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/**
 * A second gateway over the same bridge service with the participant check removed (a wiring bug):
 * the bridge signs the theft, and the ledger must refuse it. Returns 1 when the executor did.
 */
async function withoutRouteCheck(b: BridgeNode, body: object): Promise<number> {
  const bridge = bridgeOf(b);
  const unchecked = {
    account: bridge.account,
    submit: (kind: Parameters<typeof bridge.submit>[0], message: string | object) =>
      bridge.submit(kind, message, undefined),
    participant: () => undefined,
    record: (id: string) => bridge.record(id),
    report: (id: string, r: Parameters<typeof bridge.report>[1]) => bridge.report(id, r),
    audit: (offset: number, limit: number) => bridge.audit(offset, limit),
  };
  // The node's modules with the bridge's family served over the unchecked port instead.
  const unwired = {
    ...iso20022Module,
    routes: (env: ModuleRouteEnv) =>
      iso20022Family(unchecked, env.deps, { xmlBodyBytesMax: 1 << 20, signedRequests: env.signedRequests }),
  };
  const app = await buildGateway(b.node, () => '127.0.0.1', undefined, undefined, [unwired]);
  try {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const addr = app.server.address();
    const url = `http://127.0.0.1:${typeof addr === 'object' && addr !== null ? addr.port : 0}`;
    const r = await post({ ...b, url }, 'pacs008', body);
    assert.equal(r.status, 202, JSON.stringify(r.body));
    const hash = fromHex(r.body.transaction_hash as string, 32);
    assert.ok(hash !== undefined);
    const until = Date.now() + 10_000;
    for (;;) {
      const s = await b.node.pipeline.status(hash);
      if (s?.status === 'Rejected') {
        assert.equal(s.reason.code, 'debit_not_granted', s.reason.message);
        const rec = await waitFor(b, 'THEFT-UNCHECKED', (x) => x.pacs002_code === 'RJCT');
        assert.equal(rec.reason_code, 'AG01', JSON.stringify(rec));
        return 1;
      }
      assert.notEqual(s?.status, 'Committed', 'the ledger settled the theft');
      assert.ok(Date.now() < until, `no final status: ${JSON.stringify(s)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await app.close();
  }
}
