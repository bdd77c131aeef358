// Crash (short version, inside `npm test`): kill -9 during a stream
// of submissions, restart on the same directory, and nothing announced is lost or changed.
// The long version (20 kills) is test/reliability/crash.test.ts.

import { describe, it } from 'node:test';
import { killRounds } from './scenarios.js';

/** Printed, so a failing run can be replayed with CRASH_SEED=<seed>. */
const SEED = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000);

describe('node under kill -9 (short)', () => {
  it('keeps every announced transaction and block hash across 3 random kills', async () => {
    console.log(`[seed] ${SEED}`);
    const figure = await killRounds({ rounds: 3, seed: SEED, killAfterMinMs: 150, killAfterMaxMs: 900 });
    console.log(figure);
  });
});
