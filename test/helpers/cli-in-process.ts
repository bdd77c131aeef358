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
  const capture =
    (append: (s: string) => void) =>
    (chunk: unknown, ...rest: unknown[]): boolean => {
      append(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
      const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      done?.();
      return true;
    };
  process.stdout.write = capture((s) => (out += s)) as typeof process.stdout.write;
  process.stderr.write = capture((s) => (err += s)) as typeof process.stderr.write;
  try {
    const code = await main(['node', 'torana', ...args]);
    return { code, out, err };
  } finally {
    process.stdout.write = writeOut;
    process.stderr.write = writeErr;
    process.exitCode = undefined;
  }
}
