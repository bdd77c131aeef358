// Child process for the crash tests (block-log-crash.test.ts, state-store-crash.test.ts). It writes
// in a loop and prints a line only after each write resolved, i.e. after the storage layer declared
// it durable; the parent kills it with SIGKILL (or TORANA_FAILPOINT does) and then checks that every
// printed line survived. Usage: node --import tsx crash-child.ts <blocklog|state> <dir> [maxHeight]

import { failPointsFromEnv } from '../util/failpoints.js';
import { toHex } from '../util/hex.js';
import { BlockLog } from './block-log.js';
import { CHILD_SEGMENT_BYTES_MAX, makeChain, stateChangesFor, stateHashFor } from './chain-fixture.js';
import { StateStore } from './state-store.js';

function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

async function runBlockLog(dir: string, maxHeight: number): Promise<void> {
  const failPoints = failPointsFromEnv(process.env);
  const { log, report } = await BlockLog.open(dir, { segmentBytesMax: CHILD_SEGMENT_BYTES_MAX, failPoints });
  say(`open ${report.height} ${report.truncatedTailBytes}`);
  let tip = log.tipHash ?? new Uint8Array(32);
  while (log.height < maxHeight) {
    // Batches of 1 to 4 records exercise group commit.
    const batch = makeChain(log.height, tip, Math.min(1 + (log.height % 4), maxHeight - log.height));
    await log.append(batch);
    for (const r of batch) say(`ok ${r.height} ${toHex(r.hash)}`);
    tip = batch.at(-1)!.hash;
  }
  await log.close();
}

async function runState(dir: string, maxHeight: number): Promise<void> {
  const store = await StateStore.open(dir, { failPoints: failPointsFromEnv(process.env) });
  say(`open ${store.appliedHeight()} 0`);
  while (store.appliedHeight() < maxHeight) {
    const height = store.appliedHeight() + 1;
    await store.commit(height, stateHashFor(height), stateChangesFor(height));
    say(`ok ${height} ${toHex(stateHashFor(height))}`);
  }
  await store.close();
}

const [mode, dir, max] = process.argv.slice(2);
const maxHeight = max === undefined ? Number.MAX_SAFE_INTEGER : Number(max);
if (dir === undefined || (mode !== 'blocklog' && mode !== 'state')) {
  process.stderr.write('usage: crash-child.ts <blocklog|state> <dir> [maxHeight]\n');
  process.exit(2);
}
await (mode === 'blocklog' ? runBlockLog(dir, maxHeight) : runState(dir, maxHeight));
