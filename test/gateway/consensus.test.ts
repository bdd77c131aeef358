// The consensus routes through a real socket:
// every answer is checked against the node's real engine, chain and keys.

import assert from 'node:assert/strict';
import { request } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { EventSource } from 'eventsource';
import type { Codec } from '../../src/codec/codec.js';
import { decodeFrame } from '../../src/codec/frame.js';
import { verifyCertificate } from '../../src/consensus/certificate.js';
import { publicKeyToText } from '../../src/crypto/keys.js';
import {
  BlsKeysView,
  CheckpointsView,
  CollectorsView,
  CommitCertificatesView,
  CommitQcRecordView,
  ConsensusKeysView,
  ConsensusStatusView,
  EvidenceCountView,
  EvidenceListView,
  KeyLifecycleView,
  LeaderView,
  PacemakerView,
  ParamsView,
  PhasesView,
  QcView,
  RbcSessionsView,
  RbcView,
  TelemetryView,
  ValidatorSetEntryView,
  ValidatorSetsView,
} from '../../src/gateway/views/consensus.js';
import type { CommitCertificate } from '../../src/model/block.js';
import { createSchemaRegistry } from '../../src/model/schema.js';
import { loadConsensusKey } from '../../src/node/consensus-key.js';
import { fromHex, toHex } from '../../src/util/hex.js';
import { run, TEST_CLOCK_DRIFT_MS } from '../helpers/node.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';

const LIMITS = { bytesMax: 1 << 24, itemsMax: 100_000, depthMax: 32 };
const JSON_ACCEPT = { accept: 'application/json' };
const CODEC_ACCEPT = { accept: 'application/x-codec' };

async function get(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  const bytes = new Uint8Array(await res.arrayBuffer());
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    bytes,
    json: () => JSON.parse(Buffer.from(bytes).toString('utf8')),
  };
}

function decoded<T>(view: Codec<T>, bytes: Uint8Array): T {
  assert.equal(Buffer.from(bytes.subarray(0, 4)).toString('latin1'), 'TRNC');
  const d = decodeFrame(createSchemaRegistry([view]), view, bytes, LIMITS);
  assert.ok(d.ok, d.ok ? '' : d.error.message);
  return d.value;
}

/** A certificate as the certificate lists show it, turned back into the model type. */
function certificateOf(item: Record<string, unknown>): CommitCertificate {
  return {
    phase: item.phase as CommitCertificate['phase'],
    height: item.height as number,
    view: item.view as number,
    epoch: item.epoch as number,
    blockHash: fromHex(item.block_hash as string)!,
    validatorSetHash: fromHex(item.validator_set_hash as string)!,
    signers: fromHex(item.signers as string)!,
    signature: fromHex(item.signature as string)!,
  };
}

