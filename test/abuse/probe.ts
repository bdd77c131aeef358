// An attacker's pass over multisig proposals, alias transfers and conference signal boxes, over real
// sockets (the SDK against one served node from `torana init`'s dev genesis):
//   proposalSpam   one signatory sends `perProposer + 1` ProposeMultisig of distinct batches: the first
//                  `perProposer` commit, the next is refused (multisig_proposals_full) and nothing of that
//                  transaction is stored; another signatory may still propose; POST
//                  /v1/multisig/proposals/list answers one page with the total.
//   aliasSwitch    a payer resolves `shop@<domain>` (bound to A), the alias moves to B, then the payer's
//                  signed transfer commits: it names A's id, so A is paid and B nothing; an alias literal in
//                  place of an id inside a signed instruction is refused before it reaches the ledger.
//   signalQuota    a host spreads offers over several calls of its own: its per-host record quota holds
//                  over all of them (429 conference_signal_host_quota_exceeded, nothing stored), replacing
//                  an offer is still allowed, another host is unaffected, a non-host cannot post.
// Each prints one `[figure]` line.

import assert from 'node:assert/strict';
import { parseAccountId } from '../../src/model/ids.js';
import { MULTISIG_PENDING_PER_PROPOSER_MAX, multisigAccountId } from '../../src/modules/multisig/model.js';
import { NATIVE_ASSET } from '../../src/node/init.js';
import {
  accountOf,
  generateKeyPair,
  type Instruction,
  instructions,
  isToranaApiError,
  resolveAccountAlias,
  ToranaClient,
  TransactionRejectedError,
} from '../../src/sdk/index.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';

/** Small signal-box quotas so the scenario reaches them with a few requests. */
export const SIGNAL_LIMITS = { hostRecords: 6, perCall: 4 };

export interface ProbeNode {
  t: ServedTestNode;
  domain: string;
  /** A registered account with its own key and client. */
  account(): Promise<ToranaClient>;
  /** The final status kind, or the rejection code. */
  send(c: ToranaClient, ix: Instruction[]): Promise<string>;
  native(account: string): bigint;
}

export async function startProbeNode(): Promise<ProbeNode> {
  const t = await startServedNode({
    'conference.signal_host_records_max': SIGNAL_LIMITS.hostRecords,
    'conference.signal_offers_per_call_max': SIGNAL_LIMITS.perCall,
  });
  const domain = parseAccountId(t.admin.id)!.domain;
  const admin = new ToranaClient({
    url: t.url,
    chainId: t.chainId,
    account: t.admin.id,
    signer: t.admin.key,
  });
  const send = async (c: ToranaClient, ix: Instruction[]) => {
    try {
      await c.submitAndWait(await c.build(ix), { timeoutMs: 120_000 });
      return 'Committed';
    } catch (e) {
      if (e instanceof TransactionRejectedError) return e.code;
      throw e;
    }
  };
  return {
    t,
    domain,
    send,
    async account() {
      const key = generateKeyPair();
      const id = accountOf(key, domain);
      assert.equal(await send(admin, [instructions.registerAccount(id)]), 'Committed');
      return new ToranaClient({ url: t.url, chainId: t.chainId, account: id, signer: key, retries: 0 });
    },
    native: (account) => t.node.ledger.state.asset(`${NATIVE_ASSET}#${account}`)?.value.mantissa ?? 0n,
  };
}

const adminOf = (p: ProbeNode) =>
  new ToranaClient({ url: p.t.url, chainId: p.t.chainId, account: p.t.admin.id, signer: p.t.admin.key });
const log = (message: string): Instruction => ({ kind: 'Log', level: { kind: 'Info' }, message });

export async function proposalSpam(p: ProbeNode) {
  const cap = MULTISIG_PENDING_PER_PROPOSER_MAX;
  const mallory = await p.account();
  const alice = await p.account();
  const seed = 'probe-treasury';
  const ms = multisigAccountId(p.domain, seed);
  const spec = { signatories: { [mallory.opts.account!]: 1, [alice.opts.account!]: 1 }, quorum: 2 };
  const admin = adminOf(p);
  assert.equal(await p.send(admin, [instructions.registerMultisig(p.domain, seed, spec)]), 'Committed');
  const propose = (i: number) => instructions.proposeMultisig(ms, [log(`spam ${i}`)]);
  const filled = await p.send(
    mallory,
    Array.from({ length: cap }, (_, i) => propose(i)),
  );
  const over = await p.send(mallory, [propose(cap), propose(cap + 1)]);
  const other = await p.send(alice, [propose(-1)]);
  const stored = p.t.node.ledger.state.tables.multisigProposal.sortedChildIds(
    'proposalsByMultisig',
    ms,
  ).length;
  const res = await fetch(`${p.t.url}/v1/multisig/proposals/list`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ multisig_account_id: ms }),
  });
  const page = (await res.json()) as { items: unknown[]; total: number };
  const tail = (await (
    await fetch(`${p.t.url}/v1/multisig/proposals/list`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ multisig_account_id: ms, limit: 10, offset: cap - 5 }),
    })
  ).json()) as { items: unknown[]; total: number };
  const figures = {
    cap,
    filled,
    over,
    other,
    stored,
    page: page.items.length,
    tail: tail.items.length,
    total: page.total,
  };
  console.log(`[figure] multisig proposal spam: ${JSON.stringify(figures)}`);
  assert.equal(filled, 'Committed');
  assert.equal(over, 'multisig_proposals_full');
  assert.equal(other, 'Committed', 'another signatory is not locked out');
  assert.equal(stored, cap + 1);
  assert.equal(res.status, 200);
  assert.equal(page.total, cap + 1);
  assert.equal(page.items.length, Math.min(cap + 1, p.t.node.config.gateway.listLimitDefault));
  assert.deepEqual([tail.items.length, tail.total], [6, cap + 1], 'limit and offset page the list');
}

