// The machine a run measured (cores, Node version), printed with the results.

import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';

export interface Machine {
  cores: number;
  cpu_model: string;
  node: string;
  platform: string;
  arch: string;
  memory_bytes: number;
  /** 1-minute load average when the run started: other work on a shared machine skews every figure. */
  load_average_1m: number;
}

export function describeMachine(): Machine {
  return {
    cores: availableParallelism(),
    cpu_model: cpus()[0]?.model.trim() ?? 'unknown',
    node: process.version,
    platform: process.platform,
    arch: process.arch,
    memory_bytes: totalmem(),
    load_average_1m: loadavg()[0] ?? 0,
  };
}

export function machineLine(m: Machine): string {
  return `machine: ${m.cores} cores, ${m.cpu_model}, Node ${m.node}, ${m.platform}/${m.arch}, ${(m.memory_bytes / 2 ** 30).toFixed(1)} GiB, load ${m.load_average_1m.toFixed(2)} at start`;
}
