// The node of the `state_1m_*` figures, in its own process: opens a node directory built by
// scale-build-child.ts (a restart: a fresh process, cold JIT, the state read back from the store),
// serves the gateway, and answers one `GET /v1/domains?limit=5` itself; it prints
// `READY <Node.start ms> <first HTTP answer ms>` (both from just before `Node.start`), then
// `LISTENING <url>`, and `MEM <rss> <heap used> <RssAnon> <RssFile>` (bytes) on SIGUSR2, after a full GC
// when run with --expose-gc. On SIGHUP it runs one round of the commit load (scale-commit.ts: transfers
// between random accounts of the scale domain, signed by the admin before the clock starts, fed through
// `node.pipeline.submit`; the first signal registers the signing accounts first) and prints
// `COMMIT <committed> <rejected> <ms> <CPU µs> <major faults> <minor faults>` (of the timed part).
// Usage: node --expose-gc --import tsx bench/lib/scale-server.ts <dir> <config overrides as JSON> <accounts> <transfers per round>

import { readFile } from 'node:fs/promises';
import { loadNodeConfig } from '../../src/node/load-config.js';
import { Node } from '../../src/node/node.js';
import type { TestAccount } from '../../test/helpers/tx.js';
import { loadServe } from './gateway.js';
import { commitRound, registerSigners } from './scale-commit.js';
import { adminOf } from './transfers.js';

const [dir, overridesJson, accountsText, roundText] = process.argv.slice(2);
const accounts = Number(accountsText);
const perRound = Number(roundText);
if (
  dir === undefined ||
  overridesJson === undefined ||
  !Number.isSafeInteger(accounts) ||
  !Number.isSafeInteger(perRound)
) {
  process.stderr.write('usage: scale-server.ts <dir> <overrides.json> <accounts> <transfers per round>\n');
  process.exit(2);
}
// Listening before READY is printed: the bench may ask for the memory as soon as it reads it.
/** Resident memory by kind (anonymous: heap and buffers; file: mapped pages such as the LMDB map). */
async function rssParts(): Promise<{ anon: number; file: number }> {
  const status = await readFile('/proc/self/status', 'utf8').catch(() => '');
  const kib = (name: string) =>
    Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { anon: kib('RssAnon') * 1024, file: kib('RssFile') * 1024 };
}

process.on('SIGUSR2', () => {
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  void rssParts().then((p) => process.stdout.write(`MEM ${m.rss} ${m.heapUsed} ${p.anon} ${p.file}\n`));
});
const serveNode = await loadServe(); // module loading is not restart work
const config = await loadNodeConfig({ dir, overrides: JSON.parse(overridesJson) });
const t0 = performance.now();
const node = await Node.start({ dir, config });
const started = performance.now();
const served = await serveNode(node);
const res = await fetch(`${served.url}/v1/domains?limit=5`);
await res.arrayBuffer();
if (res.status !== 200) throw new Error(`first read answered ${res.status}`);
const ready = performance.now();
// One commit round at a time (the bench waits for each COMMIT line before the next signal); listening
// for the signal before LISTENING is printed, as the bench may send it as soon as it reads that line.
const admin = await adminOf(dir);
let rounds = 0;
let signers: Promise<TestAccount[]> | undefined;
process.on('SIGHUP', () => {
  signers ??= registerSigners(node, admin);
  void signers
    .then((s) => commitRound(node, s, accounts, perRound, rounds++))
    .then((r) =>
      process.stdout.write(
        `COMMIT ${r.committed} ${r.rejected} ${r.ms.toFixed(1)} ${r.cpuUs} ${r.majorFaults} ${r.minorFaults}\n`,
      ),
    );
});
process.stdout.write(`READY ${(started - t0).toFixed(1)} ${(ready - t0).toFixed(1)}\n`);
process.stdout.write(`LISTENING ${served.url}\n`);

process.once('SIGTERM', () => {
  void served
    .close()
    .then(() => node.stop())
    .then(() => process.exit(0));
});
