// Multisig accounts through real sockets (docs/multisig.md):
// onboarding and the two-step writes signed by the client, a 2-of-3 proposal that executes exactly once
// when the second approval commits, expiry by block time, non-signatory refusal, spec changes only
// through the multisig itself, the signed approvals inbox, private keys refused, and the state root
// after `torana rebuild`.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Instruction } from '../../src/model/instructions.js';
import { numeric } from '../../src/model/numeric.js';
import { multisigAccountId } from '../../src/modules/multisig/model.js';
import {
  instructions,
  multisigApprovals,
  multisigProposal,
  multisigProposalId,
  multisigProposals,
  multisigSpec,
  multisigAccountId as sdkMultisigAccountId,
  ToranaClient,
} from '../../src/sdk/index.js';
import { signRequest } from '../../src/sdk/signed-request.js';
import { toHex } from '../../src/util/hex.js';
import { type AppFixture, alice, bob, carol, type J, rose, startAppFixture } from '../gateway/app-fixture.js';
import { runCli as cli } from '../helpers/cli-in-process.js';
import { run } from '../helpers/node.js';
import type { TestAccount } from '../helpers/tx.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const TREASURY = multisigAccountId('wonderland', 'treasury');
assert.equal(sdkMultisigAccountId('wonderland', 'treasury'), TREASURY);
const FAST = multisigAccountId('wonderland', 'fast');
const SEL = { multisig_account_alias: 'treasury@wonderland' };

