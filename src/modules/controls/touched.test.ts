import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Instruction } from '../../model/instructions.js';
import type { SignedTransaction } from '../../model/transaction.js';
import { touchedAssets } from '../../pipeline/touched.js';
import '../load.js';

const key = (n: number) => `ed0120${n.toString(16).padStart(64, '0').toUpperCase()}@wonderland`;
const tx = (instructions: Instruction[]) =>
  ({ payload: { authority: key(1), instructions } }) as unknown as SignedTransaction;

describe('transfer control instructions in the history indexes', () => {
  it('touch their definition (and the holder named), through the installed module', () => {
    const t = touchedAssets(
      tx([
        { kind: 'SetTransferFreeze', definition: 'tulip#wonderland', account: key(4), frozen: true },
        { kind: 'SetTransferCap', definition: 'lily#wonderland', window: { kind: 'Day' } },
        {
          kind: 'SetTransferListEntry',
          definition: 'lily#wonderland',
          list: { kind: 'Deny' },
          account: key(5),
          listed: true,
        },
      ]),
    );
    assert.deepEqual(t.definitions, ['lily#wonderland', 'tulip#wonderland']);
    assert.deepEqual(t.assets, [`lily#wonderland#${key(5)}`, `tulip#wonderland#${key(4)}`]);
  });
});
