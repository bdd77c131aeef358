// The runtime routes through a real socket: ABI descriptor and hash, metrics, upgrade
// records, and the full loop propose → sign the returned instructions as the admin → submit → activate.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Codec } from '../../src/codec/codec.js';
import { decodeFrame } from '../../src/codec/frame.js';
import { Ed25519KeyPair } from '../../src/crypto/signer.js';
import { signOperatorRequest } from '../../src/gateway/operator-message.js';
import {
  AbiActiveView,
  AbiHashView,
  RuntimeMetricsView,
  UpgradesView,
} from '../../src/gateway/views/runtime.js';
import { type Instruction, InstructionCodec } from '../../src/model/instructions.js';
import { createSchemaRegistry } from '../../src/model/schema.js';
import { abiDescriptor, abiHashHex } from '../../src/runtime/abi.js';
import { run } from '../helpers/node.js';
import { operatorAudience, type ServedTestNode, startServedNode } from '../helpers/served.js';

const LIMITS = { bytesMax: 1 << 20, itemsMax: 10_000, depthMax: 32 };
const OPERATOR_SEED = new Uint8Array(32).fill(0x24);
const OPERATOR_KEY = Ed25519KeyPair.fromSeed(OPERATOR_SEED).publicKeyText();

async function get(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { status: res.status, bytes, json: () => JSON.parse(Buffer.from(bytes).toString('utf8')) };
}

async function post(t: ServedTestNode, path: string, body?: unknown, signed = true) {
  const text = body === undefined ? undefined : JSON.stringify(body);
  const auth = signed
    ? signOperatorRequest({
        method: 'POST',
        url: path,
        ...(text === undefined ? {} : { body: text }),
        seed: OPERATOR_SEED,
        ...operatorAudience(t.node),
      })
    : {};
  const res = await fetch(`${t.url}${path}`, {
    method: 'POST',
    headers: { ...(text === undefined ? {} : { 'content-type': 'application/json' }), ...auth },
    ...(text === undefined ? {} : { body: text }),
  });
  return { status: res.status, body: JSON.parse(await res.text()) };
}

