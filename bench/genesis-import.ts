// The CPU and wall cost of a bulk genesis import per account (docs/operations.md "Importing a large
// genesis state"): the `state_1m_*` figures' state file (lib/scale-state.ts: N accounts holding one asset
// each) written to a scratch directory, then imported by `importGenesisFile` (what `torana genesis import`
// runs) with fsync off, as the figures build it. Prints one JSON line: CPU ms (user + system) and wall ms
// per account of the import alone, the load average before and after, the peak RSS and the disk size.
// Usage: node --conditions=torana-source --import tsx bench/genesis-import.ts <accounts> [scratch dir]

import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { importGenesisFile } from '../src/node/genesis-import.js';
import { scaleGenesisLines } from './lib/scale-state.js';

const accounts = Number(process.argv[2] ?? '100000');
if (!Number.isSafeInteger(accounts) || accounts < 1) {
  process.stderr.write('usage: genesis-import.ts <accounts> [scratch dir]\n');
  process.exit(2);
}
const root = await mkdtemp(join(process.argv[3] ?? tmpdir(), 'torana-import-bench-'));

async function diskBytes(path: string): Promise<number> {
  const s = await stat(path);
  if (!s.isDirectory()) return s.blocks * 512;
  let sum = 0;
  for (const name of await readdir(path)) sum += await diskBytes(join(path, name));
  return sum;
}

try {
  const file = join(root, 'state.ndjson');
  const out = createWriteStream(file);
  for (const line of scaleGenesisLines(accounts)) if (!out.write(`${line}\n`)) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
  const load0 = loadavg();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const report = await importGenesisFile(root, file, {
    authority: `ed0120${'AB'.repeat(32)}@genesis`,
    fsync: false,
  });
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  process.stdout.write(
    `${JSON.stringify({
      accounts,
      rows: report.rows,
      cpu_ms_per_account: Number((cpuMs / accounts).toFixed(4)),
      user_ms: Math.round(cpu.user / 1000),
      sys_ms: Math.round(cpu.system / 1000),
      wall_ms_per_account: Number((wall / accounts).toFixed(4)),
      wall_s: Number((wall / 1000).toFixed(1)),
      load_before: load0.map((x) => Number(x.toFixed(2))),
      load_after: loadavg().map((x) => Number(x.toFixed(2))),
      peak_rss_mib: Math.round(process.resourceUsage().maxRSS / 1024),
      disk_mib: Math.round((await diskBytes(join(root, 'data'))) / 2 ** 20),
      state_root: report.stateRoot,
    })}\n`,
  );
} finally {
  await rm(root, { recursive: true, force: true });
}
