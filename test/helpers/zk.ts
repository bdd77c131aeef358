// Test-only: the zero-knowledge parameters (development keys, pool account, entry fee) as
// SetParameter instructions, for chains built by the state fixtures.
import type { Instruction } from '../../src/model/instructions.js';
import { zkParameterInstructions } from '../../src/node/zk-dev-genesis.js';

export function devZkParameters(opts: { pool: string; fee: string }): Instruction[] {
  return zkParameterInstructions(opts.pool, opts.fee);
}
