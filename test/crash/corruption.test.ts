// Torn tail and mid-log corruption at node level (docs/design/testing.md "Durability discipline" rule 3:
// torn tail truncated; mid-log corruption detected and reported, never silently dropped). A real child run
// fills the block log; then the files are damaged by hand and the node is started the way `torana start`
// does. Record layout: src/storage/README.md "Block log format".

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { appendFile, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { nodeFiles } from '../../src/node/files.js';
import { loadNodeConfig } from '../../src/node/load-config.js';
import { Node } from '../../src/node/node.js';
import { BLOCKS_DIR, listSegments } from '../../src/storage/segment-files.js';
import { AnnouncedHistory, assertRecovered, checkRecovery, figureLine } from './check.js';
import { makeNodeDir, runCrashChild } from './harness.js';
import { seededRandom } from './workload.js';

const SEED = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000);
/** Streaming time of the child that fills the log before the damage. */
const FILL_RUN_MS = 800;
const FILL_RUNS_MAX = 5;
/** Announced blocks wanted before the damage: block 2 must have valid records after it. */
const FILL_BLOCKS_MIN = 4;
/** Record header (magic, length, checksum) and the fixed part of the payload (height, hash, prevHash). */
const RECORD_HEADER_BYTES = 12;
const PAYLOAD_FIXED_BYTES = 72;

async function segments(dir: string) {
  return listSegments(join(nodeFiles(dir).data, BLOCKS_DIR));
}

async function startNode(dir: string): Promise<Node> {
  const config = await loadNodeConfig({ dir, overrides: { 'verify.threads': 0 } });
  return Node.start({ dir, config });
}

function sha(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

describe('block log damage seen by a starting node', () => {
  let dir: string;
  const history = new AnnouncedHistory();

  before(async () => {
    console.log(`[seed] ${SEED}`);
    dir = await makeNodeDir();
    // A loaded machine may commit few blocks in one short run; a clean run continues the same chain.
    for (let run = 0; run < FILL_RUNS_MAX && history.blocks.size < FILL_BLOCKS_MIN; run++) {
      const r = await runCrashChild(dir, { seed: SEED + run, runMs: FILL_RUN_MS });
      assert.equal(r.code, 0, `fill run failed: ${r.stderr}`);
      history.add(r);
    }
    assert.ok(history.blocks.size >= FILL_BLOCKS_MIN, 'the fill runs committed too few blocks');
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('truncates garbage and a torn record at the tail, keeping every announced block', async () => {
    const last = (await segments(dir)).at(-1)!;
    const size = (await stat(last.path)).size;
    const random = seededRandom(SEED);
    const garbage = Uint8Array.from({ length: 97 }, () => Math.floor(random() * 256));
    await appendFile(last.path, garbage);
    const first = await checkRecovery(dir, history);
    assertRecovered(first, history, `seed ${SEED} garbage tail`);
    assert.equal(first.truncatedTailBytes, garbage.length);
    assert.equal((await stat(last.path)).size, size);

    // A torn write: the start of a real record (valid magic and length) with its end missing.
    const head = (await readFile(last.path)).subarray(0, RECORD_HEADER_BYTES + PAYLOAD_FIXED_BYTES + 40);
    await appendFile(last.path, head);
    const second = await checkRecovery(dir, history);
    assertRecovered(second, history, `seed ${SEED} torn record`);
    assert.equal(second.truncatedTailBytes, head.length);
    assert.equal((await stat(last.path)).size, size);

    const clean = await startNode(dir);
    assert.equal(clean.openReport.truncatedTailBytes, 0);
    await clean.stop();
    console.log(
      figureLine('torn tail', {
        kills: 0,
        history,
        lost: second.lost.length + second.changedBlocks.length,
        blocks: second.blocksChecked,
        extra: `truncated_bytes=${first.truncatedTailBytes}+${second.truncatedTailBytes}`,
      }),
    );
  });

  it('refuses to start on a flipped byte in an early block and leaves the file unchanged', async () => {
    const first = (await segments(dir))[0]!;
    const original = await readFile(first.path);
    // Block 1 starts at offset 0; block 2 right after it. Flip a byte inside block 2's block bytes,
    // so valid records follow the damage: that is corruption, never a torn tail.
    const block2 = RECORD_HEADER_BYTES + original.readUInt32LE(4);
    const at = block2 + RECORD_HEADER_BYTES + PAYLOAD_FIXED_BYTES + 10;
    assert.ok(at < original.length, 'block 2 is not in the first segment');
    const damaged = Buffer.from(original);
    damaged[at] = damaged[at]! ^ 0x20;
    await writeFile(first.path, damaged);
    for (let attempt = 0; attempt < 2; attempt++) {
      await assert.rejects(startNode(dir), (e: unknown) => {
        const err = e as { code?: string; height?: number; message?: string };
        assert.equal(err.code, 'storage_corruption', String(err.message));
        assert.equal(err.height, 2);
        return true;
      });
      assert.equal(sha(await readFile(first.path)), sha(damaged), 'a corrupt log was modified');
    }
    console.log(`[figure] mid-log corruption: detected=2/2 file_unchanged=true height_reported=2`);
    // Put the byte back: the node starts again with everything announced.
    await writeFile(first.path, original);
    assertRecovered(await checkRecovery(dir, history), history, `seed ${SEED} after repair`);
  });
});
