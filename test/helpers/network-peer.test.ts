// PeerProcess.waitReady (network-peer.ts) accepts only its own process: a peer whose gateway port is
// already taken by another server (another test's node, answering /health 200 for a chain that does not
// know this network's accounts) is not ready — it fails on the taken port and waitReady says it exited,
// instead of letting the test submit its first transaction to the other node (`authority_not_found`).

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
// The ledger modules (the dev genesis declares their parameters), as the node itself loads them.
import '../../src/modules/load.js';
import { initNodeDir } from '../../src/node/init.js';
import { PeerProcess } from './network-peer.js';

let dir: string;
let other: Server;
let port: number;
let otherHealthChecks = 0;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'torana-peer-ready-'));
  // The other server: answers every request 200, as a node of another chain would answer /health.
  other = createServer((req, res) => {
    if (req.url === '/health') otherHealthChecks++;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  port = (other.address() as AddressInfo).port;
  await initNodeDir({ dir, overrides: { 'gateway.host': '127.0.0.1', 'gateway.port': port } });
});
after(async () => {
  other.closeAllConnections();
  await new Promise<void>((resolve) => other.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

it('a peer whose port another server holds is not ready: waitReady says it exited; on a free port it serves', async () => {
  const peer = new PeerProcess({ dir, url: `http://127.0.0.1:${port}`, label: 'taken-port' });
  try {
    peer.start();
    await assert.rejects(peer.waitReady(120_000), /taken-port exited before serving/);
    assert.ok(peer.lastExit !== undefined && peer.lastExit.code !== 0, JSON.stringify(peer.lastExit));

    // The port freed, the same peer starts and is ready: its own gateway answers.
    other.closeAllConnections();
    await new Promise<void>((resolve) => other.close(() => resolve()));
    peer.start();
    await peer.waitReady(120_000);
    const status = (await (await fetch(`${peer.url}/status`)).json()) as { latest_block_height: number };
    assert.ok(status.latest_block_height >= 1, `genesis applied: ${JSON.stringify(status)}`);
  } finally {
    await peer.stop();
  }
  console.log(`[figure] /health requests the other server answered: ${otherHealthChecks}`);
});
