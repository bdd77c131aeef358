// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../modules/registry.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { INSTRUCTION_KINDS, type Instruction } from '../model/instructions.js';
import { numeric } from '../model/numeric.js';
import type { SignedTransaction } from '../model/transaction.js';
// The installed ledger modules say what their instructions touch (state/module-host.ts).
import '../modules/load.js';
import { touchedAssets } from './touched.js';
import { decodeIndexValue, encodeIndexValue, hasKind, kindNames, kindsOf, kindTag } from './tx-summary.js';

const key = (n: number) => `ed0120${n.toString(16).padStart(64, '0').toUpperCase()}@wonderland`;
const tx = (instructions: Instruction[]) =>
  ({ payload: { authority: key(1), instructions } }) as unknown as SignedTransaction;

describe('history index values', () => {
  it('round-trip hash, result, block time and kinds; a bare hash decodes without a summary', () => {
    const hash = new Uint8Array(32).fill(7);
    const kinds = kindsOf([
      { kind: 'ShieldAsset' } as Instruction,
      { kind: 'RegisterDomain' } as Instruction,
    ]);
    const blockTimeMs = 2 ** 52 + 12345;
    const v = decodeIndexValue(encodeIndexValue(hash, { ok: false, blockTimeMs, kinds }));
    assert.deepEqual(v.hash, hash);
    assert.equal(v.summary?.ok, false);
    assert.equal(v.summary?.blockTimeMs, blockTimeMs);
    assert.deepEqual(kindNames(v.summary!.kinds), ['RegisterDomain', 'ShieldAsset']);
    assert.ok(hasKind(v.summary!.kinds, kindTag('ShieldAsset')!));
    assert.ok(!hasKind(v.summary!.kinds, kindTag('MintAsset')!));
    assert.equal(kindTag('Teleport'), undefined);
    assert.equal(decodeIndexValue(hash).summary, undefined);
  });

  it('give every instruction kind its own bit, at its variant tag', () => {
    for (const [t, k] of INSTRUCTION_KINDS.entries()) {
      assert.equal(kindTag(k), t);
      assert.deepEqual(kindNames(kindsOf([{ kind: k } as Instruction])), [k]);
    }
  });

  it('name the definitions and assets a transaction touches, both sides of a transfer, sorted', () => {
    const t = touchedAssets(
      tx([
        {
          kind: 'TransferAsset',
          source: `rose#wonderland#${key(2)}`,
          destination: key(3),
          amount: numeric('1'),
        },
        { kind: 'MintAsset', asset: `rose#wonderland#${key(2)}`, amount: numeric('1') },
        {
          kind: 'SetKeyValue',
          target: { kind: 'AssetDefinition', id: 'gem#wonderland' },
          key: 'k',
          value: 1,
        },
        { kind: 'RegisterDomain', id: 'x', metadata: new Map() },
      ]),
    );
    assert.deepEqual(t.definitions, ['gem#wonderland', 'rose#wonderland']);
    assert.deepEqual(t.assets, [`rose#wonderland#${key(2)}`, `rose#wonderland#${key(3)}`]);
  });
});