describe('multisig (served node)', () => {
  let f: AppFixture;
  before(async () => {
    f = await startAppFixture();
  });
  after(async () => {
    await f.t.stopAll();
  });

  async function tx(signer: TestAccount, instructions: Instruction[]): Promise<string> {
    const r = await run(f.t, signer, instructions);
    return r.status.kind === 'Rejected' ? r.status.reason.code : r.status.kind;
  }

  /** The final status of a submitted transaction: Committed, or the rejection code. */
  async function settled(hash: string): Promise<string> {
    for (let i = 0; i < 400; i++) {
      const r = await f.get(`/v1/pipeline/transactions/status?hash=${hash}`);
      if (r.status === 200 && r.body.status === 'Committed') return 'Committed';
      if (r.status === 200 && r.body.status === 'Rejected') return r.body.reason.code;
      await sleep(25);
    }
    throw new Error(`transaction ${hash} did not settle`);
  }

  /** Both steps of a detached-signing write; returns the second answer and the final status. */
  async function signed(path: string, body: Record<string, unknown>, signer: TestAccount) {
    const first = await f.post(path, { ...body, signer_account_id: signer.id });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.submitted, false);
    const message = Buffer.from(first.body.signing_message_b64, 'base64');
    assert.equal(message.length, 32);
    const second = await f.post(path, {
      ...body,
      signer_account_id: signer.id,
      creation_time_ms: first.body.creation_time_ms,
      public_key_hex: signer.key.publicKeyText(),
      signature_b64: Buffer.from(signer.key.sign(message)).toString('base64'),
    });
    assert.equal(second.status, 200, JSON.stringify(second.body));
    assert.equal(second.body.submitted, true);
    return { answer: second.body as J, status: await settled(second.body.tx_hash_hex) };
  }

  const balance = (account: string) =>
    f.t.node.ledger.state.asset(`${rose}#${account}`)?.value.mantissa ?? 0n;
  const pay = (amount: string): J[] => [
    { kind: 'TransferAsset', source: `${rose}#${TREASURY}`, destination: carol.id, amount },
  ];

  it('onboards a 2-of-3 multisig through the route; the node never holds a key', async () => {
    const body = {
      domain: 'wonderland',
      seed: 'treasury',
      signatories: { [alice.id]: 1, [bob.id]: 1, [carol.id]: 1 },
      quorum: 2,
      alias: 'treasury@wonderland',
    };
    await f.refused('/v1/accounts/onboard/multisig', 400, 'private_key_not_accepted', {
      ...body,
      signer_account_id: f.t.admin.id,
      private_key: 'x',
    });
    const { answer, status } = await signed('/v1/accounts/onboard/multisig', body, f.t.admin);
    assert.equal(status, 'Committed');
    assert.equal(answer.multisig_account_id, TREASURY);
    const spec = await f.post('/v1/multisig/spec', SEL);
    assert.deepEqual(spec.body, {
      multisig_account_id: TREASURY,
      signatories: { [alice.id]: 1, [bob.id]: 1, [carol.id]: 1 },
      quorum: 2,
      transaction_ttl_ms: 3_600_000,
    });
    assert.equal(
      await tx(f.t.admin, [{ kind: 'MintAsset', asset: `${rose}#${TREASURY}`, amount: numeric('10') }]),
      'Committed',
    );
  });

  it('2-of-3: executes exactly once when the second approval commits; a third approval is refused', async () => {
    const proposed = await signed('/v1/multisig/propose', { ...SEL, instructions: pay('3') }, alice);
    assert.equal(proposed.status, 'Committed');
    const id = proposed.answer.proposal_id;
    assert.equal(balance(TREASURY), 1000n);
    const pending = await f.post('/v1/multisig/proposals/list', SEL);
    assert.equal(pending.body.total, 1);
    assert.equal(pending.body.items[0].status, 'COLLECTING_SIGNATURES');
    assert.equal(pending.body.items[0].approval_weight, 1);
    // Not a signatory: refused by the ledger with its code.
    assert.equal(
      (await signed('/v1/multisig/approve', { ...SEL, proposal_id: id }, f.t.admin)).status,
      'multisig_not_signatory',
    );
    assert.equal(
      (await signed('/v1/multisig/approve', { ...SEL, proposal_id: id }, bob)).status,
      'Committed',
    );
    assert.equal(balance(TREASURY), 700n);
    const got = await f.post('/v1/multisig/proposals/get', { ...SEL, proposal_id: id });
    assert.equal(got.body.status, 'FINALIZED');
    assert.deepEqual(got.body.result, { kind: 'Committed' });
    assert.deepEqual(got.body.approvals, [alice.id, bob.id].sort());
    const third = await signed('/v1/multisig/approve', { ...SEL, instructions_hash: id }, carol);
    assert.equal(third.status, 'multisig_proposal_not_pending');
    assert.equal(balance(TREASURY), 700n);
    assert.equal((await f.post('/v1/multisig/proposals/list', SEL)).body.total, 0);
    // The multisig's history: onboarding, mint, proposal, three approvals (one rejected).
    const history = await f.get('/v1/accounts/treasury@wonderland/transactions?status=all');
    assert.equal(history.status, 200, JSON.stringify(history.body));
    assert.equal(history.body.total, 6);
  });

  it('an expired proposal never executes; approving it is refused with its code', async () => {
    const spec = {
      signatories: new Map([
        [alice.id, 1],
        [bob.id, 1],
      ]),
      quorum: 2,
      transactionTtlMs: 300,
    };
    const reg: Instruction = { kind: 'RegisterMultisig', account: FAST, seed: 'fast', spec };
    assert.equal(await tx(f.t.admin, [reg]), 'Committed');
    const batch: Instruction[] = [
      { kind: 'SetKeyValue', target: { kind: 'Account', id: FAST }, key: 'k', value: 1 },
    ];
    assert.equal(
      await tx(alice, [{ kind: 'ProposeMultisig', multisig: FAST, instructions: batch }]),
      'Committed',
    );
    await sleep(400);
    const sel = { multisig_account_id: FAST };
    // Status is judged at the committed tip's block time: still collecting until a later block lands.
    const [p] = (await f.post('/v1/multisig/proposals/list', sel)).body.items;
    assert.equal(p.status, 'COLLECTING_SIGNATURES');
    const approve = await signed('/v1/multisig/approve', { ...sel, proposal_id: p.proposal_id }, bob);
    assert.equal(approve.status, 'multisig_proposal_expired');
    const [q] = (await f.post('/v1/multisig/proposals/list', { ...sel, status: ['EXPIRED'] })).body.items;
    assert.equal(q.status, 'EXPIRED');
    assert.equal(q.terminal_at_ms, q.expires_at_ms);
    assert.equal((await f.post('/v1/multisig/proposals/list', sel)).body.total, 0);
    assert.equal(f.t.node.ledger.state.account(FAST)?.metadata.has('k'), false);
  });

  it('weights and quorum change only through the multisig itself', async () => {
    const next = {
      signatories: new Map([
        [alice.id, 2],
        [bob.id, 1],
        [carol.id, 1],
      ]),
      quorum: 3,
      transactionTtlMs: 60_000,
    };
    const set: Instruction = { kind: 'SetMultisigSpec', multisig: TREASURY, spec: next };
    assert.equal(await tx(alice, [set]), 'multisig_self_only');
    assert.equal(await tx(f.t.admin, [set]), 'multisig_self_only');
    const setJson = {
      kind: 'SetMultisigSpec',
      multisig: TREASURY,
      spec: {
        signatories: { [alice.id]: 2, [bob.id]: 1, [carol.id]: 1 },
        quorum: 3,
        transaction_ttl_ms: 60_000,
      },
    };
    const proposed = await signed('/v1/multisig/propose', { ...SEL, instructions: [setJson] }, alice);
    assert.equal(proposed.status, 'Committed');
    assert.equal((await f.post('/v1/multisig/spec', SEL)).body.quorum, 2);
    assert.equal(
      (await signed('/v1/multisig/approve', { ...SEL, proposal_id: proposed.answer.proposal_id }, carol))
        .status,
      'Committed',
    );
    const spec = (await f.post('/v1/multisig/spec', SEL)).body;
    assert.equal(spec.quorum, 3);
    assert.equal(spec.signatories[alice.id], 2);
    assert.equal(spec.transaction_ttl_ms, 60_000);
  });

  it('cancels by quorum of cancel requests, and refuses private keys anywhere in a body', async () => {
    const proposed = await signed('/v1/multisig/propose', { ...SEL, instructions: pay('1') }, bob);
    const id = proposed.answer.proposal_id;
    assert.equal((await signed('/v1/multisig/cancel', { ...SEL, proposal_id: id }, bob)).status, 'Committed');
    assert.equal(
      (await signed('/v1/multisig/cancel', { ...SEL, proposal_id: id }, alice)).status,
      'Committed',
    );
    assert.equal(
      (await f.post('/v1/multisig/proposals/get', { ...SEL, proposal_id: id })).body.status,
      'CANCELED',
    );
    await f.refused('/v1/multisig/propose', 400, 'private_key_not_accepted', {
      ...SEL,
      signer_account_id: bob.id,
      instructions: [{ ...pay('1')[0], private_key: 'x' }],
    });
    await f.refused('/v1/multisig/approve', 400, 'private_key_not_accepted', {
      ...SEL,
      signer_account_id: bob.id,
      proposal_id: id,
      private_key: 'x',
    });
    await f.refused('/v1/multisig/spec', 404, 'not_found', { multisig_account_id: alice.id });
    await f.refused('/v1/multisig/spec', 400, 'bad_request', { ...SEL, multisig_account_id: TREASURY });
  });

  it('lists the signed caller’s approvals with filters and cursors; unsigned is 401', async () => {
    await f.refused('/v1/multisig/approvals/list', 401, 'signature_missing', {});
    const proposed = await signed('/v1/multisig/propose', { ...SEL, instructions: pay('2') }, alice);
    assert.equal(proposed.status, 'Committed');
    const call = async (path: string, body: unknown) => {
      const text = JSON.stringify(body);
      const headers = signRequest({
        method: 'POST',
        url: path,
        body: text,
        account: bob.id,
        signer: bob.key,
      });
      const res = await fetch(f.t.url + path, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: text,
      });
      return { status: res.status, body: (await res.json()) as J };
    };
    const all = await call('/v1/multisig/approvals/list', {});
    assert.equal(all.status, 200, JSON.stringify(all.body));
    // Bob signs for the treasury and "fast": every proposal of both, in (multisig, proposal) order.
    const ids = all.body.items.map((i: J) => i.proposal_id);
    assert.ok(ids.length >= 5, JSON.stringify(ids));
    const mine = await call('/v1/multisig/approvals/list', { requires_my_signature: true });
    assert.deepEqual(
      mine.body.items.map((i: J) => [i.proposal_id, i.operation_type, i.status]),
      [[proposed.answer.proposal_id, 'TransferAsset', 'COLLECTING_SIGNATURES']],
    );
    const page1 = await call('/v1/multisig/approvals/list', { limit: 2 });
    const page2 = await call('/v1/multisig/approvals/list', { limit: 2, cursor: page1.body.next_cursor });
    assert.deepEqual(
      [...page1.body.items, ...page2.body.items].map((i: J) => i.proposal_id),
      ids.slice(0, 4),
    );
    const one = await call('/v1/multisig/approvals/get', {
      ...SEL,
      proposal_id: proposed.answer.proposal_id,
    });
    assert.equal(one.body.requires_my_signature, true);
    assert.equal(one.body.spec.quorum, 3);
  });

  it('CLI and SDK: register, propose, approve, cancel, spec, proposals, approvals', async () => {
    const common = ['--dir', f.t.dir, '--url', f.t.url, '--json'];
    const ok = async (args: string[]) => {
      const r = await cli([...args, ...common]);
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.err}`);
      return JSON.parse(r.out);
    };
    const admin = f.t.admin.id;
    const CLI_MS = multisigAccountId('wonderland', 'cli');
    const reg = ['multisig', 'register', 'wonderland', 'cli', '--quorum', '2'];
    await ok([...reg, '--signatory', `${admin}=1`, '--signatory', `${alice.id}=1`]);
    assert.deepEqual(await ok(['multisig', 'spec', CLI_MS]), {
      multisig_account_id: CLI_MS,
      signatories: { [admin]: 1, [alice.id]: 1 },
      quorum: 2,
      transaction_ttl_ms: 3_600_000,
    });
    const batch: Instruction[] = [{ kind: 'Log', level: { kind: 'Info' }, message: 'from the cli' }];
    const json = JSON.stringify([{ kind: 'Log', level: { kind: 'Info' }, message: 'from the cli' }]);
    assert.equal((await ok(['multisig', 'propose', CLI_MS, json])).status, 'Committed');
    const id = multisigProposalId(batch);
    const listed = await ok(['multisig', 'proposals', CLI_MS]);
    assert.deepEqual(
      listed.items.map((p: J) => p.proposal_id),
      [id],
    );
    const again = await cli(['multisig', 'approve', CLI_MS, id, ...common]);
    assert.notEqual(again.code, 0);
    assert.match(again.err + again.out, /multisig_already_approved/);
    assert.equal((await ok(['multisig', 'cancel', CLI_MS, id])).status, 'Committed');
    // SDK: alice approves with the instruction builder; the batch executes as the multisig.
    const client = new ToranaClient({ url: f.t.url, account: alice.id, signer: alice.key });
    await client.submitAndWait(await client.build([instructions.approveMultisig(CLI_MS, id)]));
    const done = await multisigProposals(client, CLI_MS, { status: ['FINALIZED'] });
    assert.deepEqual(
      done.items.map((p) => [p.proposalId, p.result?.kind]),
      [[id, 'Committed']],
    );
    assert.equal((await multisigSpec(client, 'treasury@wonderland')).quorum, 3);
    assert.equal((await multisigProposal(client, CLI_MS, id)).cancelApprovals[0], admin);
    const inbox = await multisigApprovals(
      client,
      { account: alice.id, signer: alice.key },
      { status: ['FINALIZED'] },
    );
    assert.ok(inbox.items.some((i) => i.proposalId === id && i.multisigAccountId === CLI_MS));
    const expected = instructions.registerMultisig('wonderland', 'cli', { signatories: {}, quorum: 1 });
    assert.equal(expected.kind === 'RegisterMultisig' && expected.account, CLI_MS);
  });

  it('keeps multisig state across a rebuild from blocks: the same state root', async () => {
    const { t } = f;
    const root = toHex(t.node.ledger.state.stateRoot());
    await t.node.stop();
    const rebuilt = await cli(['rebuild', '--dir', t.dir, '--json']);
    assert.equal(rebuilt.code, 0, rebuilt.err);
    assert.equal(JSON.parse(rebuilt.out).state_root, root);
    const node = await t.restart();
    assert.equal(toHex(node.ledger.state.stateRoot()), root);
    assert.equal(node.ledger.state.tables.multisigAccount.get(TREASURY)?.spec.quorum, 3);
  });
});
