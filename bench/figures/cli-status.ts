// Figure `cli_status_ms` (`torana --help` once took ~0.75 s against ~0.1 s for a bare
// `node -e ''`). Spawns the compiled CLI as a user runs it (`node bin/torana.js`, so `npm run build`
// first) for `--help`, `keys generate` and `status` (against a node running in its own process),
// interleaved round by round with a bare `node -e ''`, and compares medians. The figure is the
// median of `status`; the goal, 3 × bare + 60 ms, must hold for all three commands.

import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startHttpNode } from '../lib/http-node.js';
import { median } from '../lib/timing.js';
import type { Figure, FigureResult } from '../lib/types.js';

const BIN = fileURLToPath(new URL('../../bin/torana.js', import.meta.url));
const GOAL_FACTOR = 3;
const GOAL_EXTRA_MS = 60;

function timeRun(args: string[]): Promise<number> {
  const t0 = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  return new Promise((resolve, reject) =>
    child.on('close', (code) =>
      code === 0
        ? resolve(performance.now() - t0)
        : reject(new Error(`${args.join(' ')}: exit ${code} ${err}`)),
    ),
  );
}

export const cliStatusFigure: Figure = {
  id: 'cli_status_ms',
  async run(ctx): Promise<FigureResult> {
    const rounds = ctx.quick ? 7 : 25;
    const node = await startHttpNode({});
    const dir = await mkdtemp(join(tmpdir(), 'torana-bench-cli-'));
    const commands: Record<string, string[]> = {
      help: [BIN, '--help'],
      keys_generate: [BIN, 'keys', 'generate', '--json', '--dir', dir],
      status: [BIN, 'status', '--json', '--dir', dir, '--url', node.url],
    };
    const times: Record<string, number[]> = { bare: [], help: [], keys_generate: [], status: [] };
    try {
      for (const args of Object.values(commands)) await timeRun(args); // warm the file cache
      for (let r = 0; r < rounds; r++) {
        times.bare!.push(await timeRun(['-e', '']));
        for (const [name, args] of Object.entries(commands)) times[name]!.push(await timeRun(args));
      }
    } finally {
      await node.stop();
      await rm(dir, { recursive: true, force: true });
    }
    const m = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)])) as Record<
      string,
      number
    >;
    const goalMs = GOAL_FACTOR * m.bare! + GOAL_EXTRA_MS;
    const met = m.help! <= goalMs && m.keys_generate! <= goalMs && m.status! <= goalMs;
    ctx.log(
      `medians over ${rounds} rounds: ${Object.entries(m)
        .map(([k, v]) => `${k} ${v.toFixed(0)} ms`)
        .join(', ')}`,
    );
    return {
      id: 'cli_status_ms',
      value: m.status!,
      unit: 'ms',
      baseline: "bare `node -e ''` (same run, interleaved)",
      baseline_value: m.bare!,
      ratio: m.status! / m.bare!,
      goal: `help, keys generate and status each <= ${GOAL_FACTOR} x bare + ${GOAL_EXTRA_MS} ms (${goalMs.toFixed(0)} ms here)`,
      met,
      note: `medians of ${rounds} interleaved process runs of the compiled CLI (bin/torana.js); status against a node in its own process`,
      extra: {
        help_ms: Math.round(m.help!),
        keys_generate_ms: Math.round(m.keys_generate!),
        status_ms: Math.round(m.status!),
        bare_node_ms: Math.round(m.bare!),
        goal_ms: Math.round(goalMs),
      },
    };
  },
};
