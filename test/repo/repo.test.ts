// Repo agreements through real sockets (docs/repo.md): the CLI initiates (its --json answers the
// agreement id), the counterparty accepts through the SDK, the collateral sits in the locked escrow, a
// price fall and a margin check call margin and a CLI top-up meets it, an early unwind needs both
// parties, a second agreement unwinds at maturity by its scheduled run once the node's clock passes it,
// a freeze of the cash refuses an acceptance (the transfer checks), the read routes (simple list, its
// query twin, the entity, 404), the family's events on the SSE stream, and the routes in the OpenAPI
// document and the MCP bridge's tools.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { numeric } from '../../src/model/numeric.js';
import {
  instructions as ix,
  repoAgreement,
  repoAgreementId,
  repoAgreements,
  ToranaClient,
} from '../../src/sdk/index.js';
import { openSse, type SseClient, waitFor } from '../gateway/stream-clients.js';
import { runCli } from '../helpers/cli-in-process.js';
import { type ControlsFixture, controlsFixture, USD } from '../helpers/controls-fixture.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers are checked field by field.
type J = any;

const BOND = 'bond#wonderland';
const DAY = 86_400_000;

describe('repo agreements (served node)', () => {
  let f: ControlsFixture;
  let sse: SseClient;
  let client: ToranaClient;
  let id: string;
  before(async () => {
    f = await controlsFixture({ 'mcp.enabled': true, 'gateway.rate_burst': 100_000 });
    sse = await openSse(f.t.url, '/v1/events/sse');
    client = new ToranaClient({ url: f.t.url });
    // The admin borrows USD from bob against BOND; carol is the escrow.
    const setup = await f.tx(f.t.admin, [
      {
        kind: 'RegisterAssetDefinition',
        id: BOND,
        scale: 0,
        mintable: { kind: 'Infinitely' },
        metadata: new Map(),
      },
      { kind: 'MintAsset', asset: `${BOND}#${f.t.admin.id}`, amount: numeric('100') },
      { kind: 'MintAsset', asset: `${USD}#${f.t.admin.id}`, amount: numeric('50') },
      {
        kind: 'SetParameter',
        parameter: { kind: 'Custom', id: 'repo_escrow_account', payload: f.carol.id },
      },
    ]);
    assert.equal(setup, 'Committed');
  });
  after(async () => {
    sse.close();
    await f.t.stopAll();
  });

  const cli = async (args: string[]): Promise<J> => {
    const r = await runCli([...args, '--dir', f.t.dir, '--url', f.t.url, '--json']);
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.err}`);
    return JSON.parse(r.out);
  };
  const get = async (path: string) => {
    const res = await fetch(f.t.url + path);
    return { status: res.status, body: (await res.json()) as J };
  };
  const initiate = (reference: string, maturityMs: number) =>
    cli([
      'repo',
      'initiate',
      reference,
      f.bob.id,
      '--cash',
      `100.00@${USD}`,
      '--collateral',
      `12@${BOND}`,
      '--price',
      '10',
      '--maturity',
      String(maturityMs),
      '--rate-bps',
      '500',
      '--haircut-bps',
      '200',
    ]);

  it('the CLI initiates, the counterparty accepts: collateral in the locked escrow, cash to the borrower', async () => {
    const made = await initiate('REPO-1', f.clock.nowMs() + 365 * DAY);
    id = repoAgreementId(f.t.admin.id, 'REPO-1');
    assert.equal(made.status, 'Committed');
    assert.equal(made.repo_agreement_id, id);
    assert.equal((await get(`/v1/repo/agreements/${id}`)).body.status, 'proposed');
    assert.equal(await f.tx(f.alice, [ix.acceptRepo(id)]), 'permission_denied');
    assert.equal(await f.tx(f.bob, [ix.acceptRepo(id)]), 'Committed');
    assert.equal(f.balance(f.carol, BOND), 12n);
    assert.equal(f.balance(f.t.admin), 15_000n); // 50.00 + 100.00
    assert.equal(f.balance(f.bob), 90_000n);
    const fromEscrow = {
      kind: 'TransferAsset' as const,
      source: `${BOND}#${f.carol.id}`,
      destination: f.alice.id,
      amount: numeric('1'),
    };
    assert.equal(await f.tx(f.t.admin, [fromEscrow]), 'repo_escrow_locked');
    assert.equal(await f.tx(f.carol, [f.ins.transfer(f.carol.id, f.alice.id, '1')]), 'repo_escrow_locked');
    const got = await cli(['repo', 'get', id]);
    assert.equal(got.status, 'open');
    assert.equal(got.escrow, f.carol.id);
    assert.deepEqual(got.cash_leg, { asset_definition_id: USD, quantity: '100.00', metadata: {} });
    assert.deepEqual(got.governance, { price_authority: f.bob.id, margin_window_ms: DAY });
  });

  it('a price fall calls margin; a CLI top-up meets the requirement again', async () => {
    assert.equal(await f.tx(f.bob, [ix.setRepoPrice(id, BOND, '8')]), 'Committed');
    assert.equal((await cli(['repo', 'check', id])).status, 'Committed'); // 12 × 8 = 96 < 102
    const called = (await get(`/v1/repo/agreements/${id}`)).body;
    assert.equal(called.status, 'margin_called');
    assert.ok(called.margin_deadline_ms > f.clock.nowMs());
    assert.equal((await cli(['repo', 'top-up', id, '2'])).status, 'Committed'); // 14 × 8 = 112
    const met = await repoAgreement(client, id);
    assert.equal(met.status, 'open');
    assert.equal(met.collateralLeg.quantity.mantissa, 14n);
    assert.equal(met.marginDeadlineMs, undefined);
  });

  it('lists agreements: the simple-list envelope, its query twin; the SDK reads; 404 for no agreement', async () => {
    const all = (await get('/v1/repo/agreements')).body;
    assert.equal(all.total, 1);
    assert.equal(all.items[0].id, id);
    assert.equal(all.items[0].collateral, '14');
    const queried = await f.post('/v1/repo/agreements/query', {
      filter: { eq: ['counterparty', f.bob.id] },
      limit: 10,
    });
    assert.equal(queried.status, 200);
    assert.deepEqual(queried.body, { items: [all.items[0]], total: 1 });
    assert.equal((await repoAgreements(client, { filter: { eq: ['status', 'unwound'] } })).total, 0);
    const missing = await get('/v1/repo/agreements/repo_0000');
    assert.equal(missing.status, 404);
    assert.equal(missing.body.code, 'not_found');
  });

  it('an early unwind needs both parties: cash and interest back, collateral back', async () => {
    assert.equal((await cli(['repo', 'unwind', id])).status, 'Committed');
    assert.equal((await get(`/v1/repo/agreements/${id}`)).body.unwind_requested_by, f.t.admin.id);
    assert.equal(f.balance(f.carol, BOND), 14n);
    assert.equal(await f.tx(f.bob, [ix.unwindRepo(id)]), 'Committed');
    assert.equal((await get(`/v1/repo/agreements/${id}`)).body.status, 'unwound');
    assert.equal(f.balance(f.carol, BOND), 0n);
    assert.equal(f.balance(f.t.admin, BOND), 100n);
    // A few seconds of 5 % on 100.00 is under a cent: rounded down to 0.
    assert.equal(f.balance(f.bob), 100_000n);
  });

  it('a second agreement unwinds at maturity by its scheduled run once the block time passes it', async () => {
    const maturity = f.clock.nowMs() + 10 * DAY;
    await initiate('REPO-2', maturity);
    const second = repoAgreementId(f.t.admin.id, 'REPO-2');
    assert.equal(await f.tx(f.bob, [ix.acceptRepo(second)]), 'Committed');
    const accepted = (await get(`/v1/repo/agreements/${second}`)).body;
    f.clock.jump(11 * DAY);
    // The next block (this transaction's) is past maturity: the run settles the agreement in it.
    assert.equal(await f.tx(f.alice, [f.ins.transfer(f.alice.id, f.bob.id, '1')]), 'Committed');
    await waitFor(
      'the maturity run',
      () => f.t.node.ledger.state.tables.repoAgreement.get(second)?.status.kind === 'Unwound',
    );
    assert.equal((await get(`/v1/repo/agreements/${second}`)).body.status, 'unwound');
    // 100.00 × 5 % × (maturity − acceptance) / 365 days, rounded down: about 10 days → 0.13 or 0.14.
    const elapsed = BigInt(maturity - accepted.initiated_timestamp_ms);
    const interest = (10_000n * 500n * elapsed) / (10_000n * 365n * BigInt(DAY));
    assert.equal(f.balance(f.bob), 100_000n + 100n + interest);
    assert.equal(f.balance(f.carol, BOND), 0n);
  });

  it('the transfer checks apply: a freeze of the cash refuses an acceptance', async () => {
    await initiate('REPO-3', f.clock.nowMs() + 365 * DAY);
    const third = repoAgreementId(f.t.admin.id, 'REPO-3');
    assert.equal(await f.tx(f.t.admin, [f.ins.freeze(f.bob.id)]), 'Committed');
    assert.equal(await f.tx(f.bob, [ix.acceptRepo(third)]), 'transfer_frozen');
    assert.equal(f.balance(f.carol, BOND), 0n, 'the collateral movement rolled back with it');
    assert.equal(await f.tx(f.t.admin, [f.ins.freeze(f.bob.id, false)]), 'Committed');
  });

  it('the family’s events reach the SSE stream', async () => {
    const kinds = () =>
      new Set(sse.messages.filter((m) => m.name === 'data').map((m) => m.data?.data?.kind as string));
    const want = [
      'RepoInitiated',
      'RepoAccepted',
      'RepoPriceSet',
      'RepoMarginChecked',
      'RepoCollateralChanged',
      'RepoUnwindRequested',
      'RepoSettled',
      'RepoStatusChanged',
    ];
    await waitFor('the repo events', () => want.every((k) => kinds().has(k)));
    const atMaturity = sse.messages.find(
      (m) => m.data?.data?.kind === 'RepoSettled' && m.data.data.at_maturity,
    );
    assert.equal(atMaturity?.data.data.collateral_to, f.t.admin.id);
  });

  it('the routes are in the OpenAPI document, with examples, and among the MCP tools', async () => {
    const doc = (await get('/openapi.json')).body;
    for (const p of ['/v1/repo/agreements', '/v1/repo/agreements/query', '/v1/repo/agreements/{id}']) {
      const op = doc.paths[p]?.get ?? doc.paths[p]?.post;
      assert.ok(op, p);
      assert.equal(op['x-ledger-family'], 'repo', p);
      assert.equal(op['x-ledger-app-api'], true, p);
    }
    const detail = doc.paths['/v1/repo/agreements/{id}'].get.responses['200'].content['application/json'];
    assert.ok(JSON.stringify(detail).includes('REPO-2026-0001'), 'the detail answer has an example');
    const res = await fetch(`${f.t.url}/v1/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    const names = ((await res.json()) as J).result.tools.map((t: J) => t.name as string);
    for (const t of ['listRepoAgreements', 'getRepoAgreement']) assert.ok(names.includes(t), t);
  });
});
