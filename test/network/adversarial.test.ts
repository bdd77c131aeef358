// A forged vote, a vote from a non-validator, a QC with a bad aggregate and a
// second different proposal from the same leader, sent over real encrypted peer connections to three
// real validator processes, are rejected, and recorded as evidence where docs/consensus.md says so
// (bad aggregate → InvalidQc, second proposal → InvalidProposal "double_proposal"; a forged or foreign
// vote proves nothing about anyone and is only refused). The test process holds peer-3's node key (a
// validator that never votes) and the observer's, and speaks through the same PeerNetwork the node uses.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { encodeCoreMessage } from '../../src/consensus/bft/messages.js';
import { Plan } from '../../src/consensus/bft/plan.js';
import type { BftMessage, Qc } from '../../src/consensus/bft/types.js';
import { aggregateCertificate, voteMessage } from '../../src/consensus/certificate.js';
import { ValidatorSet } from '../../src/consensus/validator-set.js';
import { BlsKeyPair } from '../../src/crypto/bls.js';
import { loadKeyFile } from '../../src/crypto/keyfile.js';
import { loadConsensusKey } from '../../src/node/consensus-key.js';
import { nodeFiles } from '../../src/node/files.js';
import { loadGenesis } from '../../src/node/genesis.js';
import { loadNodeConfig } from '../../src/node/load-config.js';
import { PeerNetwork } from '../../src/p2p/network.js';
import { ToranaClient } from '../../src/sdk/client.js';
import { instructions as ix } from '../../src/sdk/instructions.js';
import { systemClock } from '../../src/util/clock.js';
import { TestNetwork } from '../helpers/network.js';
import type { LoadAccount } from '../helpers/network-load.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface EvidenceList {
  total: number;
  items: { kind: string; finding: string }[];
}

async function impersonate(dir: string): Promise<PeerNetwork> {
  const config = await loadNodeConfig({ dir });
  const keyPair = await loadKeyFile(join(dir, config.node.keyFile));
  const net = new PeerNetwork({
    ...config.network,
    keyPair,
    clock: systemClock,
    networkId: config.node.chainId,
  });
  net.onMessage(() => {});
  await net.start();
  return net;
}

