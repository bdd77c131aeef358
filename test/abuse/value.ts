// Taking value that is not due, and stalling or filling the shielded pool, over real sockets (the SDK
// against a served node from `torana init`'s dev genesis: native asset, pool account, entry fee and
// development verifying keys set):
//   subscriptionTheft  a provider sends `charges` × ChargeSubscriptionNow in one transaction during the
//                      1-day trial of a plan of 10.00 per 30 days: refused (subscription_charge_not_due),
//                      the subscriber's balance and the invoices unchanged. Before the fix it took
//                      charges × 10.00 and moved the billing point years past the node's clock.
//   shieldDust         one transaction of `dust` × ShieldAsset('0.000001'): refused whole
//                      (shielded_note_below_minimum), the tree unchanged; then `notes` shields at the
//                      minimum (one native unit) commit, and the ms per append is printed (not asserted).
//   poolPages          GET /v1/conference/pool answers one page (the default limit, or `limit`) with the
//                      leaf count, never the whole tree; the SDK reads every page back.
//   usageSplit         a host bills its own call at 1 per minute: `segments` × 1 ms in one transaction
//                      bill what one segment of the sum does (before: each rounded up, 17 base units
//                      apiece), and a 1-year segment is refused (conference_usage_exceeds_elapsed).
//   freeSpends         with the entry fee at 0, a proved note spend paying a private create is refused
//                      (shielded_spend_without_fee) and the tree keeps its size; before, it committed and
//                      appended a change note, so a chain of spends could fill the tree for nothing.
// Each prints one `[figure]` line.

import assert from 'node:assert/strict';
import type { Instruction } from '../../src/model/instructions.js';
import { numeric } from '../../src/model/numeric.js';
import { conferenceGas } from '../../src/modules/conference/model.js';
import {
  createFeeBind,
  noteOwnerHash,
  proveNoteSpend,
  releaseProver,
  rosterCommitment,
} from '../../src/modules/conference/sdk-zk.js';
import { NATIVE_ASSET } from '../../src/node/init.js';
import { DEV_ENTRY_FEE } from '../../src/node/zk-dev-genesis.js';
import { ToranaClient } from '../../src/sdk/client.js';
import { ToranaApiError, TransactionRejectedError } from '../../src/sdk/errors.js';
import { fieldFromHex, fieldToHex } from '../../src/zk/field.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';
import { newAccount, type TestAccount } from '../helpers/tx.js';

const DAY = 86_400_000;

export interface ValueNode {
  t: ServedTestNode;
  client(signer: TestAccount): ToranaClient;
  /** The final status kind, or the rejection code. */
  send(signer: TestAccount, instructions: Instruction[]): Promise<string>;
  native(account: string): bigint;
}

/**
 * One served node for the scenarios of a test file (close it with `t.stopAll()`); `overrides` are config
 * keys (the short file sets a small `gateway.list_limit_default`, so that a few notes fill more than a page).
 */
export async function startValueNode(overrides: Record<string, unknown> = {}): Promise<ValueNode> {
  const t = await startServedNode(overrides);
  const client = (s: TestAccount) =>
    new ToranaClient({ url: t.url, chainId: t.chainId, account: s.id, signer: s.key, retries: 0 });
  return {
    t,
    client,
    async send(signer, instructions) {
      const c = client(signer);
      try {
        await c.submitAndWait(await c.build(instructions), { timeoutMs: 120_000 });
        return 'Committed';
      } catch (e) {
        if (e instanceof TransactionRejectedError) return e.code;
        // Refused at admission (never queued), e.g. over the weight cap.
        if (e instanceof ToranaApiError) return e.code;
        throw e;
      }
    },
    native: (account) => t.node.ledger.state.asset(`${NATIVE_ASSET}#${account}`)?.value.mantissa ?? 0n,
  };
}