describe('runtime routes', () => {
  let t: ServedTestNode;
  const u = (p: string) => `${t.url}/v1/runtime${p}`;
  const manifest = (abiVersion: number, over: Record<string, unknown> = {}) => ({
    name: `upgrade-${abiVersion}`,
    description: 'test upgrade',
    abi_version: abiVersion,
    abi_hash: abiHashHex(abiDescriptor(abiVersion)),
    start_height: t.node.ledger.height() + 10,
    ...over,
  });
  /** Signs and submits the returned instructions as the admin, who holds Admin. */
  const submit = async (json: unknown[]) => {
    const r = await run(
      t,
      t.admin,
      json.map((j) => InstructionCodec.fromJson(j, '$') as Instruction),
    );
    assert.equal(r.status.kind, 'Committed', JSON.stringify(r.status));
    return r.height!;
  };
  const upgrades = async () => (await get(u('/upgrades'))).json().items;

  before(async () => {
    t = await startServedNode({ 'operator.public_keys': [OPERATOR_KEY] });
  });
  after(async () => t.stopAll());

  it('ABI descriptor, hash and metrics of a fresh chain', async () => {
    const active = (await get(u('/abi/active'))).json();
    assert.equal(active.abi_version, 1);
    assert.equal(active.policy, 'V1');
    assert.ok(
      active.descriptor.instructions.some((e: { name: string }) => e.name === 'ProposeRuntimeUpgrade'),
    );
    const codec = await get(u('/abi/active'), { accept: 'application/x-codec' });
    const d = decodeFrame(createSchemaRegistry([AbiActiveView]), AbiActiveView, codec.bytes, {
      bytesMax: 1 << 20,
      itemsMax: 10_000,
      depthMax: 32,
    });
    assert.ok(d.ok);
    assert.deepEqual(AbiActiveView.toJson(d.value), active);
    const h = (await get(u('/abi/hash'))).json();
    assert.deepEqual(h, { policy: 'V1', abi_hash_hex: abiHashHex(abiDescriptor(1)) });
    assert.match(h.abi_hash_hex, /^[0-9a-f]{64}$/);
    assert.deepEqual((await get(u('/metrics'))).json(), {
      abi_version: 1,
      upgrade_events_total: { proposed: 0, activated: 0, canceled: 0 },
    });
    assert.deepEqual(await upgrades(), []);
    const views: [string, Codec<never>][] = [
      ['/abi/hash', AbiHashView as Codec<never>],
      ['/metrics', RuntimeMetricsView as Codec<never>],
      ['/upgrades', UpgradesView as Codec<never>],
    ];
    for (const [path, view] of views) {
      const c = await get(u(path), { accept: 'application/x-codec' });
      const v = decodeFrame(createSchemaRegistry([view]), view, c.bytes, LIMITS);
      assert.ok(v.ok, path);
      assert.deepEqual(view.toJson(v.value), (await get(u(path))).json(), path);
    }
  });

  it('propose checks the manifest and changes nothing by itself', async () => {
    const bad: [Record<string, unknown>, string, string][] = [
      [manifest(1), 'upgrade_invalid_manifest', 'abi_version'],
      [manifest(2, { start_height: 1 }), 'upgrade_invalid_manifest', 'start_height'],
      [manifest(2, { end_height: 5 }), 'upgrade_invalid_manifest', 'end_height'],
    ];
    for (const [m, code, field] of bad) {
      const r = await post(t, '/v1/runtime/upgrades/propose', m);
      assert.deepEqual([r.status, r.body.code, r.body.details.field], [400, code, field]);
    }
    const { abi_hash: _, ...missing } = manifest(2);
    assert.equal((await post(t, '/v1/runtime/upgrades/propose', missing)).status, 400);
    const long = await post(t, '/v1/runtime/upgrades/propose', manifest(2, { name: 'x'.repeat(200) }));
    assert.equal(long.status, 400);
    const unsigned = await post(t, '/v1/runtime/upgrades/propose', manifest(2), false);
    assert.deepEqual([unsigned.status, unsigned.body.code], [401, 'operator_auth_missing']);
    const ok = await post(t, '/v1/runtime/upgrades/propose', manifest(2));
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.body.tx_instructions[0].kind, 'ProposeRuntimeUpgrade');
    assert.deepEqual(await upgrades(), [], 'the node never submits for the caller');
  });

  it('full loop: propose → submit → Proposed → activate → ActivatedAt(height) → new ABI version', async () => {
    const m = manifest(2);
    const proposed = await post(t, '/v1/runtime/upgrades/propose', m);
    assert.equal(proposed.status, 200);
    const id = proposed.body.id_hex;
    const createdHeight = await submit(proposed.body.tx_instructions);
    const [item] = await upgrades();
    assert.equal(item.id_hex, id);
    assert.deepEqual(item.record.status, { kind: 'Proposed' });
    assert.equal(item.record.created_height, createdHeight);
    assert.equal(item.record.manifest.abi_version, 2);
    assert.equal(item.record.proposer, t.admin.id);
    const dup = await post(t, '/v1/runtime/upgrades/propose', m);
    assert.deepEqual([dup.status, dup.body.code], [409, 'upgrade_already_exists']);

    const act = await post(t, `/v1/runtime/upgrades/activate/${id.toUpperCase()}`);
    assert.equal(act.status, 200, JSON.stringify(act.body));
    assert.deepEqual(act.body.tx_instructions, [{ kind: 'ActivateRuntimeUpgrade', id }]);
    const height = await submit(act.body.tx_instructions);
    assert.deepEqual((await upgrades())[0].record.status, { kind: 'ActivatedAt', height });
    assert.equal((await get(u('/abi/active'))).json().abi_version, 2);
    assert.deepEqual((await get(u('/abi/hash'))).json(), {
      policy: 'V2',
      abi_hash_hex: abiHashHex(abiDescriptor(2)),
    });
    assert.deepEqual((await get(u('/metrics'))).json().upgrade_events_total, {
      proposed: 1,
      activated: 1,
      canceled: 0,
    });

    for (const verb of ['activate', 'cancel']) {
      const again = await post(t, `/v1/runtime/upgrades/${verb}/${id}`);
      assert.deepEqual(
        [again.status, again.body.code, again.body.details.status],
        [409, 'upgrade_invalid_state', 'ActivatedAt'],
        verb,
      );
    }
  });

  it('cancel moves a proposal to Canceled; unknown and malformed ids', async () => {
    const proposed = await post(t, '/v1/runtime/upgrades/propose', manifest(3));
    await submit(proposed.body.tx_instructions);
    const cancel = await post(t, `/v1/runtime/upgrades/cancel/${proposed.body.id_hex}`);
    assert.deepEqual(cancel.body.tx_instructions, [
      { kind: 'CancelRuntimeUpgrade', id: proposed.body.id_hex },
    ]);
    await submit(cancel.body.tx_instructions);
    const record = (await upgrades()).find((i: { id_hex: string }) => i.id_hex === proposed.body.id_hex);
    assert.deepEqual(record.record.status, { kind: 'Canceled' });
    assert.deepEqual((await get(u('/metrics'))).json(), {
      abi_version: 2,
      upgrade_events_total: { proposed: 2, activated: 1, canceled: 1 },
    });
    const unknown = await post(t, `/v1/runtime/upgrades/activate/${'ab'.repeat(32)}`);
    assert.deepEqual([unknown.status, unknown.body.code], [404, 'upgrade_not_found']);
    assert.equal((await post(t, '/v1/runtime/upgrades/cancel/nothex')).status, 400);
  });
});

describe('runtime routes without operators', () => {
  let t: ServedTestNode;
  before(async () => {
    t = await startServedNode();
  });
  after(async () => t.stopAll());

  it('upgrade routes answer 403 operator_access_disabled; reads stay public', async () => {
    for (const path of [
      '/v1/runtime/upgrades/propose',
      `/v1/runtime/upgrades/activate/${'ab'.repeat(32)}`,
      `/v1/runtime/upgrades/cancel/${'ab'.repeat(32)}`,
    ]) {
      const r = await post(t, path, path.endsWith('propose') ? { name: 'x' } : undefined);
      assert.deepEqual([r.status, r.body.code], [403, 'operator_access_disabled'], path);
    }
    assert.equal((await get(`${t.url}/v1/runtime/upgrades`)).status, 200);
  });
});
