// The executor's own weight cap (docs/cost-model.md): a transaction that passed no admission (a
// proposer ignoring the cap) is still refused, nested multisig batches count against the same cap,
// and triggers stop when the block's weight is spent, staying due for the next block.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ADMIN,
  ALICE,
  amount,
  asset,
  BOB,
  type Chain,
  expectCode,
  ROSE,
  tx,
  world,
} from '../../test/fixtures/state/state-fixture.js';
import type { Instruction } from '../model/instructions.js';
import { instructionWeight, TRANSACTION_BASE_WEIGHT } from '../model/weights.js';
import { multisigAccountId } from '../modules/multisig/model.js';
import { instructionsHash } from '../modules/multisig/proposal-row.js';
import { trigger } from '../modules/triggers/reads.js';

const mint = (n = '1'): Instruction => ({ kind: 'MintAsset', asset: asset(ROSE, ALICE), amount: amount(n) });
const MINT_WEIGHT = instructionWeight(mint());
const setCap = (chain: Chain, kind: 'TransactionMaxWeight' | 'BlockMaxWeight', value: number) =>
  expectCode(chain, ADMIN, [{ kind: 'SetParameter', parameter: { kind, value } }], 'Committed');

describe('the executor meters weight', () => {
  it('refuses a transaction over TransactionMaxWeight with transaction_weight_exceeded, writing nothing', () => {
    const chain = world();
    setCap(chain, 'TransactionMaxWeight', 1_000);
    const fits = Math.floor((1_000 - TRANSACTION_BASE_WEIGHT) / MINT_WEIGHT);
    expectCode(chain, ADMIN, Array(fits).fill(mint()), 'Committed');
    const before = chain.state.asset(asset(ROSE, ALICE))?.value.mantissa;
    const { result } = chain.run(ADMIN, Array(fits + 1).fill(mint()));
    assert.equal(result.kind, 'Rejected');
    assert.equal(result.kind === 'Rejected' && result.reason.code, 'transaction_weight_exceeded');
    assert.equal(result.kind === 'Rejected' && result.reason.instructionIndex, fits);
    assert.equal(chain.state.asset(asset(ROSE, ALICE))?.value.mantissa, before);
  });

  it("counts a multisig proposal's batch when an approval executes it", () => {
    const chain = world();
    const ms = multisigAccountId('wonderland', 'w');
    const spec = {
      signatories: new Map([
        [ALICE, 1],
        [BOB, 1],
      ]),
      quorum: 2,
      transactionTtlMs: 100_000,
    };
    expectCode(
      chain,
      ADMIN,
      [
        { kind: 'RegisterMultisig', account: ms, seed: 'w', spec },
        {
          kind: 'GrantPermission',
          account: ms,
          permission: { name: 'CanMintAssetWithDefinition', payload: { asset_definition: ROSE } },
        },
      ],
      'Committed',
    );
    const batch = Array(40).fill(mint()) as Instruction[];
    expectCode(chain, ALICE, [{ kind: 'ProposeMultisig', multisig: ms, instructions: batch }], 'Committed');
    setCap(chain, 'TransactionMaxWeight', 1_000);
    const approve: Instruction = {
      kind: 'ApproveMultisig',
      multisig: ms,
      instructionsHash: instructionsHash(batch),
    };
    expectCode(chain, BOB, [approve], 'transaction_weight_exceeded');
    assert.equal(chain.state.asset(asset(ROSE, ALICE)), undefined, 'nothing was minted');
    setCap(chain, 'TransactionMaxWeight', 100_000);
    expectCode(chain, BOB, [approve], 'Committed');
    assert.equal(chain.state.asset(asset(ROSE, ALICE))?.value.mantissa, 4000n);
  });

  it('stops running due triggers when the block weight is spent; the rest stay due for the next block', () => {
    const chain = world();
    setCap(chain, 'TransactionMaxWeight', 1_000);
    setCap(chain, 'BlockMaxWeight', 1_250);
    const at = chain.height + 3;
    // Each run weighs base + 20 mints: two do not fit one block of 1,250.
    const reg = (id: string): Instruction => ({
      kind: 'RegisterTrigger',
      id,
      due: { kind: 'Height', height: at },
      instructions: Array(20).fill(mint()),
    });
    expectCode(chain, ADMIN, [reg('a')], 'Committed');
    expectCode(chain, ADMIN, [reg('b')], 'Committed');
    const ran: string[][] = [];
    while (chain.height < at + 1)
      ran.push(
        chain
          .block([tx(ADMIN, [{ kind: 'Log', level: { kind: 'Info' }, message: 'x' }], chain.height)])
          .triggers.map((t) => t.id),
      );
    assert.deepEqual(ran, [['a'], ['b']]);
    assert.equal(trigger(chain.state, 'a'), undefined);
    assert.equal(trigger(chain.state, 'b'), undefined);
    assert.equal(chain.state.asset(asset(ROSE, ALICE))?.value.mantissa, 4000n);
  });
});