export async function subscriptionTheft(v: ValueNode, opts: { charges: number }) {
  const provider = newAccount('system', 71);
  const register: Instruction = { kind: 'RegisterAccount', id: provider.id, metadata: new Map() };
  assert.equal(await v.send(v.t.admin, [register]), 'Committed');
  const plan: Instruction = {
    kind: 'RegisterSubscriptionPlan',
    id: 'monthly-trial',
    billing: {
      cadence: { kind: 'FixedPeriod', periodMs: 30 * DAY },
      billFor: { kind: 'Current' },
      retryBackoffMs: 3_600_000,
      maxFailures: 3,
      graceMs: 0,
    },
    pricing: { kind: 'Fixed', amount: numeric('10.00'), assetDefinition: NATIVE_ASSET },
    trialMs: DAY,
  };
  assert.equal(await v.send(provider, [plan]), 'Committed');
  const subscribe: Instruction = { kind: 'Subscribe', id: 'victim-sub', plan: 'monthly-trial' };
  assert.equal(await v.send(v.t.admin, [subscribe]), 'Committed');
  const before = v.native(v.t.admin.id);
  const charge: Instruction = { kind: 'ChargeSubscriptionNow', id: 'victim-sub' };
  const code = await v.send(
    provider,
    Array.from({ length: opts.charges }, () => charge),
  );
  const single = await v.send(provider, [charge]);
  const sub = v.t.node.ledger.state.tables.subscription.get('victim-sub');
  const figures = {
    charges: opts.charges,
    code,
    single,
    taken: String(before - v.native(v.t.admin.id)),
    provider: String(v.native(provider.id)),
    invoices: sub?.latestInvoice?.number ?? 0,
    billingPointAfterSubscribeMs: (sub?.dueAtMs ?? 0) - (sub?.createdAtMs ?? 0),
  };
  console.log(`[figure] subscription theft: ${JSON.stringify(figures)}`);
  assert.equal(code, 'subscription_charge_not_due');
  assert.equal(single, 'subscription_charge_not_due');
  assert.equal(v.native(v.t.admin.id), before, 'nothing taken from the subscriber');
  assert.equal(v.native(provider.id), 0n);
  assert.equal(sub?.latestInvoice, undefined, 'no invoice');
  assert.equal(figures.billingPointAfterSubscribeMs, DAY, 'the billing point did not move');
}

// Each note its own owner hash, so that equal batches are distinct transactions (equal ones share a hash).
let ownerSeq = 1n;
const shield = (amount: string): Instruction => ({
  kind: 'ShieldAsset',
  amount: numeric(amount),
  ownerHash: fieldToHex(ownerSeq++),
});

/**
 * Dust and the cost of appends. A ShieldAsset weighs a pool append (docs/cost-model.md), so a transaction
 * holds two at the default TransactionMaxWeight: the 1,000-dust transaction of the finding is refused at
 * admission by its weight, and dust that fits the cap is refused by the minimum note.
 */
export async function shieldDust(v: ValueNode, opts: { dust: number; notes: number }) {
  const leaves = () => v.t.node.ledger.state.shieldedPoolPage(0, 1).total;
  const start = leaves();
  const t0 = performance.now();
  const heavy = await v.send(
    v.t.admin,
    Array.from({ length: opts.dust }, () => shield('0.000001')),
  );
  const dustMs = performance.now() - t0;
  assert.equal(heavy, 'transaction_weight_exceeded');
  const dust = await v.send(v.t.admin, [shield('0.000001'), shield('0.000001')]);
  assert.equal(dust, 'shielded_note_below_minimum');
  assert.equal(leaves(), start, 'no dust note joined the tree');
  // `notes` notes at the minimum, two per transaction (as many as the weight cap allows), sent together:
  // the block builder gives the account its share of each block.
  const t2 = performance.now();
  const pairs = Math.ceil(opts.notes / 2);
  const results = await Promise.all(
    Array.from({ length: pairs }, (_, i) =>
      v.send(
        v.t.admin,
        Array.from({ length: Math.min(2, opts.notes - 2 * i) }, () => shield('1')),
      ),
    ),
  );
  const batchMs = performance.now() - t2;
  assert.deepEqual(new Set(results), new Set(['Committed']));
  assert.equal(leaves(), start + opts.notes);
  const perAppendMs = batchMs / Math.max(1, opts.notes);
  const figures = {
    dust: opts.dust,
    heavyCode: heavy,
    dustCode: dust,
    dustMs: Math.round(dustMs),
    notes: opts.notes,
    transactions: pairs,
    batchMs: Math.round(batchMs),
    perAppendMsWithCommit: Number(perAppendMs.toFixed(2)),
    leaves: leaves(),
  };
  console.log(`[figure] shielded dust: ${JSON.stringify(figures)}`);
  return figures;
}

export async function poolPages(v: ValueNode, opts: { limit: number }) {
  const total = v.t.node.ledger.state.shieldedPoolPage(0, 1).total;
  const res = await fetch(`${v.t.url}/v1/conference/pool`);
  const text = await res.text();
  const page = JSON.parse(text) as { leaves: string[]; total: number; offset: number; root?: string };
  const small = (await (
    await fetch(`${v.t.url}/v1/conference/pool?limit=${opts.limit}&offset=1`)
  ).json()) as {
    leaves: string[];
    offset: number;
  };
  const all = await v.client(v.t.admin).shieldedPool({ pageSize: opts.limit });
  const figures = {
    total,
    defaultPage: page.leaves.length,
    defaultBytes: text.length,
    limit: opts.limit,
    limitedPage: small.leaves.length,
    sdkLeaves: all.leaves.length,
  };
  console.log(`[figure] pool pages: ${JSON.stringify(figures)}`);
  assert.equal(res.status, 200);
  assert.equal(page.total, total);
  assert.ok(total > page.leaves.length, 'more leaves than one page, to show the page');
  assert.equal(page.leaves.length, v.t.node.config.gateway.listLimitDefault);
  assert.equal(small.leaves.length, opts.limit);
  assert.equal(small.offset, 1);
  assert.equal(all.leaves.length, total);
  assert.deepEqual(all.leaves.slice(0, page.leaves.length), page.leaves);
  assert.equal(all.root, page.root);
}

