// Scenario: a node made by `torana init` runs on the DEVELOPMENT verifying keys (zk/artifacts/), for
// which anyone can forge proofs. Started as a user starts it (`torana start`, a real process), it must
// log the development-key warning exactly once, and `GET /v1/node/capabilities` must list
// `conference.dev_keys` plus the route families the node composed (iso20022 when started with
// `TORANA_ISO20022_ENABLED`, conference, mcp, webhooks, …). Before, the keys stored in the ledger (canonical JSON)
// never matched the files' text, so nothing was logged and `features` was `[]`.

import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PEER_LOG_LINES_MAX, PeerProcess } from '../helpers/network-peer.js';
import { cli } from '../helpers/run-cli.js';
import { figure } from './clients.js';

const WARNING = /DEVELOPMENT keys/;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export async function devKeysAnnounced(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'torana-devkeys-'));
  const port = await freePort();
  const init = await cli(['init', '--dir', dir, '--port', String(port)]);
  assert.equal(init.code, 0, init.err);
  // ISO 20022 and MCP switched on as an operator would (environment layer of the configuration).
  const env = { TORANA_ISO20022_ENABLED: 'true', TORANA_MCP_ENABLED: 'true' };
  const peer = new PeerProcess({ dir, url: `http://127.0.0.1:${port}`, label: 'dev-keys', env });
  try {
    peer.start();
    await peer.waitReady(90_000);
    const res = await fetch(`${peer.url}/v1/node/capabilities`);
    const body = (await res.json()) as { features: string[] };
    const warnings = peer.logs(PEER_LOG_LINES_MAX).filter((l) => WARNING.test(l));
    figure('development keys', {
      'warnings logged': warnings.length,
      features: body.features.join(' '),
    });
    assert.equal(res.status, 200);
    assert.equal(warnings.length, 1, `one warning at start:\n${peer.logs().join('\n')}`);
    for (const f of ['conference.dev_keys', 'conference', 'iso20022', 'mcp', 'webhooks', 'operator'])
      assert.ok(body.features.includes(f), `features lists ${f}: ${body.features.join(' ')}`);
    assert.deepEqual(body.features, [...body.features].sort(), 'sorted');
  } finally {
    await peer.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