export async function aliasSwitch(p: ProbeNode) {
  const a = await p.account();
  const b = await p.account();
  const admin = adminOf(p);
  const alias = `shop@${p.domain}`;
  assert.equal(await p.send(admin, [instructions.registerAccountAlias(alias, a.opts.account!)]), 'Committed');
  const resolved = (await resolveAccountAlias(admin, alias)).accountId;
  // The payer signs what it resolved; then the alias moves before the payment commits.
  const pay = instructions.transferAsset(NATIVE_ASSET, p.t.admin.id, resolved, '3');
  const signedPayment = await admin.build([pay]);
  assert.equal(await p.send(admin, [instructions.transferAccountAlias(alias, b.opts.account!)]), 'Committed');
  await admin.submitAndWait(signedPayment, { timeoutMs: 120_000 });
  const nowResolves = (await resolveAccountAlias(admin, alias)).accountId;
  // An alias in place of an id inside the signed instruction: refused before the ledger.
  let literal = 'accepted';
  try {
    await admin.build([instructions.transferAsset(NATIVE_ASSET, p.t.admin.id, alias, '1')]);
  } catch (e) {
    literal = e instanceof Error ? e.constructor.name : String(e);
  }
  const figures = {
    resolved: resolved === a.opts.account,
    nowResolvesToB: nowResolves === b.opts.account,
    paidA: String(p.native(a.opts.account!)),
    paidB: String(p.native(b.opts.account!)),
    literal,
  };
  console.log(`[figure] alias switch: ${JSON.stringify(figures)}`);
  assert.equal(resolved, a.opts.account);
  assert.equal(nowResolves, b.opts.account);
  assert.ok(p.native(a.opts.account!) > 0n, 'A, named by id in the signed payment, was paid');
  assert.equal(p.native(b.opts.account!), 0n, 'B, who holds the alias now, got nothing');
  assert.notEqual(literal, 'accepted');
}

export async function signalQuota(p: ProbeNode) {
  const host = await p.account();
  const others = await Promise.all(Array.from({ length: SIGNAL_LIMITS.perCall }, () => p.account()));
  const calls = ['one', 'two', 'three'].map((n) => `${p.domain}:probe-${n}`);
  for (const call of calls) {
    const create = instructions.createConference(call, {
      title: call,
      scheduledStartMs: Date.now(),
      maxParticipants: 8,
      gasRatePerMinute: '0',
      billingAccount: host.opts.account!,
    });
    assert.equal(await p.send(host, [create]), 'Committed');
  }
  const offer = (to: ToranaClient, description = 'v=0') => ({ to: to.opts.account!, description });
  const code = (e: unknown) => (isToranaApiError(e) ? `${e.status} ${e.code}` : String(e));
  const post = (c: ToranaClient, call: string, to: ToranaClient[]) =>
    c
      .publishOffers(
        call,
        to.map((o) => offer(o)),
      )
      .then((items) => `201 ${items.length}`, code);
  const first = await post(host, calls[0]!, others); // perCall offers: at the call's cap
  const overCall = await post(host, calls[1]!, others); // would pass the host's record quota
  const fits = await post(
    host,
    calls[1]!,
    others.slice(0, SIGNAL_LIMITS.hostRecords - SIGNAL_LIMITS.perCall),
  );
  const third = await post(host, calls[2]!, others.slice(0, 1));
  const replace = await post(host, calls[0]!, others.slice(0, 1));
  const stranger = await post(others[0]!, calls[2]!, others.slice(1, 2));
  // The admin hosts a call of its own: unaffected by the first host's quota.
  const admin = adminOf(p);
  const own = `${p.domain}:probe-admin`;
  const create = instructions.createConference(own, {
    title: own,
    scheduledStartMs: Date.now(),
    maxParticipants: 8,
    gasRatePerMinute: '0',
    billingAccount: p.t.admin.id,
  });
  assert.equal(await p.send(admin, [create]), 'Committed');
  const otherHost = await post(admin, own, others.slice(0, 1));
  const figures = { first, overCall, fits, third, replace, stranger, otherHost };
  console.log(`[figure] signal quota: ${JSON.stringify(figures)}`);
  assert.equal(first, `201 ${SIGNAL_LIMITS.perCall}`);
  assert.equal(overCall, '429 conference_signal_host_quota_exceeded');
  assert.equal(fits, `201 ${SIGNAL_LIMITS.hostRecords - SIGNAL_LIMITS.perCall}`);
  assert.equal(third, '429 conference_signal_host_quota_exceeded');
  assert.equal(replace, '201 1', 'replacing an offer takes no more quota');
  assert.match(stranger, /^403 /);
  assert.equal(otherHost, '201 1');
}