describe('adversarial peer messages against three validator processes', { timeout: 180_000 }, () => {
  let net: TestNetwork;
  let fake3: PeerNetwork;
  let observer: PeerNetwork;
  let roster: ValidatorSet;
  let admin: LoadAccount;
  let n = 0;
  const honest = [0, 1, 2];

  before(async () => {
    net = await TestNetwork.create({
      validators: 4,
      observers: 1,
      config: {
        'consensus.view_timeout_ms': 500,
        'consensus.jitter_permille': 0,
        'block.min_interval_ms': 0,
      },
    });
    await net.start(honest);
    fake3 = await impersonate(net.manifest.peers[3]!.dir);
    observer = await impersonate(net.manifest.peers[4]!.dir);
    const genesis = await loadGenesis(nodeFiles(net.manifest.peers[0]!.dir).genesis, net.manifest.chainId);
    roster = new ValidatorSet(genesis.validators);
    for (let i = 0; i < 100 && fake3.peers().filter((p) => p.connected).length < 3; i++) await sleep(100);
    admin = await net.admin();
  });

  after(async () => {
    await fake3?.stop();
    await observer?.stop();
    await net?.stop();
  });

  /** Registers a domain through peer-0 and returns once it is accepted (so a height has work). */
  const submit = async () => {
    const client = new ToranaClient({
      url: net.manifest.peers[0]!.gatewayUrl,
      chainId: net.manifest.chainId,
      account: admin.id,
      signer: admin.key,
    });
    await client.submit(await client.build([ix.registerDomain(`adv-${n++}-${Date.now()}`)]));
  };
  const prepareSubject = (height: number, fill: number) => ({
    phase: { kind: 'Prepare' as const },
    height,
    view: 0,
    epoch: 0,
    blockHash: new Uint8Array(32).fill(fill),
    validatorSetHash: roster.hash,
  });
  const tip = async () => (await net.heights(honest)).map((h) => h ?? 0);
  const evidence = (i: number) => net.peer(i).getJson<EvidenceList>('/v1/consensus/evidence?limit=100');
  const broadcast = (from: PeerNetwork, msg: BftMessage) => from.broadcast(encodeCoreMessage(msg));

  it('refuses a forged vote and a vote from a non-validator, records nothing, and keeps committing', async () => {
    const [h] = await tip();
    const height = h! + 1;
    const subject = prepareSubject(height, 7);
    const stranger = BlsKeyPair.fromSeed(new Uint8Array(32).fill(99));
    const forged = stranger.sign(voteMessage(net.manifest.chainId, subject));
    const vote: BftMessage = {
      kind: 'Vote',
      phase: 'Prepare',
      height,
      view: 0,
      blockHash: subject.blockHash,
      signature: forged,
    };
    broadcast(fake3, vote); // peer-3 is a validator, but this is not its key's signature
    const observerKey = await loadConsensusKey(nodeFiles(net.manifest.peers[4]!.dir).consensusKey);
    broadcast(observer, { ...vote, signature: observerKey.sign(voteMessage(net.manifest.chainId, subject)) });
    await sleep(500);
    for (const i of honest)
      assert.equal((await evidence(i)).total, 0, `peer-${i} recorded evidence for an unattributable vote`);
    await submit();
    await net.waitForHeight(h! + 1, honest);
  });

  it('records a QC with a bad aggregate as InvalidQc on every validator that receives it', async () => {
    const [h] = await tip();
    const height = h! + 1;
    const subject = prepareSubject(height, 9);
    const stranger = BlsKeyPair.fromSeed(new Uint8Array(32).fill(98));
    const sig = stranger.sign(voteMessage(net.manifest.chainId, subject));
    const votes = [0, 1, 2].map((index) => ({ index, signature: sig }));
    const qc: Qc = aggregateCertificate(subject, votes, roster);
    broadcast(fake3, { kind: 'QcMsg', qc });
    for (const i of honest) {
      let found: EvidenceList | undefined;
      for (let t = 0; t < 50; t++) {
        found = await evidence(i);
        if (found.items.some((e) => e.kind === 'InvalidQc')) break;
        await sleep(100);
      }
      const item = found!.items.find((e) => e.kind === 'InvalidQc');
      assert.ok(item, `peer-${i}: ${JSON.stringify(found)}`);
      assert.equal(item.finding, 'bad_signature');
    }
  });

  it('records a second, different proposal of a leader in one view as InvalidProposal, then moves on', async () => {
    const fakeIndex = roster.indexOf(net.manifest.peers[3]!.peerId);
    // Commit heights until peer-3 (the test) leads view 0 of the next one.
    let h = (await tip())[0]!;
    for (let i = 0; i < 40 && new Plan(net.manifest.chainId, h + 1, 4).leader(0) !== fakeIndex; i++) {
      await submit();
      await net.waitForHeight(h + 1, honest);
      h = Math.min(...(await tip()));
    }
    assert.equal(
      new Plan(net.manifest.chainId, h + 1, 4).leader(0),
      fakeIndex,
      'peer-3 never led within 40 heights',
    );
    const proposal = (tag: number): BftMessage => ({
      kind: 'Proposal',
      height: h + 1,
      view: 0,
      blockHash: new Uint8Array(32).fill(tag),
      block: new Uint8Array([tag, tag, tag]),
    });
    broadcast(fake3, proposal(0x21));
    broadcast(fake3, proposal(0x22));
    for (const i of honest) {
      let items: EvidenceList['items'] = [];
      for (let t = 0; t < 50; t++) {
        items = (await evidence(i)).items;
        if (items.some((e) => e.finding === 'double_proposal')) break;
        await sleep(100);
      }
      assert.ok(
        items.some((e) => e.kind === 'InvalidProposal' && e.finding === 'double_proposal'),
        `peer-${i}: ${JSON.stringify(items)}`,
      );
    }
    // The view changes past the equivocating leader and the chain goes on.
    await submit();
    await net.waitForHeight(h + 1, honest, 60_000);
    await net.assertSameChains(honest);
  });
});
