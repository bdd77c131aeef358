// The phases of the soak test (test/reliability/soak.test.ts): start the node process, measure the peak,
// run paced with a sample every few seconds, then drain and account for every accepted transaction.

import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { CommitTracker, Sender, statusesOf } from './soak-load.js';
import { mibOf, percentile } from './soak-stats.js';
import { soakAccounts, soakTransfer } from './soak-workload.js';

export interface Sample {
  atS: number;
  rss: number;
  rssAnon: number;
  heapUsed: number;
  external: number;
  p50: number;
  p99: number;
  committed: number;
}

export interface SoakRig {
  child: ChildProcess;
  url: string;
  tracker: CommitTracker;
  sender: Sender;
  close(): Promise<void>;
}

/** Forks the node process and connects the load generator and the commit tracker to it. */
export async function startRig(connections: number): Promise<SoakRig> {
  const child = fork(fileURLToPath(new URL('./soak-node.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const [ready] = (await once(child, 'message')) as [{ url: string; chainId: string }];
  const tracker = new CommitTracker(ready.url);
  const accounts = soakAccounts();
  const sender = new Sender(ready.url, connections, tracker, (n) => soakTransfer(accounts, ready.chainId, n));
  await tracker.start();
  return {
    child,
    url: ready.url,
    tracker,
    sender,
    async close() {
      tracker.stop();
      await sender.close();
      child.send({ type: 'stop' });
      await Promise.race([once(child, 'exit'), sleep(10_000)]);
      child.kill();
    },
  };
}

function ask(child: ChildProcess, type: string): Promise<Record<string, number>> {
  return new Promise((resolve) => {
    const on = (m: Record<string, number> & { type: string }) => {
      if (m.type !== type) return;
      child.off('message', on);
      resolve(m);
    };
    child.on('message', on);
    child.send({ type });
  });
}

export const committedOf = (t: CommitTracker) => t.finals.get('Committed') ?? 0;

export async function drain(tracker: CommitTracker, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (tracker.pending.size > 0 && Date.now() < deadline) await sleep(50);
}

/** Committed transactions per second while `lanes` closed-loop senders run for `seconds`. */
export async function measurePeak(rig: SoakRig, lanes: number, seconds: number): Promise<number> {
  const c0 = committedOf(rig.tracker);
  const started = Date.now();
  await rig.sender.closedLoop(lanes, started + seconds * 1000);
  return (committedOf(rig.tracker) - c0) / ((Date.now() - started) / 1000);
}

/** Sends at `rate` for `seconds`, sampling memory and latency every `sampleS`; samples and skipped sends. */
export async function pacedWithSamples(
  rig: SoakRig,
  rate: number,
  seconds: number,
  sampleS: number,
  inFlightMax: number,
): Promise<{ samples: Sample[]; skipped: number }> {
  const samples: Sample[] = [];
  const started = performance.now();
  rig.tracker.setPhase(started, seconds * 1000);
  rig.tracker.takeWindow();
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      await sleep(sampleS * 1000);
      if (!sampling) break;
      const m = await ask(rig.child, 'sample');
      const w = rig.tracker.takeWindow();
      const s: Sample = {
        atS: (performance.now() - started) / 1000,
        rss: m.rss!,
        rssAnon: m.rssAnon!,
        heapUsed: m.heapUsed!,
        external: m.external!,
        p50: percentile(w, 50),
        p99: percentile(w, 99),
        committed: w.length,
      };
      samples.push(s);
      console.log(
        `[sample] t=${s.atS.toFixed(0)} s rss ${mibOf(s.rss)} MiB anon ${mibOf(s.rssAnon)} MiB heap ${mibOf(s.heapUsed)} MiB ` +
          `external ${mibOf(s.external)} MiB; ${s.committed} committed, p50 ${s.p50.toFixed(0)} ms p99 ${s.p99.toFixed(0)} ms; ` +
          `height ${m.height}, queue ${m.queueDepth}`,
      );
    }
  })();
  const skipped = await rig.sender.paced(rate, Date.now() + seconds * 1000, inFlightMax);
  sampling = false;
  await sampler;
  return { samples, skipped };
}

/** After draining: accepted transactions the stream never reported, and those of them not Committed. */
export async function unaccounted(
  rig: SoakRig,
  drainMs: number,
): Promise<{ unreported: number; lost: string[] }> {
  await drain(rig.tracker, drainMs);
  // A commit the stream did not report (it should not happen) is looked up before it is called lost.
  const statuses = await statusesOf(rig.url, rig.tracker.pending.keys());
  const lost = [...statuses]
    .filter(([, status]) => status !== 'Committed')
    .map(([h, status]) => `${h} ${status}`);
  return { unreported: statuses.size, lost };
}