type Create = Extract<Instruction, { kind: 'CreateConference' }>;
const conference = (call: string, billing: string, over: Partial<Create> = {}): Create => ({
  kind: 'CreateConference',
  call,
  policy: { kind: 'Public' },
  privacy: { kind: 'Transparent' },
  title: 'abuse',
  description: '',
  scheduledStartMs: 0n,
  maxParticipants: 100,
  gasRatePerMinute: numeric('1'),
  billingAccount: billing,
  metadata: new Map(),
  rosterCommitments: [],
  ...over,
});

export async function usageSplit(v: ValueNode, opts: { segments: number }) {
  const host = newAccount('system', 72);
  const call = 'system:split';
  const fund: Instruction[] = [
    { kind: 'RegisterAccount', id: host.id, metadata: new Map() },
    {
      kind: 'TransferAsset',
      source: `${NATIVE_ASSET}#${v.t.admin.id}`,
      destination: host.id,
      amount: numeric('10'),
    },
  ];
  assert.equal(await v.send(v.t.admin, fund), 'Committed');
  assert.equal(await v.send(host, [conference(call, host.id)]), 'Committed');
  const scale = v.t.node.ledger.state.tables.assetDefinition.get(NATIVE_ASSET)!.scale;
  const rate = numeric('1');
  const gas = (ms: number) => conferenceGas(rate, BigInt(ms), scale);
  const units = (u: bigint) => ({ mantissa: u, scale });
  const year = 365 * DAY;
  const tooLong: Instruction = {
    kind: 'RecordConferenceUsage',
    call,
    segment: 0,
    durationMs: BigInt(year),
    billedGas: units(gas(year)),
  };
  const impossible = await v.send(host, [tooLong]);
  const before = v.native(host.id);
  const segments: Instruction[] = Array.from({ length: opts.segments }, (_, i) => ({
    kind: 'RecordConferenceUsage',
    call,
    segment: i + 1,
    durationMs: 1n,
    billedGas: units(gas(i + 1) - gas(i)),
  }));
  const split = await v.send(host, segments);
  const taken = before - v.native(host.id);
  const figures = {
    segments: opts.segments,
    impossible,
    split,
    taken: String(taken),
    oneSegment: String(gas(opts.segments)),
    perSegmentRounding: String(gas(1) * BigInt(opts.segments)),
  };
  console.log(`[figure] usage split: ${JSON.stringify(figures)}`);
  assert.equal(impossible, 'conference_usage_exceeds_elapsed');
  assert.equal(split, 'Committed');
  assert.equal(taken, gas(opts.segments), 'the split bills what one segment of the sum does');
  const usage = v.t.node.ledger.state.tables.conferenceCall.get(call)!.usage;
  assert.equal(usage.durationMs, BigInt(opts.segments));
}

export async function freeSpends(v: ValueNode) {
  const secret = 4242n;
  const blinding = 77n;
  const note = { value: 10n ** 6n, secret, blinding };
  const shielded: Instruction = {
    kind: 'ShieldAsset',
    amount: numeric('1'),
    ownerHash: fieldToHex(noteOwnerHash(secret, blinding)),
  };
  assert.equal(await v.send(v.t.admin, [shielded]), 'Committed');
  const fee = (text: string): Instruction => ({
    kind: 'SetParameter',
    parameter: { kind: 'Custom', id: 'conference_entry_fee', payload: text },
  });
  assert.equal(await v.send(v.t.admin, [fee('0')]), 'Committed');
  const leaves = () => v.t.node.ledger.state.shieldedPool().leaves;
  const call = 'system:free';
  try {
    const spend = await proveNoteSpend({
      note,
      poolLeaves: leaves().map((h) => fieldFromHex(h)!),
      fee: 0n,
      bind: createFeeBind(call, v.t.admin.id),
      change: { secret: 4343n, blinding: 78n },
    });
    const before = leaves().length;
    const create = conference(call, v.t.admin.id, {
      privacy: { kind: 'ZkRosterV1' },
      gasRatePerMinute: numeric('0'),
      rosterCommitments: [fieldToHex(rosterCommitment(1n))],
      fee: {
        root: fieldToHex(spend.root),
        nullifier: fieldToHex(spend.nullifier),
        changeCommitment: fieldToHex(spend.changeCommitment),
        proof: spend.proof,
      },
    });
    const code = await v.send(v.t.admin, [create]);
    const figures = { code, leavesBefore: before, leavesAfter: leaves().length };
    console.log(`[figure] free spends: ${JSON.stringify(figures)}`);
    assert.equal(code, 'shielded_spend_without_fee');
    assert.equal(leaves().length, before, 'no change note joined the tree');
  } finally {
    assert.equal(await v.send(v.t.admin, [fee(DEV_ENTRY_FEE)]), 'Committed');
    await releaseProver();
  }
}
