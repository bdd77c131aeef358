// Base port reservations (port-reservation.ts) and freeBasePort (network.ts): a base another live process
// holds is never handed out, a reservation of an exited process is taken over, and a released base is
// free again. Each test uses a folder of its own, never the machine's shared one.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { P2P_PORT_OFFSET } from '../../src/node/testnet-manifest.js';
import { BASE_PORTS, freeBasePort } from './network.js';
import { releaseBase, reserveBase } from './port-reservation.js';

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'torana-port-reservations-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** A reservation as another process leaves it: its pid in the base's folder. */
function reservedBy(pid: number, base: number, folder = dir): void {
  mkdirSync(join(folder, String(base)), { recursive: true });
  writeFileSync(join(folder, String(base), 'pid'), String(pid));
}

it('one holder per base: a live owner keeps it, an exited one loses it, a release frees it', () => {
  assert.equal(reserveBase(20_000, dir), true);
  assert.equal(reserveBase(20_000, dir), false, 'this process holds it already, for another network');
  // pid 1 is alive for as long as the machine runs.
  reservedBy(1, 20_100);
  assert.equal(reserveBase(20_100, dir), false);
  releaseBase(20_100, dir);
  assert.equal(reserveBase(20_100, dir), false, 'only its owner releases it');
  // A pid above the kernel's maximum belongs to no process.
  reservedBy(2 ** 22 + 1, 20_200);
  assert.equal(reserveBase(20_200, dir), true, 'taken over from an exited owner');
  releaseBase(20_000, dir);
  reservedBy(1, 20_000);
  assert.equal(reserveBase(20_000, dir), false, 'released, then taken by another');
});

it('freeBasePort hands out no base that another live process holds', async () => {
  const own = mkdtempSync(join(dir, 'all-'));
  for (const base of BASE_PORTS) reservedBy(1, base, own);
  await assert.rejects(freeBasePort(2, own), /no free range of 2 \+ 2 ports found/);
  // Two bases left: each handed out once (when its ports are free), then none.
  const left = BASE_PORTS.slice(-2);
  for (const base of left) rmSync(join(own, String(base)), { recursive: true, force: true });
  const got: number[] = [];
  for (let i = 0; i < 2; i++) {
    const base = await freeBasePort(1, own).catch(() => undefined);
    if (base !== undefined) got.push(base);
  }
  assert.ok(got.length >= 1, 'a free base is found among the reserved ones');
  assert.deepEqual(
    got.filter((b) => !left.includes(b)),
    [],
  );
  assert.equal(new Set(got).size, got.length, 'never the same base twice');
  await assert.rejects(freeBasePort(1, own), /no free range/);
});

it("no network's ports are another base's: gateway and p2p ranges of every base are disjoint and below the ephemeral range", () => {
  // A network at `base` listens on base + i (gateways) and base + P2P_PORT_OFFSET + i (p2p), i < the offset.
  const ranges = BASE_PORTS.flatMap((b) => [
    [b, b + P2P_PORT_OFFSET],
    [b + P2P_PORT_OFFSET, b + 2 * P2P_PORT_OFFSET],
  ]).sort((x, y) => x[0]! - y[0]!);
  for (let i = 1; i < ranges.length; i++)
    assert.ok(ranges[i]![0]! >= ranges[i - 1]![1]!, `ports ${ranges[i]![0]}… are in two bases' ranges`);
  assert.ok(ranges.at(-1)![1]! <= 32_768, 'every port below the ephemeral range');
});
