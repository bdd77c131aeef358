// Abuse scenario: a captured signed operator request replayed (a) against another node that
// trusts the same operator key and (b) against the same node after a restart, within the ±30 s window.
// The signed text names the node's chain id and key, and the newest accepted timestamp survives the
// restart in the data directory (node/operator-watermark.ts): both replays are refused with 401.

import assert from 'node:assert/strict';
import { Ed25519KeyPair } from '../../src/crypto/signer.js';
import { signOperatorRequest } from '../../src/gateway/operator-message.js';
import { serveNode } from '../../src/node/serve.js';
import { operatorAudience, type ServedTestNode, startServedNode } from '../helpers/served.js';
import { figure } from './clients.js';

const SEED = new Uint8Array(32).fill(0x5a);
// An operator route that answers 404 for an unknown upgrade once the request is authenticated.
const PATH = `/v1/runtime/upgrades/activate/${'ab'.repeat(32)}`;

/** One after another: a burst of parallel requests would meet the per-IP connection cap instead. */
async function postAll(url: string, all: Record<string, string>[]) {
  const out: Awaited<ReturnType<typeof post>>[] = [];
  for (const headers of all) out.push(await post(url, headers));
  return out;
}

async function post(url: string, headers: Record<string, string>) {
  const res = await fetch(`${url}${PATH}`, { method: 'POST', headers });
  const body = (await res.json()) as { code?: string };
  return { status: res.status, code: body.code };
}

export async function operatorReplay(size: { replays: number }) {
  const overrides = { 'operator.public_keys': [Ed25519KeyPair.fromSeed(SEED).publicKeyText()] };
  const a: ServedTestNode = await startServedNode(overrides);
  const b: ServedTestNode = await startServedNode(overrides);
  let urlA = a.url;
  try {
    const captured = Array.from({ length: size.replays }, () =>
      signOperatorRequest({ method: 'POST', url: PATH, seed: SEED, ...operatorAudience(a.node) }),
    );
    const served = await postAll(urlA, captured);
    assert.ok(
      served.every((r) => r.status === 404 && r.code === 'upgrade_not_found'),
      `authenticated at the node they were signed for: ${JSON.stringify(served.slice(0, 3))}`,
    );
    const atOther = await postAll(b.url, captured);
    assert.ok(
      atOther.every((r) => r.status === 401 && r.code === 'operator_auth_invalid'),
      JSON.stringify(atOther.slice(0, 3)),
    );
    // Restart node A (same directory, memory lost) and replay within the window.
    await a.served.close();
    await a.restart();
    a.served = await serveNode(a.node, { dir: a.dir });
    urlA = a.served.url;
    const afterRestart = await postAll(urlA, captured);
    assert.ok(
      afterRestart.every((r) => r.status === 401 && r.code === 'operator_replay'),
      JSON.stringify(afterRestart.slice(0, 3)),
    );
    const fresh = await post(
      urlA,
      signOperatorRequest({ method: 'POST', url: PATH, seed: SEED, ...operatorAudience(a.node) }),
    );
    assert.equal(fresh.status, 404, 'a freshly signed request is still served');
    figure('operator request replay', {
      'served at the signed-for node': served.length,
      'replayed at another node with the same operator key': `${atOther.length} × 401 operator_auth_invalid`,
      'replayed after a restart': `${afterRestart.length} × 401 operator_replay`,
      'fresh request after restart': fresh.status,
    });
  } finally {
    await a.served.close().catch(() => undefined);
    await a.cleanup();
    await b.stopAll();
  }
}
