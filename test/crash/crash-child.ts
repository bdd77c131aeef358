// The process the crash tests kill (kill -9 during a stream of submissions). It opens an initialised node
// directory, starts the node with the fail points named in TORANA_FAILPOINT, registers the workload (once:
// a restarted child finds it in the state), then submits random transfers without pause. For every
// transaction the event bus announces as Committed or Rejected it prints
// `COMMITTED <txhash> <height> <blockhashhex>` with a synchronous write (see `say`), so a line the parent
// reads was announced (and hence made durable, docs/design/testing.md "Durability discipline" rule 2)
// before any kill could land. The parent checks after restart that every printed line still holds.
//
// Usage: node --import tsx test/crash/crash-child.ts <dir> <seed> [runMs]
// Lines: `READY <height>` once started, `COMMITTED ...` per announced transaction, `DONE` on a clean end.

import { loadKeyFile } from '../../src/crypto/keyfile.js';
import { accountId } from '../../src/model/ids.js';
import { nodeFiles } from '../../src/node/files.js';
import { GENESIS_DOMAIN } from '../../src/node/init.js';
import { loadNodeConfig } from '../../src/node/load-config.js';
import { Node } from '../../src/node/node.js';
import { failPointsFromEnv } from '../../src/util/failpoints.js';
import { toHex } from '../../src/util/hex.js';
import { submitAndWait } from '../helpers/node.js';
import { buildTx, frameTx } from '../helpers/tx.js';
import {
  randomTransfer,
  seededRandom,
  setupInstructions,
  WORKLOAD_DEFINITION,
  workloadAccounts,
} from './workload.js';

/** Transactions submitted but not yet announced; about two full blocks, so blocks fill up. */
const IN_FLIGHT_MAX = 1024;
/** Submissions started together (admission verifies them concurrently). */
const SUBMIT_CHUNK = 64;
/** Block hashes remembered for the announcement lines (only the newest blocks are ever needed). */
const BLOCK_HASHES_KEPT = 64;
/** A child nobody kills ends by itself after this, so a crashed parent never leaves it running. */
const RUN_MS_DEFAULT = 120_000;
/** How often a waiting loop re-checks its deadline even when no event arrives. */
const IDLE_CHECK_MS = 250;

// On Linux, writes to a pipe through process.stdout are synchronous (Node's documented behaviour for
// pipes), so a line has left the process when `say` returns; fs.writeSync(1) would fail with EAGAIN
// on the non-blocking pipe whenever the parent reads slowly.
function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

interface Progress {
  announced: number;
  wake: (() => void) | undefined;
}

/** Prints every final status; counts them so the submit loop knows how many are still in flight. */
function announce(node: Node, progress: Progress): void {
  const blockHashes = new Map<number, string>();
  node.pipeline.events.subscribe((env) => {
    const e = env.event;
    if (e.kind === 'Block' && e.status.kind === 'Committed') {
      blockHashes.set(e.height, toHex(e.hash));
      if (blockHashes.size > BLOCK_HASHES_KEPT) blockHashes.delete(blockHashes.keys().next().value!);
      return;
    }
    if (e.kind !== 'Transaction') return;
    const final = e.status.kind === 'Committed' || e.status.kind === 'Rejected';
    if (final && e.blockHeight !== undefined) {
      say(`COMMITTED ${toHex(e.hash)} ${e.blockHeight} ${blockHashes.get(e.blockHeight) ?? '?'}`);
    }
    if (final || e.status.kind === 'Expired') {
      progress.announced++;
      progress.wake?.();
    }
  });
}

async function ensureSetup(node: Node, dir: string): Promise<void> {
  if (node.ledger.state.assetDefinition(WORKLOAD_DEFINITION) !== undefined) return;
  const key = await loadKeyFile(nodeFiles(dir).adminKey);
  const admin = { key, id: accountId(key.publicKeyText(), GENESIS_DOMAIN) };
  const tx = buildTx(admin, setupInstructions(workloadAccounts()), { chainId: node.pipeline.chainId });
  const r = await submitAndWait(node, tx);
  if (r.status.kind !== 'Committed') throw new Error(`workload setup rejected: ${JSON.stringify(r.status)}`);
}

async function stream(node: Node, seed: number, deadlineMs: number, progress: Progress): Promise<void> {
  const accounts = workloadAccounts();
  const random = seededRandom(seed);
  const chainId = node.pipeline.chainId;
  const base = progress.announced;
  let accepted = 0;
  let nonce = 0;
  while (Date.now() < deadlineMs) {
    if (accepted - (progress.announced - base) >= IN_FLIGHT_MAX) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, IDLE_CHECK_MS);
        progress.wake = () => {
          if (accepted - (progress.announced - base) > IN_FLIGHT_MAX / 2) return;
          clearTimeout(timer);
          resolve();
        };
      });
      progress.wake = undefined;
      continue;
    }
    const chunk = [];
    for (let i = 0; i < SUBMIT_CHUNK; i++) {
      const t = randomTransfer(accounts, random);
      chunk.push(frameTx(buildTx(t.from, [t.instruction], { chainId, nonce: nonce++ })));
    }
    const results = await Promise.all(chunk.map((bytes) => node.pipeline.submit(bytes)));
    accepted += results.filter((r) => r.ok).length;
  }
}

async function main(): Promise<void> {
  const [dir, seedText, runMsText] = process.argv.slice(2);
  if (dir === undefined || seedText === undefined || !/^[0-9]+$/.test(seedText)) {
    process.stderr.write('usage: crash-child.ts <dir> <seed> [runMs]\n');
    process.exit(2);
  }
  const runMs = runMsText === undefined ? RUN_MS_DEFAULT : Number(runMsText);
  const config = await loadNodeConfig({ dir });
  const node = await Node.start({
    dir,
    config,
    failPoints: failPointsFromEnv(process.env),
    onFatal: (e) => {
      process.stderr.write(`FATAL ${String(e)}\n`);
      process.exit(70);
    },
  });
  say(`READY ${node.ledger.height()}`);
  const progress: Progress = { announced: 0, wake: undefined };
  announce(node, progress);
  await ensureSetup(node, dir);
  await stream(node, Number(seedText), Date.now() + runMs, progress);
  await node.stop();
  say('DONE');
}

await main();
