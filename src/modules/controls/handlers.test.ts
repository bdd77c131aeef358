import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { conferenceWorld, create, usage } from '../../../test/fixtures/state/conference-fixture.js';
import {
  ADMIN,
  ALICE,
  acc,
  amount,
  asset,
  BOB,
  CAROL,
  type Chain,
  expectCode,
  outcome,
  perm,
  ROSE,
  tx,
  world,
} from '../../../test/fixtures/state/state-fixture.js';
import type { Instruction } from '../../model/instructions.js';
import { BlockExecution } from '../../state/executor.js';
import { WorldState } from '../../state/world-state.js';
import type { ControlWindowKind } from './model.js';

const send = (from: string, to: string, a: string) =>
  ({ kind: 'TransferAsset', source: asset(ROSE, from), destination: to, amount: amount(a) }) as const;
const mint = (to: string, a: string) =>
  ({ kind: 'MintAsset', asset: asset(ROSE, to), amount: amount(a) }) as const;
const burn = (from: string, a: string) =>
  ({ kind: 'BurnAsset', asset: asset(ROSE, from), amount: amount(a) }) as const;
const freeze = (account: string | undefined, frozen = true): Instruction => ({
  kind: 'SetTransferFreeze',
  definition: ROSE,
  frozen,
  ...(account === undefined ? {} : { account }),
});
const blacklist = (account: string | undefined, blacklisted = true): Instruction => ({
  kind: 'SetTransferBlacklist',
  definition: ROSE,
  blacklisted,
  ...(account === undefined ? {} : { account }),
});
const entry = (list: 'Allow' | 'Deny', account: string, listed = true): Instruction => ({
  kind: 'SetTransferListEntry',
  definition: ROSE,
  list: { kind: list },
  account,
  listed,
});
const cap = (account: string | undefined, window: ControlWindowKind, a?: string): Instruction => ({
  kind: 'SetTransferCap',
  definition: ROSE,
  window: { kind: window },
  ...(account === undefined ? {} : { account }),
  ...(a === undefined ? {} : { cap: amount(a) }),
});

/** world() with 100 ROSE for ALICE and BOB. */
function funded(): Chain {
  const chain = world();
  expectCode(chain, ADMIN, [mint(ALICE, '100'), mint(BOB, '100')], 'Committed');
  return chain;
}

/** One transaction in its own block at `blockTimeMs`: its outcome. */
function at(chain: Chain, blockTimeMs: number, authority: string, instructions: Instruction[]): string {
  chain.height++;
  const exec = new BlockExecution(chain.state, {
    height: chain.height,
    blockTimeMs,
    chainId: 'test-chain',
    genesis: false,
  });
  const out = exec.apply(tx(authority, instructions, chain.height), new Uint8Array(32).fill(chain.height));
  exec.commit();
  return outcome(out.result);
}

describe('transfer control instructions', () => {
  it('belong to the definition owner, Admin, or CanManageTransferControls; check entities first', () => {
    const chain = funded();
    expectCode(chain, ALICE, [freeze(BOB)], 'permission_denied');
    expectCode(
      chain,
      ADMIN,
      [{ ...freeze(BOB), definition: 'nope#wonderland' } as Instruction],
      'asset_definition_not_found',
    );
    expectCode(chain, ADMIN, [freeze(acc(9))], 'account_not_found');
    const grant = perm('CanManageTransferControls', { asset_definition: ROSE });
    expectCode(chain, ADMIN, [{ kind: 'GrantPermission', account: ALICE, permission: grant }], 'Committed');
    const events = expectCode(chain, ALICE, [freeze(BOB)], 'Committed');
    assert.deepEqual(events, [{ kind: 'ControlFreezeSet', definition: ROSE, account: BOB, frozen: true }]);
    assert.equal(chain.state.tables.assetControl.get(asset(ROSE, BOB))?.outgoingFrozen, true);
    // Back to all clear: the row is gone.
    expectCode(chain, ALICE, [freeze(BOB, false)], 'Committed');
    assert.equal(chain.state.tables.assetControl.get(asset(ROSE, BOB)), undefined);
    expectCode(chain, ADMIN, [cap(BOB, 'Day', '0')], 'invalid_amount');
    expectCode(chain, ADMIN, [cap(BOB, 'Day', '0.001')], 'invalid_amount');
  });
});

