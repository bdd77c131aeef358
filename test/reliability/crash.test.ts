// Crash (long version, `npm run test:reliability`): kill -9 at random moments under load,
// 20 times on the same directory; after each restart nothing announced is missing, no block hash
// changed, balances are conserved and the state root equals a rebuild from blocks.
// Replay a failure with CRASH_SEED=<printed seed>.

import { describe, it } from 'node:test';
import { killRounds } from '../crash/scenarios.js';

const SEED = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000);
const ROUNDS = 20;

describe('node under kill -9 (long)', () => {
  it(`keeps every announced transaction and block hash across ${ROUNDS} random kills`, async () => {
    console.log(`[seed] ${SEED}`);
    // From almost at once (a kill inside the first blocks) to a few seconds into the stream.
    const figure = await killRounds({ rounds: ROUNDS, seed: SEED, killAfterMinMs: 20, killAfterMaxMs: 3000 });
    console.log(figure);
  });
});
