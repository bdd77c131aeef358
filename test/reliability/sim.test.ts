// The simulator's long run: SIM_SEEDS seeds (default 100,000; even seeds n = 4, odd n = 7) split over two
// child processes (one per core), each running src/sim/cli.ts. Prints simulated seconds, messages and
// faults; every failing seed is printed with its failure (replay: npm run sim -- --seed N --n 4|7).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';

const SEEDS = Number(process.env.SIM_SEEDS ?? 100_000);
const FROM = Number(process.env.SIM_FROM ?? 1_000_000);
const root = new URL('../..', import.meta.url).pathname;

interface Summary {
  seeds: number;
  failing: number[];
  simulatedSeconds: number;
  messages: number;
  events: number;
  faults: Record<string, number>;
}

function worker(from: number, count: number): Promise<Summary> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        '--conditions=torana-source',
        '--import',
        'tsx',
        'src/sim/cli.ts',
        '--seeds',
        `${count}`,
        '--from',
        `${from}`,
      ],
      { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      const s = d.toString();
      out += s;
      for (const line of s.split('\n'))
        if (line.includes('FAILED') || line.endsWith('s')) console.log(`[sim ${from}] ${line}`);
    });
    child.on('error', reject);
    child.on('close', () => {
      const line = out.split('\n').find((l) => l.startsWith('SUMMARY '));
      if (line === undefined) reject(new Error(`worker ${from} printed no summary`));
      else resolve(JSON.parse(line.slice('SUMMARY '.length)) as Summary);
    });
  });
}

test(`simulator: ${SEEDS} seeds`, async () => {
  const t0 = performance.now();
  const half = Math.floor(SEEDS / 2);
  const parts = await Promise.all([worker(FROM, half), worker(FROM + half, SEEDS - half)]);
  const faults: Record<string, number> = {};
  for (const p of parts) for (const [k, v] of Object.entries(p.faults)) faults[k] = (faults[k] ?? 0) + v;
  const failing = parts.flatMap((p) => p.failing);
  const simulated = parts.reduce((n, p) => n + p.simulatedSeconds, 0);
  const messages = parts.reduce((n, p) => n + p.messages, 0);
  console.log(
    `[figure] seeds=${SEEDS} wall_s=${((performance.now() - t0) / 1000).toFixed(0)} simulated_s=${simulated.toFixed(0)} messages=${messages} faults=${JSON.stringify(faults)}`,
  );
  console.log(`[seed] from=${FROM} failing=${JSON.stringify(failing)}`);
  assert.equal(
    parts.reduce((n, p) => n + p.seeds, 0),
    SEEDS,
  );
  assert.deepEqual(failing, []);
});