describe('consensus routes (full profile)', () => {
  let t: ServedTestNode;
  const u = (path: string) => `${t.url}/v1/consensus${path}`;
  before(async () => {
    t = await startServedNode({ 'telemetry.profile': 'full', 'streams.consensus_status_interval_ms': 40 });
    await run(t, t.admin, [{ kind: 'Log', level: { kind: 'Info' }, message: 'block 2' }]);
  });
  after(async () => t.stopAll());

  const tipBlock = async () => (await t.node.ledger.block(t.node.ledger.height()))!;

  it('status: the codec by default, JSON on request, from the engine and queue', async () => {
    const codec = await get(u('/status'));
    assert.equal(codec.status, 200);
    assert.match(codec.type, /application\/x-codec/);
    const s = decoded(ConsensusStatusView, codec.bytes);
    const tip = await tipBlock();
    assert.equal(s.mode, 'single-peer');
    assert.equal(s.height, t.node.ledger.height());
    assert.equal(s.commitQc?.blockHash, toHex(tip.certificate.blockHash));
    assert.deepEqual(s.commitQuorum?.signaturesRequired, 1);
    assert.equal(s.commitQuorum?.signaturesPresent, 1);
    const json = await get(u('/status'), JSON_ACCEPT);
    assert.match(json.type, /application\/json/);
    const j = json.json();
    assert.equal(j.mode, 'single-peer');
    assert.equal(j.highest_qc.height, s.height);
    assert.equal(j.commit_time_ms, 2000);
    assert.deepEqual(j.tx_queue, { depth: 0, capacity: 65_536, saturated: false });
    assert.equal(j.view_changes, 0);
    assert.deepEqual(j.view_change_causes, {});
  });

  it('qc: highest and locked QC of the tip, codec by default', async () => {
    const qc = decoded(QcView, (await get(u('/qc'))).bytes);
    const tip = await tipBlock();
    assert.deepEqual(qc.highestQc, {
      height: tip.header.height,
      view: 0,
      subjectBlockHash: toHex(tip.certificate.blockHash),
    });
    assert.deepEqual((await get(u('/qc'), JSON_ACCEPT)).json().locked_qc.height, tip.header.height);
  });

  it('commit_qc/{hash}: the stored certificate, which verifies; 404 unknown, 400 malformed', async () => {
    for (const h of [1, t.node.ledger.height()]) {
      const block = (await t.node.ledger.block(h))!;
      const hash = toHex(block.certificate.blockHash);
      const r = decoded(CommitQcRecordView, (await get(u(`/commit_qc/${hash.toUpperCase()}`))).bytes);
      assert.equal(r.height, h);
      assert.deepEqual(r.certificate, block.certificate);
      assert.equal(verifyCertificate(t.chainId, r.certificate, t.node.validatorSet), undefined);
      assert.equal((await get(u(`/commit_qc/${hash}`), JSON_ACCEPT)).json().block_hash, hash);
    }
    const missing = await get(u(`/commit_qc/${'ab'.repeat(32)}`), JSON_ACCEPT);
    assert.equal(missing.status, 404);
    assert.equal(missing.json().code, 'not_found');
    const bad = await get(u('/commit_qc/xyz'), JSON_ACCEPT);
    assert.equal(bad.status, 400);
    assert.equal(bad.json().code, 'bad_request');
  });

  it('commit-certificates: newest first from the chain, real signatures, bounded pages', async () => {
    const tip = t.node.ledger.height();
    const all = (await get(u('/commit-certificates'))).json().items;
    assert.deepEqual(
      all.map((c: { height: number }) => c.height),
      Array.from({ length: tip }, (_, i) => tip - i),
    );
    for (const item of all) {
      assert.equal(item.signatures_total, 1);
      assert.equal(verifyCertificate(t.chainId, certificateOf(item), t.node.validatorSet), undefined);
    }
    assert.deepEqual((await get(u('/commit-certificates?limit=1'))).json().items.length, 1);
    assert.deepEqual((await get(u('/commit-certificates?from=1'))).json().items[0].height, 1);
    for (const q of ['limit=0', 'limit=129', 'limit=x', 'from=0', 'from=1.5']) {
      const r = await get(u(`/commit-certificates?${q}`));
      assert.equal(r.status, 400, q);
      assert.equal(r.json().code, 'invalid_pagination', q);
    }
    const cp = (await get(u('/checkpoints?limit=2'))).json().items;
    assert.deepEqual(cp, all.slice(0, 2));
  });

  it('validator-sets: the genesis set from height 1, by height, 404 beyond the chain', async () => {
    const set = t.node.validatorSet;
    const list = (await get(u('/validator-sets'))).json().items;
    assert.equal(list.length, 1);
    assert.equal(list[0].height, 1);
    assert.equal(list[0].validator_set_hash, toHex(set.hash));
    assert.deepEqual(list[0].validator_set, [
      { peer: set.validators[0]!.peer, bls_key: set.validators[0]!.blsKey },
    ]);
    const tip = t.node.ledger.height();
    const at = (await get(u(`/validator-sets/${tip}`))).json();
    assert.equal(at.block_hash, toHex((await tipBlock()).certificate.blockHash));
    assert.equal(at.validator_set_hash, toHex(set.hash));
    assert.equal((await get(u(`/validator-sets/${tip + 100}`))).status, 404);
    assert.equal((await get(u('/validator-sets/abc'))).status, 400);
    assert.equal((await get(u('/validator-sets/0'))).status, 400);
  });

  it('keys: the node’s real BLS consensus key, registered by genesis (height 0), active from height 1', async () => {
    const key = await loadConsensusKey(join(t.dir, 'consensus.key.json'));
    const text = publicKeyToText(key.publicKey);
    const peer = t.node.nodeKey.publicKeyText();
    const keys = (await get(u('/consensus-keys'))).json().items;
    assert.deepEqual(keys, [
      { index: 0, peer_id: peer, algorithm: 'bls12_381', public_key: text, active_from_height: 1 },
    ]);
    assert.deepEqual((await get(u('/bls_keys'))).json().items, [
      { peer_id: peer, bls_key: text, active_from_height: 1 },
    ]);
    const life = (await get(u('/key-lifecycle'))).json().items;
    assert.deepEqual(life, [
      { peer_id: peer, bls_key: text, status: 'active', registered_height: 0, active_from_height: 1 },
    ]);
  });

  it('leader, collectors, pacemaker, params, phases, telemetry: the single validator’s real round', async () => {
    const peer = t.node.nodeKey.publicKeyText();
    const height = t.node.ledger.height() + 1;
    const leader = (await get(u('/leader'))).json();
    assert.equal(leader.leader_index, 0);
    assert.equal(leader.leader_peer_id, peer);
    assert.deepEqual({ ...leader.prf, seed: undefined }, { height, view: 0, seed: undefined });
    assert.match(leader.prf.seed, /^[0-9a-f]{64}$/);
    const col = (await get(u('/collectors'))).json();
    assert.deepEqual(col, {
      mode: 'single-peer',
      roster_size: 1,
      votes_needed: 1,
      height,
      view: 0,
      k: 1,
      r: 1,
      collectors: [{ index: 0, peer_id: peer }],
    });
    const pm = (await get(u('/pacemaker'))).json();
    assert.equal(pm.view_timeout_target_ms, 2000);
    assert.equal(pm.backoff_ms, 0);
    assert.equal(pm.round_in_progress, false);
    const params = (await get(u('/params'))).json();
    assert.deepEqual(params, {
      block_time_ms: 1000,
      commit_time_ms: 2000,
      max_clock_drift_ms: TEST_CLOCK_DRIFT_MS,
      collectors_k: 1,
      redundant_send_r: 1,
      data_availability: false,
      chain_height: height - 1,
    });
    const phases = (await get(u('/phases'))).json();
    const produced = t.node.engine.snapshot().blocksProduced;
    assert.ok(produced >= 1);
    assert.equal(phases.samples, produced);
    assert.ok(phases.last.total_us >= phases.last.commit_us);
    const tel = (await get(u('/telemetry'))).json();
    assert.deepEqual(tel.vote_intake, [
      { index: 0, peer_id: peer, votes_received: produced, qcs_formed: produced },
    ]);
    assert.equal(tel.qc_latency_last_us, phases.last.collect_votes_us);
  });

  it('rbc: reported as disabled with zero counters and no sessions', async () => {
    const rbc = (await get(u('/rbc'))).json();
    assert.equal(rbc.enabled, false);
    for (const [k, v] of Object.entries(rbc)) if (k !== 'enabled') assert.equal(v, 0, k);
    assert.deepEqual((await get(u('/rbc/sessions'))).json(), { enabled: false, items: [] });
  });

  it('every JSON route also answers in the codec when Accept prefers it', async () => {
    const views: [string, Codec<never>][] = [
      ['/commit-certificates', CommitCertificatesView as Codec<never>],
      ['/checkpoints', CheckpointsView as Codec<never>],
      ['/validator-sets', ValidatorSetsView as Codec<never>],
      ['/validator-sets/1', ValidatorSetEntryView as Codec<never>],
      ['/leader', LeaderView as Codec<never>],
      ['/consensus-keys', ConsensusKeysView as Codec<never>],
      ['/bls_keys', BlsKeysView as Codec<never>],
      ['/key-lifecycle', KeyLifecycleView as Codec<never>],
      ['/phases', PhasesView as Codec<never>],
      ['/pacemaker', PacemakerView as Codec<never>],
      ['/params', ParamsView as Codec<never>],
      ['/collectors', CollectorsView as Codec<never>],
      ['/telemetry', TelemetryView as Codec<never>],
      ['/rbc', RbcView as Codec<never>],
      ['/rbc/sessions', RbcSessionsView as Codec<never>],
      ['/evidence/count', EvidenceCountView as Codec<never>],
      ['/evidence', EvidenceListView as Codec<never>],
    ];
    for (const [path, view] of views) {
      const json = await get(u(path));
      assert.match(json.type, /application\/json/, path);
      const codec = await get(u(path), CODEC_ACCEPT);
      assert.equal(codec.status, 200, path);
      assert.deepEqual(view.toJson(decoded(view, codec.bytes)), json.json(), path);
    }
    assert.equal((await get(u('/status'), { accept: 'text/html' })).status, 406);
  });

  it('status/sse: the status JSON about once per interval, each event with a growing id', async () => {
    const es = new EventSource(u('/status/sse'));
    const events: MessageEvent[] = [];
    await new Promise<void>((resolve, reject) => {
      es.addEventListener('consensus_status', (e) => {
        events.push(e);
        if (events.length === 3) resolve();
      });
      es.onerror = () => reject(new Error('sse error'));
    });
    es.close();
    const ids = events.map((e) => Number(e.lastEventId));
    assert.ok(ids[0]! < ids[1]! && ids[1]! < ids[2]!, `ids ${ids}`);
    const data = JSON.parse(events[2]!.data);
    assert.equal(data.mode, 'single-peer');
    assert.equal(data.height, t.node.ledger.height());
  });

  it('status/sse resumes after Last-Event-ID with a higher id', async () => {
    const resumeFrom = Date.now() + 60_000;
    const first = await new Promise<string>((resolve, reject) => {
      const req = request(u('/status/sse'), { headers: { 'last-event-id': String(resumeFrom) } }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => {
          text += c.toString('utf8');
          if (/\n\n.*id: \d+[\s\S]*?\n\n/.test(text)) {
            req.destroy();
            resolve(text);
          }
        });
      });
      req.on('error', reject);
      req.end();
    });
    const id = Number(/id: (\d+)/.exec(first)![1]);
    assert.ok(id > resumeFrom, `${id} > ${resumeFrom}`);
  });
});

describe('consensus routes (default operator profile)', () => {
  let t: ServedTestNode;
  before(async () => {
    t = await startServedNode({ 'telemetry.profile': 'operator' });
  });
  after(async () => t.stopAll());

  it('serves status and ungated routes; developer routes answer 503', async () => {
    const u = (p: string) => `${t.url}/v1/consensus${p}`;
    for (const p of [
      '/status',
      '/telemetry',
      '/commit-certificates',
      '/validator-sets',
      '/consensus-keys',
      '/key-lifecycle',
      '/collectors',
      '/evidence/count',
    ])
      assert.equal((await get(u(p))).status, 200, p);
    for (const p of [
      '/leader',
      '/qc',
      '/pacemaker',
      '/phases',
      '/params',
      '/bls_keys',
      '/checkpoints',
      '/rbc',
      '/rbc/sessions',
      '/evidence',
    ]) {
      const r = await get(u(p), JSON_ACCEPT);
      assert.equal(r.status, 503, p);
      assert.equal(r.json().code, 'telemetry_profile_restricted', p);
    }
  });
});
