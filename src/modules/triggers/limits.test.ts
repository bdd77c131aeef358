// The trigger limits: no repeat faster than the block time, TriggersPerAccountMax per account (a chain
// parameter kept among the custom parameters, so the Parameters row keeps its persisted layout).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ADMIN, ALICE, BOB, expectCode, world } from '../../../test/fixtures/state/state-fixture.js';
import { decode, encode } from '../../codec/frame.js';
import { DEFAULT_DECODE_LIMITS } from '../../codec/limits.js';
import type { Instruction } from '../../model/instructions.js';
import { defaultParameters, ParameterCodec, ParametersCodec } from '../../model/parameters.js';
import { triggersPerAccount } from './handlers.js';
import { TRIGGERS_PER_ACCOUNT_DEFAULT, TRIGGERS_PER_ACCOUNT_PARAMETER } from './model.js';

const reg = (id: string, repeatMs?: number): Instruction => ({
  kind: 'RegisterTrigger',
  id,
  due: { kind: 'Time', timeMs: 4_000_000_000_000 },
  ...(repeatMs === undefined ? {} : { repeat: { kind: 'EveryMs', ms: repeatMs } }),
  instructions: [{ kind: 'Log', level: { kind: 'Info' }, message: id }],
});

describe('trigger limits (executor)', () => {
  it('refuses a time repeat faster than BlockTimeMs (trigger_repeat_too_fast), accepts one at it', () => {
    const chain = world();
    const blockTimeMs = chain.state.parameters().blockTimeMs;
    expectCode(chain, ALICE, [reg('fast', 1)], 'trigger_repeat_too_fast');
    expectCode(chain, ALICE, [reg('fast', blockTimeMs - 1)], 'trigger_repeat_too_fast');
    expectCode(chain, ALICE, [reg('ok', blockTimeMs)], 'Committed');
    expectCode(
      chain,
      ADMIN,
      [{ kind: 'SetParameter', parameter: { kind: 'BlockTimeMs', value: 5_000 } }],
      'Committed',
    );
    expectCode(chain, ALICE, [reg('slow', 4_999)], 'trigger_repeat_too_fast');
  });

  it('caps the triggers one account holds (trigger_limit); others and freed slots are unaffected', () => {
    const chain = world();
    assert.equal(triggersPerAccount(chain.state), TRIGGERS_PER_ACCOUNT_DEFAULT);
    expectCode(
      chain,
      ADMIN,
      [{ kind: 'SetParameter', parameter: { kind: 'TriggersPerAccountMax', value: 2 } }],
      'Committed',
    );
    assert.equal(triggersPerAccount(chain.state), 2);
    assert.equal(chain.state.parameters().custom.get(TRIGGERS_PER_ACCOUNT_PARAMETER), 2);
    // Two in one transaction, the third refused (also when registered in the same transaction).
    expectCode(chain, ALICE, [reg('a1'), reg('a2'), reg('a3')], 'trigger_limit');
    expectCode(chain, ALICE, [reg('a1'), reg('a2')], 'Committed');
    expectCode(chain, ALICE, [reg('a3')], 'trigger_limit');
    expectCode(chain, BOB, [reg('b1'), reg('b2')], 'Committed');
    expectCode(chain, ALICE, [{ kind: 'UnregisterTrigger', id: 'a1' }, reg('a3')], 'Committed');
  });

  it('TriggersPerAccountMax is bounded and only settable through its own variant', () => {
    const chain = world();
    for (const value of [0, 1025])
      expectCode(
        chain,
        ADMIN,
        [{ kind: 'SetParameter', parameter: { kind: 'TriggersPerAccountMax', value } }],
        'invalid_parameter',
      );
    expectCode(
      chain,
      ADMIN,
      [
        {
          kind: 'SetParameter',
          parameter: { kind: 'Custom', id: TRIGGERS_PER_ACCOUNT_PARAMETER, payload: 9 },
        },
      ],
      'invalid_parameter',
    );
  });

  it('the new variant is appended: earlier variants keep their tags, the Parameters row its layout', () => {
    // Variant tags are positions: Custom stays 6 (as in blocks written before); the variants appended after
    // it are ShieldedNoteMinUnits 7, TriggersPerAccountMax 8, TransactionMaxWeight 9, BlockMaxWeight 10.
    assert.equal(encode(ParameterCodec, { kind: 'Custom', id: 'x', payload: 1 })[0], 6);
    assert.equal(encode(ParameterCodec, { kind: 'ShieldedNoteMinUnits', value: 3 })[0], 7);
    assert.equal(encode(ParameterCodec, { kind: 'TriggersPerAccountMax', value: 3 })[0], 8);
    assert.equal(encode(ParameterCodec, { kind: 'BlockMaxWeight', value: 3 })[0], 10);
    // The row's bytes are those of the struct without any new field: a value in `custom`.
    const p = { ...defaultParameters(), custom: new Map([[TRIGGERS_PER_ACCOUNT_PARAMETER, 3]]) };
    const back = decode(ParametersCodec, encode(ParametersCodec, p), DEFAULT_DECODE_LIMITS);
    assert.ok(back.ok);
    assert.deepEqual(Object.keys(back.value).sort(), Object.keys(defaultParameters()).sort());
  });
});
