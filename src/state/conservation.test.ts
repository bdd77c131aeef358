// Conservation (property test): random mint / burn / transfer sequences over a few accounts never make a
// balance negative, the balances of a definition always sum to its total, and the executor agrees with a
// ten-line reference model about which transactions commit. Fixed seed and run count.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  ADMIN,
  ALICE,
  asset,
  BOB,
  CAROL,
  type Chain,
  outcome,
  ROSE,
  tx,
  world,
} from '../../test/fixtures/state/state-fixture.js';
import type { Instruction } from '../model/instructions.js';

const ACCOUNTS = [ADMIN, ALICE, BOB, CAROL];
const SEED = 20240611;

type Op =
  | { kind: 'mint'; to: number; cents: bigint }
  | { kind: 'burn'; from: number; cents: bigint }
  | { kind: 'send'; from: number; to: number; cents: bigint };

const cents = fc.bigInt({ min: 0n, max: 5_000n });
const who = fc.integer({ min: 0, max: ACCOUNTS.length - 1 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('mint' as const), to: who, cents }),
  fc.record({ kind: fc.constant('burn' as const), from: who, cents }),
  fc.record({ kind: fc.constant('send' as const), from: who, to: who, cents }),
);

const amountOf = (c: bigint) => ({ mantissa: c, scale: 2 });

function instruction(o: Op): Instruction {
  if (o.kind === 'mint')
    return { kind: 'MintAsset', asset: asset(ROSE, ACCOUNTS[o.to]!), amount: amountOf(o.cents) };
  if (o.kind === 'burn')
    return { kind: 'BurnAsset', asset: asset(ROSE, ACCOUNTS[o.from]!), amount: amountOf(o.cents) };
  return {
    kind: 'TransferAsset',
    source: asset(ROSE, ACCOUNTS[o.from]!),
    destination: ACCOUNTS[o.to]!,
    amount: amountOf(o.cents),
  };
}

/** The reference model: applies a transaction's ops to a copy; undefined when any op must be rejected. */
function model(balances: readonly bigint[], ops: readonly Op[]): bigint[] | undefined {
  const b = [...balances];
  for (const o of ops) {
    if (o.cents === 0n) return undefined;
    if (o.kind === 'mint') b[o.to]! += o.cents;
    else if (o.kind === 'burn') {
      if (b[o.from]! < o.cents) return undefined;
      b[o.from]! -= o.cents;
    } else {
      if (o.from === o.to || b[o.from]! < o.cents) return undefined;
      b[o.from]! -= o.cents;
      b[o.to]! += o.cents;
    }
  }
  return b;
}

function checkInvariants(chain: Chain, expected: readonly bigint[]): void {
  const holdings = chain.state.holdersOfDefinition(ROSE);
  let sum = 0n;
  for (const h of holdings) {
    assert.ok(h.value.mantissa > 0n, `${h.id} has a non-positive balance`);
    sum += h.value.mantissa;
  }
  assert.equal(sum, chain.state.assetDefinition(ROSE)!.totalQuantity.mantissa);
  ACCOUNTS.forEach((a, i) => {
    assert.equal(chain.state.asset(asset(ROSE, a))?.value.mantissa ?? 0n, expected[i]);
  });
}

describe('conservation', () => {
  it('holds for random mint / burn / transfer blocks (seeded)', () => {
    const txs = fc.array(fc.array(op, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 6 });
    const blocks = fc.array(txs, { minLength: 1, maxLength: 5 });
    fc.assert(
      fc.property(blocks, (bs) => {
        const chain = world();
        let balances = ACCOUNTS.map(() => 0n);
        for (const block of bs) {
          const out = chain.block(block.map((ops, i) => tx(ADMIN, ops.map(instruction), i)));
          block.forEach((ops, i) => {
            const next = model(balances, ops);
            assert.equal(
              outcome(out.results[i]!) === 'Committed',
              next !== undefined,
              JSON.stringify(out.results[i]),
            );
            if (next !== undefined) balances = next;
          });
          checkInvariants(chain, balances);
        }
      }),
      { seed: SEED, numRuns: 60 },
    );
  });
});
