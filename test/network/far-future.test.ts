// A validator cannot be made to remember a far view or height (docs/security.md "Consensus message
// bounds"). Three real validator processes; the test holds peer-3's node and consensus keys (the test
// writes every peer's keys, so it also holds a quorum of consensus keys for a certificate) and speaks
// through the same PeerNetwork the node uses. Before any transaction it sends every honest validator,
// for the next two heights: correctly signed Prepare votes of peer-3 for views 1,000,000..1,000,003 (so
// each validator collects at least one of them), a NEW_VIEW for view 1,000,000, a quorum-signed Prepare
// QC of view 1,000,000, a vote one million heights ahead, a tip of height 1,000,000 and a block-sync
// request from height 1,000,000. Then the three keep committing: heights advance and submitted
// transactions commit. (Before the bound, one such vote left each collector unable to form any QC at
// that height: the chain stopped there.)

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { encodeCoreMessage, encodePeerMessage } from '../../src/consensus/bft/messages.js';
import type { BftMessage } from '../../src/consensus/bft/types.js';
import { aggregateCertificate, voteMessage } from '../../src/consensus/certificate.js';
import { ValidatorSet } from '../../src/consensus/validator-set.js';
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
const FAR = 1_000_000;

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

describe('far views and heights from a validator do not stop three others', { timeout: 180_000 }, () => {
  let net: TestNetwork;
  let fake3: PeerNetwork;
  let roster: ValidatorSet;
  let admin: LoadAccount;
  const honest = [0, 1, 2];

  before(async () => {
    net = await TestNetwork.create({
      validators: 4,
      config: {
        'consensus.view_timeout_ms': 500,
        'consensus.jitter_permille': 0,
        'block.min_interval_ms': 0,
        'telemetry.profile': 'extended',
      },
    });
    await net.start(honest);
    fake3 = await impersonate(net.manifest.peers[3]!.dir);
    const genesis = await loadGenesis(nodeFiles(net.manifest.peers[0]!.dir).genesis, net.manifest.chainId);
    roster = new ValidatorSet(genesis.validators);
    for (let i = 0; i < 100 && fake3.peers().filter((p) => p.connected).length < 3; i++) await sleep(100);
    admin = await net.admin();
  });

  after(async () => {
    await fake3?.stop();
    await net?.stop();
  });

  const farCounts = async () =>
    Promise.all(
      honest.map(async (i) => {
        const text = await fetch(`${net.manifest.peers[i]!.gatewayUrl}/metrics`).then((r) => r.text());
        return Number(/^\S*consensus_far_messages\S*\s+(\d+)/m.exec(text)?.[1] ?? Number.NaN);
      }),
    );

  it('keeps committing after far votes, NEW_VIEW, QC, tip and sync request', async () => {
    const chainId = net.manifest.chainId;
    const key = (i: number) => loadConsensusKey(nodeFiles(net.manifest.peers[i]!.dir).consensusKey);
    const indexOf = (i: number) => roster.indexOf(net.manifest.peers[i]!.peerId);
    const key3 = await key(3);
    const h0 = Math.max(...(await net.heights(honest)).map((h) => h ?? 0));
    const subject = (height: number, view: number, fill: number) => ({
      phase: { kind: 'Prepare' as const },
      height,
      view,
      epoch: 0,
      blockHash: new Uint8Array(32).fill(fill),
      validatorSetHash: roster.hash,
    });
    const send = (msg: BftMessage) => fake3.broadcast(encodeCoreMessage(msg));
    for (const height of [h0 + 1, h0 + 2]) {
      for (let view = FAR; view < FAR + 4; view++) {
        const s = subject(height, view, 7);
        const signature = key3.sign(voteMessage(chainId, s));
        send({ kind: 'Vote', phase: 'Prepare', height, view, blockHash: s.blockHash, signature });
      }
      send({ kind: 'NewView', height, view: FAR });
      const qs = subject(height, FAR, 8);
      const votes = await Promise.all(
        [0, 1, 2].map(async (i) => ({
          index: indexOf(i),
          signature: (await key(i)).sign(voteMessage(chainId, qs)),
        })),
      );
      send({ kind: 'QcMsg', qc: aggregateCertificate(qs, votes, roster) });
    }
    const farHeight = subject(h0 + FAR, 0, 9);
    send({
      kind: 'Vote',
      phase: 'Prepare',
      height: h0 + FAR,
      view: 0,
      blockHash: farHeight.blockHash,
      signature: key3.sign(voteMessage(chainId, farHeight)),
    });
    fake3.broadcast(encodePeerMessage({ kind: 'Tip', height: FAR }));
    fake3.broadcast(encodePeerMessage({ kind: 'SyncRequest', from: FAR, max: FAR }));
    await sleep(1000);

    const client = new ToranaClient({
      url: net.manifest.peers[0]!.gatewayUrl,
      chainId,
      account: admin.id,
      signer: admin.key,
    });
    const started = Date.now();
    const committed: number[] = [];
    for (let i = 0; i < 3; i++) {
      const tx = await client.build([ix.registerDomain(`far-${i}-${Date.now()}`)]);
      committed.push((await client.submitAndWait(tx, { timeoutMs: 45_000 })).blockHeight);
    }
    const heights = await net.waitForHeight(h0 + 3, honest, 45_000);
    const far = await farCounts();
    console.log(
      `heights ${h0} -> ${heights.join('/')}; transactions committed at ${committed.join(', ')} ` +
        `in ${Date.now() - started} ms; far messages counted per honest validator: ${far.join('/')}`,
    );
    assert.ok(committed.every((h) => h > h0));
    for (const [i, n] of far.entries()) assert.ok(n >= 1, `peer-${i} counted no far message (${n})`);
    await net.assertSameChains(honest);
  });
});