describe('enforcement', () => {
  it('freeze: the account cannot send or burn, but receives; definition-wide freezes every sender', () => {
    const chain = funded();
    expectCode(chain, ADMIN, [freeze(ALICE)], 'Committed');
    expectCode(chain, ALICE, [send(ALICE, BOB, '1')], 'transfer_frozen');
    expectCode(chain, ALICE, [burn(ALICE, '1')], 'transfer_frozen');
    expectCode(chain, BOB, [send(BOB, ALICE, '1')], 'Committed');
    expectCode(chain, ADMIN, [mint(ALICE, '1')], 'Committed');
    expectCode(chain, ADMIN, [freeze(ALICE, false), freeze(undefined)], 'Committed');
    expectCode(chain, ALICE, [send(ALICE, BOB, '1')], 'transfer_frozen');
    expectCode(chain, BOB, [send(BOB, ALICE, '1')], 'transfer_frozen');
    expectCode(chain, ADMIN, [freeze(undefined, false)], 'Committed');
    expectCode(chain, ALICE, [send(ALICE, BOB, '1')], 'Committed');
    assert.equal(chain.state.tables.definitionControl.get(ROSE), undefined);
  });

  it('blacklist: the account can neither send nor receive (transfer, mint, burn); cleared, it can', () => {
    const chain = funded();
    expectCode(chain, ADMIN, [blacklist(BOB)], 'Committed');
    expectCode(chain, BOB, [send(BOB, ALICE, '1')], 'account_blacklisted');
    expectCode(chain, ALICE, [send(ALICE, BOB, '1')], 'account_blacklisted');
    expectCode(chain, ADMIN, [mint(BOB, '1')], 'account_blacklisted');
    expectCode(chain, BOB, [burn(BOB, '1')], 'account_blacklisted');
    expectCode(chain, ALICE, [send(ALICE, CAROL, '1')], 'Committed');
    expectCode(chain, ADMIN, [blacklist(BOB, false)], 'Committed');
    expectCode(chain, ALICE, [send(ALICE, BOB, '1')], 'Committed');
    expectCode(chain, ADMIN, [blacklist(undefined)], 'Committed');
    expectCode(chain, ADMIN, [mint(CAROL, '1')], 'account_blacklisted');
  });

  it('deny list refuses the listed account on both sides; an allow list admits only its accounts', () => {
    const chain = funded();
    expectCode(chain, ADMIN, [entry('Deny', CAROL)], 'Committed');
    expectCode(chain, ALICE, [send(ALICE, CAROL, '1')], 'on_deny_list');
    expectCode(chain, ADMIN, [mint(CAROL, '1')], 'on_deny_list');
    expectCode(chain, ADMIN, [entry('Deny', CAROL, false), entry('Allow', ALICE)], 'Committed');
    expectCode(chain, ALICE, [send(ALICE, BOB, '1')], 'not_on_allow_list');
    expectCode(chain, BOB, [send(BOB, ALICE, '1')], 'not_on_allow_list');
    expectCode(chain, ADMIN, [entry('Allow', BOB)], 'Committed');
    expectCode(chain, ALICE, [send(ALICE, BOB, '1')], 'Committed');
    expectCode(chain, ALICE, [send(ALICE, CAROL, '1')], 'not_on_allow_list');
    assert.deepEqual(chain.state.tables.definitionControl.get(ROSE)?.allowList, [ALICE, BOB].sort());
  });

  it('caps: per transaction, and per day of block time for the account and for every holder', () => {
    const chain = funded();
    const day = 86_400_000;
    const t0 = 20_000 * day + 3_600_000; // 01:00 UTC
    assert.equal(at(chain, t0, ADMIN, [cap(ALICE, 'Tx', '10'), cap(undefined, 'Day', '15')]), 'Committed');
    assert.equal(at(chain, t0, ALICE, [send(ALICE, BOB, '10.01')]), 'transfer_cap_exceeded');
    assert.equal(at(chain, t0, ALICE, [send(ALICE, BOB, '10')]), 'Committed');
    // Several instructions of one transaction count together.
    assert.equal(
      at(chain, t0, ALICE, [send(ALICE, BOB, '3'), send(ALICE, BOB, '3')]),
      'transfer_cap_exceeded',
    );
    assert.equal(at(chain, t0 + 1000, ALICE, [send(ALICE, BOB, '5')]), 'Committed');
    assert.equal(at(chain, t0 + day - 3_600_001, ALICE, [send(ALICE, BOB, '0.01')]), 'transfer_cap_exceeded');
    // BOB has his own usage of the definition-wide cap.
    assert.equal(at(chain, t0, BOB, [send(BOB, ALICE, '15')]), 'Committed');
    // 00:00 UTC the next day: a new bucket replaces the old usage row.
    assert.equal(at(chain, t0 + day - 3_600_000, ALICE, [send(ALICE, BOB, '10')]), 'Committed');
    const row = chain.state.tables.assetControl.get(asset(ROSE, ALICE))!;
    assert.deepEqual(row.usages, [
      { window: { kind: 'Day' }, bucketStartMs: BigInt(20_001 * day), spent: { mantissa: 1000n, scale: 2 } },
    ]);
    // Removing the caps: the usage goes at the next debit, then the row itself.
    assert.equal(at(chain, t0 + day, ADMIN, [cap(ALICE, 'Tx'), cap(undefined, 'Day')]), 'Committed');
    assert.equal(at(chain, t0 + day, ALICE, [send(ALICE, BOB, '50')]), 'Committed');
    assert.equal(chain.state.tables.assetControl.get(asset(ROSE, ALICE)), undefined);
  });

  it('caps: weeks start on Monday, months on the 1st (UTC calendar)', () => {
    const chain = funded();
    const sunday = Date.UTC(2026, 10, 29, 23, 0); // Sunday 29 November 2026, 23:00
    assert.equal(at(chain, sunday, ADMIN, [cap(ALICE, 'Week', '5'), cap(BOB, 'Month', '5')]), 'Committed');
    assert.equal(at(chain, sunday, ALICE, [send(ALICE, CAROL, '5')]), 'Committed');
    assert.equal(at(chain, sunday + 3_599_999, ALICE, [send(ALICE, CAROL, '1')]), 'transfer_cap_exceeded');
    assert.equal(at(chain, sunday + 3_600_000, ALICE, [send(ALICE, CAROL, '5')]), 'Committed');
    const nov30 = Date.UTC(2026, 10, 30, 12, 0);
    assert.equal(at(chain, nov30, BOB, [send(BOB, CAROL, '5')]), 'Committed');
    assert.equal(at(chain, Date.UTC(2026, 11, 1) - 1, BOB, [burn(BOB, '1')]), 'transfer_cap_exceeded');
    assert.equal(at(chain, Date.UTC(2026, 11, 1), BOB, [burn(BOB, '5')]), 'Committed');
  });

  it('conference billing cannot bypass the rules (it moves value through the same function)', () => {
    const chain = conferenceWorld();
    expectCode(chain, BOB, [create(BOB)], 'Committed');
    chain.timeMs = 1_000 * chain.height + 600_000; // usage is bounded by the time the call has existed
    expectCode(chain, ADMIN, [freeze(BOB)], 'Committed');
    const r = chain.run(CAROL, [usage(1, 60_000n, '6')]);
    assert.equal(outcome(r.result), 'transfer_frozen');
    expectCode(chain, ADMIN, [freeze(BOB, false), cap(BOB, 'Tx', '5')], 'Committed');
    assert.equal(outcome(chain.run(CAROL, [usage(1, 60_000n, '6')]).result), 'transfer_cap_exceeded');
  });

  it('goes with the account or the definition when unregistered; a reload keeps every row', () => {
    const chain = funded();
    expectCode(chain, ADMIN, [blacklist(CAROL), cap(CAROL, 'Day', '1'), entry('Deny', BOB)], 'Committed');
    const copy = WorldState.fromEntries(chain.state.entries());
    assert.deepEqual(copy.stateRoot(), chain.state.stateRoot());
    assert.equal(copy.tables.assetControl.get(asset(ROSE, CAROL))?.blacklisted, true);
    expectCode(chain, ADMIN, [{ kind: 'UnregisterAccount', id: CAROL }], 'Committed');
    assert.equal(chain.state.tables.assetControl.get(asset(ROSE, CAROL)), undefined);
  });
});
