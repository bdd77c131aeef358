import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ALICE, asset, BOB, ROSE } from '../../test/fixtures/state/state-fixture.js';
import { map, struct } from '../codec/compound.js';
import { decode, encode } from '../codec/frame.js';
import { DEFAULT_DECODE_LIMITS } from '../codec/limits.js';
import { jsonValue, varuint } from '../codec/primitives.js';
import type { Instruction } from './instructions.js';
import { Name } from './names.js';
import { defaultParameters, ParametersRowCodec } from './parameters.js';
import { POOL_TREE_DEPTH } from './shielded.js';
import {
  accountShare,
  instructionWeight,
  ownWeight,
  POSEIDON_LEVEL_WEIGHT,
  TRANSACTION_BASE_WEIGHT,
  transactionsShare,
  transactionWeight,
  WEIGHTS,
} from './weights.js';

const mint: Instruction = {
  kind: 'MintAsset',
  asset: asset(ROSE, ALICE),
  amount: { mantissa: 1n, scale: 0 },
};

describe('instruction weights', () => {
  it('ShieldAsset pays one Poseidon level per level of the pool tree', () => {
    const w = instructionWeight({
      kind: 'ShieldAsset',
      amount: { mantissa: 1n, scale: 6 },
      ownerHash: '0x01',
    });
    assert.equal(w, WEIGHTS.ShieldAsset.base + POSEIDON_LEVEL_WEIGHT * POOL_TREE_DEPTH);
  });

  it('a trigger registration and a proposal weigh their nested instructions', () => {
    const nested = Array(64).fill(mint) as Instruction[];
    const trigger: Instruction = {
      kind: 'RegisterTrigger',
      id: 't',
      due: { kind: 'Height', height: 9 },
      instructions: nested,
    };
    assert.ok(ownWeight(trigger) >= 64 * instructionWeight(mint) + WEIGHTS.RegisterTrigger.base);
    const propose: Instruction = { kind: 'ProposeMultisig', multisig: BOB, instructions: nested };
    // Its batch runs as nested instructions, each charged as it runs: the own weight leaves it out.
    assert.ok(ownWeight(propose) < 64 * instructionWeight(mint));
    assert.ok(instructionWeight(propose) >= ownWeight(propose) + 64 * instructionWeight(mint));
  });

  it('a transaction weighs its base and its instructions; sized kinds grow with their bytes', () => {
    assert.equal(transactionWeight([mint, mint]), TRANSACTION_BASE_WEIGHT + 2 * instructionWeight(mint));
    const log = (n: number): Instruction => ({
      kind: 'Log',
      level: { kind: 'Info' },
      message: 'x'.repeat(n),
    });
    assert.ok(instructionWeight(log(4000)) > instructionWeight(log(10)));
  });

  it('shares: transactions take four fifths of a block, one account a fifth (at least one at the cap)', () => {
    assert.equal(transactionsShare(250_000), 200_000);
    assert.equal(accountShare(250_000, 100_000), 100_000);
    assert.equal(accountShare(1_000_000, 100_000), 200_000);
  });
});

describe('the persisted parameters row', () => {
  const legacy = struct('LegacyParameters', {
    blockMaxTransactions: varuint,
    blockTimeMs: varuint,
    commitTimeMs: varuint,
    maxClockDriftMs: varuint,
    transactionMaxInstructions: varuint,
    transactionMaxBytes: varuint,
    custom: map(Name, jsonValue(16 * 1024)),
  });

  it('a row written before the weight caps loads with the default caps and re-encodes to the same bytes', () => {
    const { transactionMaxWeight: _t, blockMaxWeight: _b, ...old } = defaultParameters();
    const bytes = encode(legacy, old);
    const r = decode(ParametersRowCodec, bytes, DEFAULT_DECODE_LIMITS);
    assert.ok(r.ok);
    assert.deepEqual(r.value, defaultParameters());
    assert.deepEqual(encode(ParametersRowCodec, r.value), bytes);
  });

  it('changed caps are written after the old fields and read back', () => {
    const p = { ...defaultParameters(), transactionMaxWeight: 5_000, blockMaxWeight: 7_000 };
    const bytes = encode(ParametersRowCodec, p);
    const r = decode(ParametersRowCodec, bytes, DEFAULT_DECODE_LIMITS);
    assert.ok(r.ok);
    assert.deepEqual(r.value, p);
    const { transactionMaxWeight: _t, blockMaxWeight: _b, ...old } = p;
    assert.equal(bytes.length, encode(legacy, old).length + 2 + 2);
  });
});
