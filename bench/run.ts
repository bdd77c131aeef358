// `npm run bench`: runs every figure (or `--only <id>[,<id>…]`), prints the
// machine and a table of figure, value, baseline measured in the same run, ratio, goal and whether it
// was met, and writes `bench/results/<timestamp>.json` and `bench/results/latest.json` as
// `{machine, started_at, mode, figures: [...]}`. `--quick` shortens every measurement. A figure whose feature is missing is reported with `value: null`, never invented.

import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { batchCommittedFigure } from './figures/batch-committed.js';
import { bft4CommittedFigure } from './figures/bft4-committed.js';
import { bft4LatencyFigure } from './figures/bft4-latency.js';
import { bft4VerifyLimitFigure } from './figures/bft4-verify-limit.js';
import { bft4ViewChangeFigure } from './figures/bft4-view-change.js';
import { bft7CommittedFigure } from './figures/bft7-committed.js';
import { blockExecAtCapFigure } from './figures/block-exec-at-cap.js';
import { cliStatusFigure } from './figures/cli-status.js';
import { codecFigure } from './figures/codec.js';
import { committedFigure } from './figures/committed.js';
import { conferencePrivateJoinFigure } from './figures/conference-private-join.js';
import { conferenceZkVerifyFigure } from './figures/conference-zk-verify.js';
import { exportNatsFigure } from './figures/export-nats.js';
import { fanoutBytesFigure } from './figures/fanout-bytes.js';
import { fanoutP99Figure } from './figures/fanout-p99.js';
import { indexerBlocksFigure, indexerRowsFigure, indexLagFigure } from './figures/indexer.js';
import { isoPacs008Figure } from './figures/iso-pacs008.js';
import { joinBySnapshotFigure } from './figures/join-by-snapshot.js';
import { latencyFigure } from './figures/latency.js';
import { readFigure, readNodeHttpFigure } from './figures/read.js';
import { replayFigure } from './figures/replay.js';
import { restartFigure } from './figures/restart.js';
import { state1mQueryFigure } from './figures/state-1m-query.js';
import { state1mReadFigure } from './figures/state-1m-read.js';
import { state1mRestartFigure } from './figures/state-1m-restart.js';
import { state1mRssFigure } from './figures/state-1m-rss.js';
import { stateCommitFigure } from './figures/state-commit.js';
import { proofBytesFigure, proofVerifyFigure } from './figures/state-proofs.js';
import { webhookDeliveriesFigure } from './figures/webhook-deliveries.js';
import { Fixtures } from './lib/fixtures.js';
import { describeMachine, machineLine } from './lib/machine.js';
import { formatTable } from './lib/table.js';
import { FIGURE_IDS, type Figure, type FigureId, type FigureResult } from './lib/types.js';

/** In the order of the goals table (ids in lib/types.ts). */
const FIGURES: readonly Figure[] = [
  committedFigure,
  latencyFigure,
  readFigure,
  readNodeHttpFigure,
  fanoutP99Figure,
  fanoutBytesFigure,
  codecFigure,
  restartFigure,
  replayFigure,
  isoPacs008Figure,
  cliStatusFigure,
  bft4CommittedFigure,
  bft4LatencyFigure,
  bft4ViewChangeFigure,
  bft4VerifyLimitFigure,
  bft7CommittedFigure,
  conferenceZkVerifyFigure,
  conferencePrivateJoinFigure,
  batchCommittedFigure,
  state1mRssFigure,
  state1mRestartFigure,
  state1mReadFigure,
  state1mQueryFigure,
  stateCommitFigure,
  webhookDeliveriesFigure,
  blockExecAtCapFigure,
  exportNatsFigure,
  indexerBlocksFigure,
  indexerRowsFigure,
  indexLagFigure,
  proofBytesFigure,
  proofVerifyFigure,
  joinBySnapshotFigure,
];

const RESULTS_DIR = fileURLToPath(new URL('./results/', import.meta.url));

/** `--only` takes one figure id or several, comma-separated (`--only a,b`); every id must exist. */
function parseCli(): { quick: boolean; only: FigureId[] | undefined } {
  const { values } = parseArgs({
    options: { quick: { type: 'boolean', default: false }, only: { type: 'string' } },
  });
  const only = values.only?.split(',').map((id) => id.trim());
  for (const id of only ?? []) {
    if (!(FIGURE_IDS as readonly string[]).includes(id))
      throw new Error(`--only: unknown figure "${id}"; one of ${FIGURE_IDS.join(', ')}`);
  }
  return { quick: values.quick ?? false, only: only as FigureId[] | undefined };
}

async function runFigure(figure: Figure, fixtures: Fixtures, quick: boolean): Promise<FigureResult> {
  const log = (m: string) => process.stderr.write(`[${figure.id}] ${m}\n`);
  const t0 = performance.now();
  try {
    const r = await figure.run({ quick, log, fixtures });
    log(`done in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    return r;
  } catch (e) {
    log(`FAILED: ${(e as Error).stack ?? String(e)}`);
    return {
      id: figure.id,
      value: null,
      unit: '',
      baseline: null,
      baseline_value: null,
      ratio: null,
      goal: '',
      met: false,
      note: `failed: ${(e as Error).message}`,
    };
  }
}

async function main(): Promise<number> {
  const { quick, only } = parseCli();
  const machine = describeMachine();
  const startedAt = new Date().toISOString();
  process.stdout.write(`${machineLine(machine)}\nmode: ${quick ? 'quick' : 'full'}; started ${startedAt}\n`);
  const fixtures = new Fixtures(quick, (m) => process.stderr.write(`[fixtures] ${m}\n`));
  const figures: FigureResult[] = [];
  try {
    for (const figure of FIGURES) {
      if (only !== undefined && !only.includes(figure.id)) continue;
      figures.push(await runFigure(figure, fixtures, quick));
    }
  } finally {
    await fixtures.dispose();
  }
  process.stdout.write(`\n${formatTable(figures)}\n`);
  const loadAtEnd = loadavg()[0] ?? 0;
  process.stdout.write(`load average at the end: ${loadAtEnd.toFixed(2)}\n`);
  const doc = {
    machine: { ...machine, load_average_1m_end: loadAtEnd },
    started_at: startedAt,
    mode: quick ? 'quick' : 'full',
    figures,
  };
  const text = `${JSON.stringify(doc, null, 2)}\n`;
  await mkdir(RESULTS_DIR, { recursive: true });
  const file = `${RESULTS_DIR}${startedAt.replace(/[:.]/g, '-')}.json`;
  await writeFile(file, text);
  await writeFile(`${RESULTS_DIR}latest.json`, text);
  process.stdout.write(`\nwritten ${file} and bench/results/latest.json\n`);
  return figures.some((f) => f.note?.startsWith('failed:')) ? 1 : 0;
}

process.exitCode = await main();
