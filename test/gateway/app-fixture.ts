// Shared fixture of the application read route tests: a served node with a small world built by real
// transactions (two domains besides genesis, three accounts, three definitions, mints, a transfer, a
// rejected transfer, an NFT), and HTTP helpers that check error bodies and decode codec answers.

import assert from 'node:assert/strict';
import type { Codec } from '../../src/codec/codec.js';
import { decodeFrame } from '../../src/codec/frame.js';
import { numeric } from '../../src/model/numeric.js';
import { createSchemaRegistry } from '../../src/model/schema.js';
import type { Clock } from '../../src/util/clock.js';
import { inject } from '../helpers/inject.js';
import { run } from '../helpers/node.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';
import { newAccount } from '../helpers/tx.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers are checked field by field.
export type J = any;
const meta = (o: Record<string, string | number>) => new Map(Object.entries(o));
export const enc = encodeURIComponent;
const LIMITS = { bytesMax: 1 << 22, itemsMax: 100_000, depthMax: 64 };

export const alice = newAccount('wonderland', 1);
export const bob = newAccount('wonderland', 2);
export const carol = newAccount('looking_glass', 3);
export const rose = 'rose#wonderland';
export const deed = 'deed$wonderland';

export const ids = (items: { id: string }[]) => items.map((x) => x.id);

export interface AppFixture {
  t: ServedTestNode;
  /** Transaction hashes and block heights of the steps: setup, transfer, rejected, nft. */
  hashes: Record<string, string>;
  heights: Record<string, number>;
  get(path: string, accept?: string): Promise<{ status: number; body: J }>;
  post(path: string, body: unknown): Promise<{ status: number; body: J }>;
  /** Asserts an error answer `{code, message, details}` with this status and code; returns the body. */
  refused(path: string, status: number, code: string, body?: unknown): Promise<J>;
  /** GETs with `Accept: application/x-codec`, checks the frame and decodes it with `view`. */
  codec<T>(path: string, view: Codec<T>): Promise<T>;
}

async function buildWorld(
  t: ServedTestNode,
  hashes: Record<string, string>,
  heights: Record<string, number>,
) {
  const steps = {
    setup: await run(t, t.admin, [
      { kind: 'RegisterDomain', id: 'wonderland', metadata: meta({ tier: 'gold' }) },
      { kind: 'RegisterDomain', id: 'looking_glass', metadata: meta({ tier: 'silver' }) },
      { kind: 'RegisterAccount', id: alice.id, metadata: meta({ nick: 'al' }) },
      { kind: 'RegisterAccount', id: bob.id, metadata: meta({}) },
      { kind: 'RegisterAccount', id: carol.id, metadata: meta({}) },
      {
        kind: 'RegisterAssetDefinition',
        id: rose,
        scale: 2,
        mintable: { kind: 'Infinitely' },
        metadata: meta({ color: 'red' }),
      },
      {
        kind: 'RegisterAssetDefinition',
        id: 'tulip#wonderland',
        scale: 0,
        mintable: { kind: 'Once' },
        metadata: meta({}),
      },
      {
        kind: 'RegisterAssetDefinition',
        id: 'gem#looking_glass',
        scale: 3,
        mintable: { kind: 'Infinitely' },
        metadata: meta({}),
      },
      { kind: 'MintAsset', asset: `${rose}#${alice.id}`, amount: numeric('100.50') },
      { kind: 'MintAsset', asset: `tulip#wonderland#${bob.id}`, amount: numeric('7') },
      { kind: 'MintAsset', asset: `gem#looking_glass#${carol.id}`, amount: numeric('1.500') },
      { kind: 'RegisterNft', id: deed, content: meta({ acres: 3 }) },
      {
        kind: 'GrantPermission',
        account: alice.id,
        permission: { name: 'CanMintAssetWithDefinition', payload: { asset_definition: rose } },
      },
    ]),
    transfer: await run(t, alice, [
      {
        kind: 'TransferAsset',
        source: `${rose}#${alice.id}`,
        destination: bob.id,
        amount: numeric('25.25'),
      },
    ]),
    rejected: await run(t, alice, [
      {
        kind: 'TransferAsset',
        source: `${rose}#${alice.id}`,
        destination: bob.id,
        amount: numeric('1000'),
      },
    ]),
    nft: await run(t, t.admin, [
      { kind: 'TransferNft', id: deed, source: t.admin.id, destination: alice.id },
    ]),
  };
  for (const [k, v] of Object.entries(steps)) {
    assert.equal(
      v.status.kind,
      k === 'rejected' ? 'Rejected' : 'Committed',
      `${k}: ${JSON.stringify(v.status)}`,
    );
    hashes[k] = v.hash;
    heights[k] = v.height!;
  }
}

/** The JSON and codec reads go through the gateway in process (inject()); SDK and CLI tests use `t.url`. */
function helpers(t: ServedTestNode): Omit<AppFixture, 't' | 'hashes' | 'heights'> {
  const get = async (path: string, accept = 'application/json') => {
    const res = await inject(t.served.app, path, { headers: { accept } });
    return { status: res.status, body: JSON.parse(res.text) as J };
  };
  const post = async (path: string, body: unknown) => {
    const res = await inject(t.served.app, path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: JSON.parse(res.text) as J };
  };
  return {
    get,
    post,
    async refused(path, status, code, body) {
      const r = body === undefined ? await get(path) : await post(path, body);
      assert.equal(r.status, status, `${path}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.code, code, path);
      assert.equal(typeof r.body.message, 'string');
      assert.equal(typeof r.body.details, 'object');
      return r.body;
    },
    async codec(path, view) {
      const res = await inject(t.served.app, path, { headers: { accept: 'application/x-codec' } });
      assert.equal(res.status, 200);
      assert.match(res.contentType, /application\/x-codec/);
      const bytes = new Uint8Array(res.bytes);
      assert.equal(Buffer.from(bytes.subarray(0, 4)).toString('latin1'), 'TRNC');
      const d = decodeFrame(createSchemaRegistry([view]), view, bytes, LIMITS);
      assert.ok(d.ok, d.ok ? '' : d.error.message);
      return d.value;
    },
  };
}

/** `opts.clock`: the node's clock (test/helpers/jump-clock.ts for tests that move block time). */
export async function startAppFixture(opts: { clock?: Clock } = {}): Promise<AppFixture> {
  const t = await startServedNode({}, opts);
  const hashes: Record<string, string> = {};
  const heights: Record<string, number> = {};
  try {
    await buildWorld(t, hashes, heights);
  } catch (e) {
    await t.stopAll();
    throw e;
  }
  return { t, hashes, heights, ...helpers(t) };
}
