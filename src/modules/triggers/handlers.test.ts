import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ADMIN,
  ALICE,
  amount,
  asset,
  BOB,
  expectCode,
  ROSE,
  world,
} from '../../../test/fixtures/state/state-fixture.js';
import type { Instruction } from '../../model/instructions.js';
import type { InstructionOf } from '../../state/exec-context.js';
import { WorldState } from '../../state/world-state.js';
import { TRIGGERS_PER_BLOCK_PARAMETER } from './model.js';
import { nextTriggerDue, trigger } from './reads.js';

const log = (message: string): Instruction => ({ kind: 'Log', level: { kind: 'Info' }, message });
const pay = (n: string): Instruction => ({
  kind: 'TransferAsset',
  source: asset(ROSE, ALICE),
  destination: BOB,
  amount: amount(n),
});
type Reg = InstructionOf<'RegisterTrigger'>;
const reg = (id: string, due: Reg['due'], rest: Partial<Reg> = {}): Instruction => ({
  kind: 'RegisterTrigger',
  id,
  due,
  instructions: [log(id)],
  ...rest,
});

function kinds(events: { kind: string }[]): string[] {
  return events.map((e) => e.kind);
}

describe('time triggers (executor)', () => {
  it('a height trigger fires once at its height, as its authority, then is gone', () => {
    const chain = world();
    expectCode(
      chain,
      ALICE,
      [{ kind: 'MintAsset', asset: asset(ROSE, ALICE), amount: amount('10') }],
      'permission_denied',
    );
    expectCode(
      chain,
      ADMIN,
      [{ kind: 'MintAsset', asset: asset(ROSE, ALICE), amount: amount('10') }],
      'Committed',
    );
    const at = chain.height + 3;
    expectCode(
      chain,
      ALICE,
      [reg('pay-bob', { kind: 'Height', height: at }, { instructions: [pay('1.50')] })],
      'Committed',
    );
    assert.deepEqual(nextTriggerDue(chain.state), { height: at });
    while (chain.height < at - 1) assert.deepEqual(chain.block([]).triggers, []);
    const out = chain.block([]);
    assert.equal(out.triggers.length, 1);
    assert.deepEqual(kinds(out.triggers[0]!.events), ['AssetRemoved', 'AssetAdded', 'TriggerExecuted']);
    assert.equal(chain.state.asset(asset(ROSE, BOB))?.value.mantissa, 150n);
    assert.equal(trigger(chain.state, 'pay-bob'), undefined);
    assert.deepEqual(nextTriggerDue(chain.state), {});
    assert.deepEqual(chain.block([]).triggers, []);
  });

  it('a failing run rolls back its instructions, reports the reason, and a repeating trigger goes on', () => {
    const chain = world();
    chain.timeMs = 100_000;
    const due = { kind: 'Time' as const, timeMs: 105_000 };
    expectCode(
      chain,
      ALICE,
      [reg('r', due, { repeat: { kind: 'EveryMs', ms: 10_000 }, instructions: [log('x'), pay('1')] })],
      'Committed',
    );
    chain.timeMs = 105_000;
    const out = chain.block([]);
    assert.deepEqual(kinds(out.triggers[0]!.events), ['TriggerFailed']);
    const failed = out.triggers[0]!.events[0]!;
    assert.ok(failed.kind === 'TriggerFailed' && failed.reason.code === 'insufficient_funds');
    assert.equal(failed.reason.instructionIndex, 1);
    assert.deepEqual(trigger(chain.state, 'r')?.due, { kind: 'Time', timeMs: 115_000 });
    // An idle stretch: the missed slots are skipped, not run in a burst.
    chain.timeMs = 141_000;
    assert.equal(chain.block([]).triggers.length, 1);
    assert.deepEqual(trigger(chain.state, 'r')?.due, { kind: 'Time', timeMs: 145_000 });
    assert.equal(trigger(chain.state, 'r')?.runs, 2);
    expectCode(chain, BOB, [{ kind: 'UnregisterTrigger', id: 'r' }], 'permission_denied');
    expectCode(chain, ALICE, [{ kind: 'UnregisterTrigger', id: 'r' }], 'Committed');
    assert.deepEqual(nextTriggerDue(chain.state), {});
  });

  it('runs due triggers in (due, id) order, at most triggers_per_block_max per block', () => {
    const chain = world();
    const h = chain.height + 3;
    expectCode(
      chain,
      ADMIN,
      [{ kind: 'SetParameter', parameter: { kind: 'Custom', id: TRIGGERS_PER_BLOCK_PARAMETER, payload: 2 } }],
      'Committed',
    );
    expectCode(
      chain,
      ALICE,
      [
        reg('c', { kind: 'Height', height: h }),
        reg('b', { kind: 'Height', height: h }),
        reg('a', { kind: 'Height', height: h + 5 }),
        reg('d', { kind: 'Height', height: h }),
        reg('t', { kind: 'Time', timeMs: 1 }),
      ],
      'Committed',
    );
    // 't' (time 1) was due already in the registering block, after its transactions.
    assert.equal(trigger(chain.state, 't'), undefined);
    assert.deepEqual(
      chain.block([]).triggers.map((r) => r.id),
      ['b', 'c'],
    );
    assert.deepEqual(
      chain.block([]).triggers.map((r) => r.id),
      ['d'],
    );
    assert.deepEqual(chain.block([]).triggers, []);
  });

  it('refuses malformed triggers and ledger-made ids; rows survive fromEntries', () => {
    const chain = world();
    expectCode(chain, ALICE, [reg('Bad Id', { kind: 'Height', height: 9 })], 'trigger_invalid');
    expectCode(chain, ALICE, [reg('x', { kind: 'Height', height: 0 })], 'trigger_invalid');
    expectCode(
      chain,
      ALICE,
      [reg('x', { kind: 'Height', height: 99 }, { instructions: [] })],
      'trigger_invalid',
    );
    expectCode(
      chain,
      ALICE,
      [reg('x', { kind: 'Height', height: 99 }, { repeat: { kind: 'EveryBlocks', blocks: 0 } })],
      'trigger_invalid',
    );
    expectCode(chain, ALICE, [{ kind: 'UnregisterTrigger', id: '$sub:x' }], 'trigger_reserved');
    expectCode(chain, ALICE, [{ kind: 'UnregisterTrigger', id: 'nope' }], 'trigger_not_found');
    expectCode(chain, ALICE, [reg('x', { kind: 'Height', height: 99 })], 'Committed');
    expectCode(chain, ALICE, [reg('x', { kind: 'Height', height: 99 })], 'already_exists');
    expectCode(chain, ALICE, [{ kind: 'ChargeSubscription', id: 'x' }], 'subscription_not_found');
    const copy = WorldState.fromEntries(chain.state.entries());
    assert.deepEqual(copy.stateRoot(), chain.state.stateRoot());
    assert.deepEqual(nextTriggerDue(copy), { height: 99 });
  });
});
