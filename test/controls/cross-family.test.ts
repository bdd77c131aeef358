// Transfer controls cannot be bypassed by the instructions that move value on their own (rules
// hold for multisig execution and subscription charges; docs/controls.md). A served
// node: a frozen multisig account's approved payment is recorded as the proposal's failure with the
// rule's code and moves nothing; a blacklisted subscriber's charge is a failed invoice naming the rule,
// and once the rule is cleared the provider's charge pays. Each check has its allowed counterpart.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Instruction } from '../../src/model/instructions.js';
import { numeric } from '../../src/model/numeric.js';
import { multisigAccountId, proposalRowId } from '../../src/modules/multisig/model.js';
import { instructionsHash } from '../../src/modules/multisig/proposal-row.js';
import { CONTROLS_DOMAIN, type ControlsFixture, controlsFixture, USD } from '../helpers/controls-fixture.js';

const DAY = 86_400_000;
const VAULT = multisigAccountId(CONTROLS_DOMAIN, 'vault');

describe('transfer controls hold inside multisig execution and subscription charges', () => {
  let f: ControlsFixture;
  before(async () => {
    f = await controlsFixture();
  });
  after(async () => {
    await f.t.stopAll();
  });

  const vaultBalance = () => f.t.node.ledger.state.asset(`${USD}#${VAULT}`)?.value.mantissa ?? 0n;
  const proposal = (batch: Instruction[]) =>
    f.t.node.ledger.state.tables.multisigProposal.get(proposalRowId(VAULT, instructionsHash(batch)));

  /** alice proposes `batch` for the vault, bob approves: the approval's transaction result. */
  const proposeAndApprove = async (batch: Instruction[]) => {
    assert.equal(
      await f.tx(f.alice, [{ kind: 'ProposeMultisig', multisig: VAULT, instructions: batch }]),
      'Committed',
    );
    const hash = instructionsHash(batch);
    return f.tx(f.bob, [{ kind: 'ApproveMultisig', multisig: VAULT, instructionsHash: hash }]);
  };

  it('a frozen multisig account cannot pay through an approved proposal; unfrozen, it can', async () => {
    const spec = {
      signatories: new Map([
        [f.alice.id, 1],
        [f.bob.id, 1],
      ]),
      quorum: 2,
      transactionTtlMs: 3_600_000,
    };
    assert.equal(
      await f.tx(f.t.admin, [
        { kind: 'RegisterMultisig', account: VAULT, seed: 'vault', spec },
        { kind: 'MintAsset', asset: `${USD}#${VAULT}`, amount: numeric('100') },
        f.ins.freeze(VAULT),
      ]),
      'Committed',
    );
    const pay = [f.ins.transfer(VAULT, f.carol.id, '10')];
    assert.equal(await proposeAndApprove(pay), 'Committed');
    const refused = proposal(pay);
    assert.equal(refused?.result?.kind, 'Rejected');
    assert.equal(refused?.result?.kind === 'Rejected' ? refused.result.reason.code : '', 'transfer_frozen');
    assert.equal(vaultBalance(), 10_000n);
    assert.equal(f.balance(f.carol), 0n);

    assert.equal(await f.tx(f.t.admin, [f.ins.freeze(VAULT, false)]), 'Committed');
    const payAgain = [f.ins.transfer(VAULT, f.carol.id, '11')];
    assert.equal(await proposeAndApprove(payAgain), 'Committed');
    assert.deepEqual(proposal(payAgain)?.result, { kind: 'Committed' });
    assert.equal(vaultBalance(), 8_900n);
    assert.equal(f.balance(f.carol), 1_100n);
  });

  it('a blacklisted subscriber’s charge fails with the rule’s code; cleared, the charge pays', async () => {
    const plan: Instruction = {
      kind: 'RegisterSubscriptionPlan',
      id: 'news',
      billing: {
        cadence: { kind: 'FixedPeriod', periodMs: DAY },
        billFor: { kind: 'Current' },
        retryBackoffMs: 3_600_000,
        maxFailures: 3,
        graceMs: 0,
      },
      pricing: { kind: 'Fixed', amount: numeric('5'), assetDefinition: USD },
      trialMs: 0,
    };
    assert.equal(await f.tx(f.bob, [plan]), 'Committed');
    assert.equal(await f.tx(f.t.admin, [f.ins.blacklist(f.alice.id)]), 'Committed');
    const aliceBefore = f.balance(f.alice);
    const bobBefore = f.balance(f.bob);
    // Billed in advance: the subscribing block makes the first charge, which the rule refuses.
    assert.equal(await f.tx(f.alice, [{ kind: 'Subscribe', id: 'n1', plan: 'news' }]), 'Committed');
    const failed = f.t.node.ledger.state.tables.subscription.get('n1')?.latestInvoice;
    assert.equal(failed?.status.kind, 'Failed');
    assert.equal(failed?.status.kind === 'Failed' ? failed.status.reason : '', 'account_blacklisted');
    assert.equal(f.balance(f.alice), aliceBefore);
    assert.equal(f.balance(f.bob), bobBefore);

    assert.equal(await f.tx(f.t.admin, [f.ins.blacklist(f.alice.id, false)]), 'Committed');
    assert.equal(await f.tx(f.bob, [{ kind: 'ChargeSubscriptionNow', id: 'n1' }]), 'Committed');
    const paid = f.t.node.ledger.state.tables.subscription.get('n1')?.latestInvoice;
    assert.equal(paid?.status.kind, 'Paid');
    assert.equal(f.balance(f.alice), aliceBefore - 500n);
    assert.equal(f.balance(f.bob), bobBefore + 500n);
  });
});
