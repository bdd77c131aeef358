// Runs the `torana` command line in this process (main.ts, as bin/torana.js runs it but without a child
// process): its exit code and what it wrote to stdout and stderr. Commands run one at a time.

import { main } from '../../src/cli/main.js';

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

export async function runCli(args: string[]): Promise<CliRun> {
  const [writeOut, writeErr] = [process.stdout.write, process.stderr.write];
  let out = '';
  let err = '';
  // The CLI writes text; the test runner's own reports, which may be flushed while a command runs,
  // are bytes and pass through.
  const capture =
    (append: (s: string) => void, original: typeof process.stdout.write) =>
    (chunk: unknown, ...rest: unknown[]): boolean => {
      if (typeof chunk !== 'string') return (original as (...a: unknown[]) => boolean)(chunk, ...rest);
      append(chunk);
      const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      done?.();
      return true;
    };
  // main() answers the exit code a command left in process.exitCode; a failed test before this command
  // leaves node:test's own there, which is not this command's: cleared for the command, restored after.
  const before = process.exitCode;
  process.exitCode = undefined;
  process.stdout.write = capture((s) => (out += s), writeOut.bind(process.stdout)) as typeof writeOut;
  process.stderr.write = capture((s) => (err += s), writeErr.bind(process.stderr)) as typeof writeErr;
  try {
    const code = await main(['node', 'torana', ...args]);
    return { code, out, err };
  } finally {
    process.stdout.write = writeOut;
    process.stderr.write = writeErr;
    process.exitCode = before;
  }
}
