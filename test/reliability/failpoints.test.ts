// The fail-point matrix over persistence steps (docs/design/testing.md; long version,
// `npm run test:reliability`): every named persistence step is crashed at several hit counts, from the
// genesis write to well into the transfer stream. Each time the restart must keep everything announced and match a
// rebuild from blocks, and a second child must then keep committing on the recovered directory.

import { describe, it } from 'node:test';
import { failPointCase, PERSISTENCE_FAILPOINTS, recoveryTruncatedCase } from '../crash/scenarios.js';

const SEED = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000);
/** Hit counts per step: 1 is the genesis block (or the first open for segment creation). */
const HITS_DEFAULT = [1, 2, 4, 9, 17];
/** Segments roll over only every few blocks (256 KiB, see crash/harness.ts). */
const HITS: Readonly<Record<string, number[]>> = { 'blocklog.segment-created': [1, 2, 3, 5] };
/** How long the second child commits on the recovered directory before it is killed too. */
const CONTINUE_MS = 400;

describe('fail-point matrix (long: several hits per step)', () => {
  for (const name of PERSISTENCE_FAILPOINTS) {
    for (const nth of HITS[name] ?? HITS_DEFAULT) {
      it(`recovers from ${name}:${nth} and keeps committing`, async () => {
        console.log(`[seed] ${SEED}`);
        console.log(await failPointCase({ name, nth, seed: SEED + nth, continueMs: CONTINUE_MS }));
      });
    }
  }

  for (const offset of [0, 1, 2]) {
    it(`recovers from a crash right after truncating a torn tail (seed +${offset})`, async () => {
      console.log(await recoveryTruncatedCase(SEED + offset));
    });
  }
});
