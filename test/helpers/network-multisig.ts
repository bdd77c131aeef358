// Issue 16 "the same multisig executions agree on every peer": a 2-of-2 multisig registered through one
// validator, proposed through another and approved through a third; every peer then shows the proposal
// FINALIZED with a committed result at the same height, and the chains (state roots included) are equal.

import assert from 'node:assert/strict';
import type { Ed25519KeyPair } from '../../src/crypto/signer.js';
import type { Instruction } from '../../src/model/instructions.js';
import { instructions, multisigAccountId, multisigProposalId, ToranaClient } from '../../src/sdk/index.js';
import type { TestNetwork } from './network.js';
import { waitUntil } from './network-scenario.js';
import { newAccount } from './tx.js';

type Who = { id: string; key: Ed25519KeyPair };

async function proposalOn(url: string, body: object) {
  const res = await fetch(`${url}/v1/multisig/proposals/get`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { status?: string; executed_at_height?: number; result?: { kind: string } };
}

export async function checkMultisigAgrees(net: TestNetwork, peers: number[]): Promise<void> {
  const admin = await net.admin();
  const domain = admin.id.slice(admin.id.lastIndexOf('@') + 1);
  const [a, b] = [newAccount(domain), newAccount(domain)];
  const url = (i: number) => net.manifest.peers[i]!.gatewayUrl;
  const send = async (peer: number, who: Who, ins: Instruction[]) => {
    const c = new ToranaClient({ url: url(peer), account: who.id, signer: who.key });
    return c.submitAndWait(await c.build(ins));
  };
  const ms = multisigAccountId(domain, 'network-check');
  const definition = `msig#${domain}`;
  await send(peers[0]!, admin, [
    instructions.registerAccount(a.id),
    instructions.registerAccount(b.id),
    instructions.registerMultisig(domain, 'network-check', {
      signatories: { [a.id]: 1, [b.id]: 1 },
      quorum: 2,
    }),
    instructions.registerAssetDefinition(definition),
    instructions.mintAsset(definition, ms, '5'),
  ]);
  const batch = [instructions.transferAsset(definition, ms, a.id, '2')];
  const id = multisigProposalId(batch);
  await send(peers[1 % peers.length]!, a, [instructions.proposeMultisig(ms, batch)]);
  const approved = await send(peers[2 % peers.length]!, b, [instructions.approveMultisig(ms, id)]);
  const body = { multisig_account_id: ms, proposal_id: id };
  for (const i of peers) {
    await waitUntil(`peer ${i} finalizes the proposal`, 20_000, async () => {
      return (await proposalOn(url(i), body)).status === 'FINALIZED';
    });
    const p = await proposalOn(url(i), body);
    assert.equal(p.executed_at_height, approved.blockHeight, `peer ${i}`);
    assert.deepEqual(p.result, { kind: 'Committed' }, `peer ${i}`);
  }
  await net.assertSameChains();
}
