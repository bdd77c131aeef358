// Multisig and triggers on a multi-peer network: a 2-of-2 multisig proposal that registers a repeating time
// trigger (by height) executes when its second approval commits, and the trigger then runs in later blocks.
// Every peer must record the same executions: the same state root at every height (assertSameChains) and
// the same answers for the proposal and the trigger once all peers stand at the same height.

import assert from 'node:assert/strict';
import { multisigAccountId } from '../../src/modules/multisig/model.js';
import { instructionsHash } from '../../src/modules/multisig/proposal-row.js';
import { type Instruction, ToranaClient } from '../../src/sdk/index.js';
import type { TestNetwork } from './network.js';
import { waitUntil } from './network-scenario.js';
import { newAccount, type TestAccount } from './tx.js';

const DOMAIN = 'wave3';
const VAULT = multisigAccountId(DOMAIN, 'vault');

export async function checkWave3Agreement(net: TestNetwork): Promise<void> {
  const admin = await net.admin();
  const [alice, bob] = [newAccount(DOMAIN, 61), newAccount(DOMAIN, 62)];
  const run = async (who: TestAccount, instructions: Instruction[]) => {
    const client = new ToranaClient({
      url: net.peer(0).url,
      chainId: net.manifest.chainId,
      account: who.id,
      signer: who.key,
      retries: 0,
    });
    return client.submitAndWait(await client.build(instructions), { timeoutMs: 30_000 });
  };
  const none = () => new Map();
  const spec = {
    signatories: new Map([
      [alice.id, 1],
      [bob.id, 1],
    ]),
    quorum: 2,
    transactionTtlMs: 3_600_000,
  };
  await run(admin as TestAccount, [
    { kind: 'RegisterDomain', id: DOMAIN, metadata: none() },
    { kind: 'RegisterAccount', id: alice.id, metadata: none() },
    { kind: 'RegisterAccount', id: bob.id, metadata: none() },
    { kind: 'RegisterMultisig', account: VAULT, seed: 'vault', spec },
  ]);
  const tip = Math.max(...((await net.heights()) as number[]));
  // The vault's batch: a metadata write and a trigger (run as the vault) due a few blocks on, then every block.
  const batch: Instruction[] = [
    { kind: 'SetKeyValue', target: { kind: 'Account', id: VAULT }, key: 'approved', value: true },
    {
      kind: 'RegisterTrigger',
      id: 'tick',
      due: { kind: 'Height', height: tip + 3 },
      repeat: { kind: 'EveryBlocks', blocks: 1 },
      instructions: [
        { kind: 'SetKeyValue', target: { kind: 'Account', id: VAULT }, key: 'ticked', value: 1 },
      ],
    },
  ];
  await run(alice, [{ kind: 'ProposeMultisig', multisig: VAULT, instructions: batch }]);
  const approved = await run(bob, [
    { kind: 'ApproveMultisig', multisig: VAULT, instructionsHash: instructionsHash(batch) },
  ]);
  // More blocks, so that the trigger runs several times.
  for (let i = 0; i < 4; i++)
    await run(admin as TestAccount, [{ kind: 'RegisterDomain', id: `wave3-${i}`, metadata: none() }]);

  await waitUntil('every peer at the same height', 20_000, async () => {
    const hs = (await net.heights()) as number[];
    return hs.every((h) => h === hs[0]);
  });
  const proposalBody = { multisig_account_id: VAULT, proposal_id: instructionsHash(batch) };
  const answers = await Promise.all(
    net.manifest.peers.map(async (_, i) => {
      const url = net.peer(i).url;
      const proposal = await (
        await fetch(`${url}/v1/multisig/proposals/get`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(proposalBody),
        })
      ).json();
      const trigger = await net.peer(i).getJson<{ runs?: number }>('/v1/triggers/tick');
      return { proposal, trigger };
    }),
  );
  const first = answers[0]!;
  // biome-ignore lint/suspicious/noExplicitAny: parsed JSON, checked field by field.
  const p = first.proposal as any;
  assert.equal(p.status, 'FINALIZED', JSON.stringify(p));
  assert.deepEqual(p.result, { kind: 'Committed' });
  assert.equal(p.executed_at_height, approved.blockHeight, 'executed in the block of the last approval');
  const runs = first.trigger.runs;
  assert.ok(typeof runs === 'number' && runs >= 2, `trigger runs: ${JSON.stringify(first.trigger)}`);
  for (const a of answers.slice(1)) assert.deepEqual(a, first, 'every peer answers the same');
  await net.assertSameChains();
  await checkIdleWake(net, (who, ins) => run(who, ins), admin as TestAccount);
}

/**
 * With no transactions sent, a one-shot time trigger still runs: the leader proposes the (empty) block
 * that executes it once its due time passes, and every peer commits it.
 */
async function checkIdleWake(
  net: TestNetwork,
  run: (who: TestAccount, ins: Instruction[]) => Promise<{ blockHeight: number }>,
  admin: TestAccount,
): Promise<void> {
  const registered = await run(admin, [
    {
      kind: 'RegisterTrigger',
      id: 'wake',
      due: { kind: 'Time', timeMs: Date.now() + 3_000 },
      instructions: [
        { kind: 'SetKeyValue', target: { kind: 'Account', id: admin.id }, key: 'woke', value: true },
      ],
    },
  ]);
  const path = `/v1/accounts/${encodeURIComponent(admin.id)}`;
  await waitUntil('every peer ran the time trigger on an idle network', 30_000, async () => {
    const woke = await Promise.all(
      net.manifest.peers.map(async (_, i) => {
        const account = await net.peer(i).getJson<{ metadata?: Record<string, unknown> }>(path);
        return account.metadata?.['woke'] === true;
      }),
    );
    return woke.every(Boolean);
  });
  const heights = (await net.heights()) as number[];
  assert.ok(
    Math.min(...heights) > registered.blockHeight,
    `a block after ${registered.blockHeight}: ${heights}`,
  );
  for (let i = 0; i < heights.length; i++) {
    const gone = await fetch(`${net.peer(i).url}/v1/triggers/wake`);
    assert.equal(gone.status, 404, 'a one-shot trigger is removed after its run');
  }
  await net.assertSameChains();
}
