// The fail-point matrix over persistence steps (docs/design/testing.md; short version, in the integration tier):
// the node is crashed at one early hit of every named persistence step in turn; each time the restart must
// succeed, keep every announced transaction and give the state root of a rebuild from blocks. The long
// version (several hit counts per step) is test/reliability/failpoints.test.ts.

import { describe, it } from 'node:test';
import { failPointCase, PERSISTENCE_FAILPOINTS, recoveryTruncatedCase } from './scenarios.js';

const SEED = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000);
/**
 * Which hit crashes: past genesis (block 1) and the workload setup (block 2), so a few blocks of
 * transfers are announced and more are in flight when it fires. Segments roll over only every few
 * blocks (256 KiB each, harness.ts), and the first one is created at the first open, so the third
 * creation is already well into the stream.
 */
const NTH_DEFAULT = 6;
const NTH: Readonly<Record<string, number>> = { 'blocklog.segment-created': 3 };

describe('fail-point matrix (short: each step once)', () => {
  for (const name of PERSISTENCE_FAILPOINTS) {
    const nth = NTH[name] ?? NTH_DEFAULT;
    it(`recovers from a crash at ${name}:${nth}`, async () => {
      console.log(`[seed] ${SEED}`);
      console.log(await failPointCase({ name, nth, seed: SEED }));
    });
  }

  it('recovers from a crash right after truncating a torn tail', async () => {
    console.log(await recoveryTruncatedCase(SEED));
  });
});
