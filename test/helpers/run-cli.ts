// Spawns the CLI from source as a user would run `torana`, and collects its exit code and output.

import { type ChildProcess, spawn } from 'node:child_process';
import { ROOT, tsEntryArgs } from './ts-entry.js';

export { ROOT };

export function spawnCli(args: string[]): ChildProcess {
  return spawn(process.execPath, [...tsEntryArgs('test/helpers/torana-cli.ts'), ...args], { cwd: ROOT });
}

export function cli(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawnCli(args);
    let out = '';
    let err = '';
    child.stdout?.on('data', (d) => (out += d));
    child.stderr?.on('data', (d) => (err += d));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}
