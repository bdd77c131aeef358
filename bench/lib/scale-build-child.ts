// Child process of the `state_1m_*` figures: builds a node directory whose state holds N accounts with
// one asset each (scale-state.ts) the way an operator would load a large state: `torana init`'s setup,
// the accounts written as a genesis state file (NDJSON) and imported before the first start
// (node/genesis-import.ts, `torana genesis import`), then the node started once so block 1 (the genesis
// transaction) executes on top and is committed. `storage.fsync = false` while building, like chain.ts;
// a process of its own so the bench process never holds the built state, and so the build's peak RSS is
// its own. Prints one JSON line.
// Usage: node --import tsx bench/lib/scale-build-child.ts <dir> <accounts>

import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { importGenesisFile } from '../../src/node/genesis-import.js';
import { initNodeDir } from '../../src/node/init.js';
import { loadNodeConfig } from '../../src/node/load-config.js';
import { Node } from '../../src/node/node.js';
import { BENCH_CHAIN_ID } from './chain.js';
import { scaleGenesisLines } from './scale-state.js';
import { adminOf } from './transfers.js';

const [dir, countText] = process.argv.slice(2);
const accounts = Number(countText);
if (dir === undefined || !Number.isSafeInteger(accounts) || accounts < 1) {
  process.stderr.write('usage: scale-build-child.ts <dir> <accounts>\n');
  process.exit(2);
}

/** Bytes allocated on disk under `path` (LMDB's map file is sparse: its length is not its size). */
async function diskBytes(path: string): Promise<number> {
  const s = await stat(path);
  if (!s.isDirectory()) return s.blocks * 512;
  let sum = 0;
  for (const name of await readdir(path)) sum += await diskBytes(join(path, name));
  return sum;
}

const t0 = performance.now();
await initNodeDir({
  dir,
  overrides: { 'gateway.port': 0, 'node.chain_id': BENCH_CHAIN_ID, 'storage.fsync': false },
});
const admin = await adminOf(dir);
const file = join(dir, 'scale-genesis.ndjson');
const out = createWriteStream(file);
for (const line of scaleGenesisLines(accounts)) if (!out.write(`${line}\n`)) await once(out, 'drain');
out.end();
await once(out, 'finish');
const fileBytes = (await stat(file)).size;
const t1 = performance.now();
const cpu1 = process.cpuUsage();
const imported = await importGenesisFile(dir, file, { authority: admin.id, fsync: false });
const t2 = performance.now();
const importCpu = process.cpuUsage(cpu1);
await rm(file);
const config = await loadNodeConfig({ dir });
const node = await Node.start({ dir, config });
await node.ledger.flushState();
const t3 = performance.now();
const report = {
  scale_accounts: accounts,
  accounts: node.ledger.state.accountCount(),
  transactions: 1,
  height: node.ledger.height(),
  build_ms: t3 - t0,
  file_ms: t1 - t0,
  import_ms: t2 - t1,
  import_cpu_ms_per_account: (importCpu.user + importCpu.system) / 1000 / accounts,
  first_start_ms: t3 - t2,
  file_bytes: fileBytes,
  rows: imported.rows,
  tree_writes: imported.treeWrites,
  // CPU seconds of this process (user + system): what the build costs whatever else runs on the machine.
  cpu_s: (process.cpuUsage().user + process.cpuUsage().system) / 1e6,
  // Peak resident set of this process over the whole build (KiB from getrusage).
  peak_rss_mib: process.resourceUsage().maxRSS / 1024,
};
await node.stop();
process.stdout.write(`${JSON.stringify({ ...report, disk_bytes: await diskBytes(join(dir, 'data')) })}\n`);
