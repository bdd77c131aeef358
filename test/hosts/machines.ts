// The machines of the hosts test, as scripts/test-hosts.mjs made them (HOSTS_TEST_PLAN): one network
// namespace each, with its own address; a home directory per machine under the run's work directory;
// the CLI run on a machine with `ip netns exec`, as its operator would run it there.

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../helpers/run-cli.js';
import { tsEntryArgs } from '../helpers/ts-entry.js';

export interface Machine {
  name: string;
  /** Its network namespace. */
  ns: string;
  /** Its address: every port it opens is on it. */
  ip: string;
  /** Its files (what the operator of that machine has), under the work directory. */
  home: string;
  /** The node directory (`--dir`), in `home`. */
  dir: string;
  /** Its gateway URL. */
  url: string;
  /** Its p2p address. */
  p2p: string;
}

export interface Plan {
  workDir: string;
  /** The namespace holding the bridge (the switch): its ports are named after the machines. */
  switchNs: string;
  machines: Machine[];
}

export const GATEWAY_PORT = 8080;
export const P2P_PORT = 9200;

export function readPlan(): Plan {
  const text = process.env['HOSTS_TEST_PLAN'];
  if (text === undefined)
    throw new Error('HOSTS_TEST_PLAN is not set: run this test with `npm run test:hosts` (as root)');
  const raw = JSON.parse(text) as { workDir: string; switchNs: string; machines: Omit<Machine, 'home'>[] };
  return {
    workDir: raw.workDir,
    switchNs: raw.switchNs,
    machines: raw.machines.map((m) => {
      const home = join(raw.workDir, m.name);
      return {
        ...m,
        home,
        dir: join(home, 'node'),
        url: `http://${m.ip}:${GATEWAY_PORT}`,
        p2p: `${m.ip}:${P2P_PORT}`,
      };
    }),
  };
}

export interface Run {
  code: number | null;
  out: string;
  err: string;
}

/** Runs `cmd args` inside namespace `ns`. */
export function runIn(ns: string, cmd: string, args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn('ip', ['netns', 'exec', ns, cmd, ...args], { cwd: ROOT });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

/** `torana args` on machine `m` (the CLI from source, as test/helpers/run-cli.ts runs it). */
export function toranaOn(m: Machine, args: string[]): Promise<Run> {
  return runIn(m.ns, process.execPath, [...tsEntryArgs('test/helpers/torana-cli.ts'), ...args]);
}

/** As toranaOn, throwing with the output unless it exits 0; the parsed JSON when `--json` is given. */
export async function toranaOk<T = string>(m: Machine, args: string[]): Promise<T> {
  const r = await toranaOn(m, args);
  if (r.code !== 0)
    throw new Error(`torana ${args.join(' ')} on ${m.name} exited ${r.code}:\n${r.out}${r.err}`);
  return (args.includes('--json') ? JSON.parse(r.out) : r.out) as T;
}
