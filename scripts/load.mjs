#!/usr/bin/env node
// Runs a command while N busy processes (node busy loops) compete for the cores, so that "the tests pass
// on a loaded machine" is one command:
//   node scripts/load.mjs 8 npm test
//   node scripts/load.mjs 8 -- node scripts/test.mjs --only test/gateway/
// The busy processes start before the command and are stopped when it ends (or when this script is
// interrupted); the exit code is the command's. The load average is printed before and after; the
// command finds the busy processes' ids in LOAD_BUSY_PIDS (space-separated).
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';

const BUSY_LOOP = 'for (;;) {}';

export function parseArgs(argv) {
  const [n, ...rest] = argv;
  const count = Number(n);
  const command = rest[0] === '--' ? rest.slice(1) : rest;
  if (!Number.isInteger(count) || count < 0 || command.length === 0) return undefined;
  return { count, command };
}

function load() {
  return loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
}

async function main() {
  const parsed = parseArgs(process.argv.slice(2));
  if (parsed === undefined) {
    console.error('usage: node scripts/load.mjs N [--] COMMAND [ARGS…]');
    process.exit(2);
  }
  const { count, command } = parsed;
  const busy = Array.from({ length: count }, () =>
    spawn(process.execPath, ['-e', BUSY_LOOP], { stdio: 'ignore' }),
  );
  const stopBusy = () => {
    for (const b of busy) if (b.exitCode === null && b.signalCode === null) b.kill('SIGKILL');
  };
  process.on('exit', stopBusy);
  console.error(
    `[load] ${count} busy processes (pids ${busy.map((b) => b.pid).join(' ')}); load average ${load()}`,
  );
  const started = performance.now();
  const child = spawn(command[0], command.slice(1), {
    stdio: 'inherit',
    env: { ...process.env, LOAD_BUSY_PIDS: busy.map((b) => b.pid).join(' ') },
  });
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      child.kill(signal);
    });
  }
  const code = await new Promise((resolve) => {
    child.on('error', (e) => {
      console.error(`[load] ${command[0]}: ${e.message}`);
      resolve(127);
    });
    child.on('close', (c, signal) => resolve(c ?? (signal === null ? 1 : 128)));
  });
  const exited = busy.map((b) =>
    b.exitCode === null && b.signalCode === null ? new Promise((r) => b.on('exit', r)) : undefined,
  );
  stopBusy();
  await Promise.all(exited);
  const s = ((performance.now() - started) / 1000).toFixed(1);
  console.error(
    `[load] ${command.join(' ')}: exit ${code} after ${s} s under ${count} busy processes; load average ${load()}`,
  );
  process.exit(code);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
