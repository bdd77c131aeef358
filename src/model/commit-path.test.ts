// The model's shortcuts on the commit path give exactly what the general code gives: the block encoded
// from received transaction bytes, the Merkle root that reuses identical pairs, and the id parsers'
// canonical-key fast path (checked against the original parse-and-print rules).

// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../modules/registry.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { encode } from '../codec/frame.js';
import { hash } from '../crypto/hash.js';
import { isKeyTextError, publicKeyFromText, publicKeyToText } from '../crypto/keys.js';
import { bytesEqual } from '../util/hex.js';
import { accountIdArb, assetIdArb, MODEL_ARBITRARIES, nameArb } from './arbitraries.test.js';
import {
  type Block,
  BlockCodec,
  encodeBlock,
  merkleRoot,
  resultHash,
  resultHashes,
  type TransactionResult,
} from './block.js';
import { canonicalAccountId, parseAccountId, parseAssetId, parseDefinitionId, parseNftId } from './ids.js';
import { canonicalPublicKeyText, isCanonicalPublicKeyText } from './keys.js';
import { nameProblem } from './names.js';
import { SignedTransactionCodec } from './transaction.js';

const RUNS = { numRuns: 150 };

describe('encodeBlock', () => {
  const blockArb = MODEL_ARBITRARIES.Block as fc.Arbitrary<Block>;

  it('copies given transaction encodings and gives the bytes of encode(BlockCodec)', () => {
    fc.assert(
      fc.property(blockArb, fc.array(fc.boolean(), { maxLength: 8 }), (block, given) => {
        const expected = encode(BlockCodec, block);
        const raws = block.transactions.map((t, i) =>
          given[i] === false ? undefined : encode(SignedTransactionCodec, t).slice(),
        );
        assert.ok(bytesEqual(encodeBlock(block, raws), expected));
        assert.ok(bytesEqual(encodeBlock(block), expected));
      }),
      RUNS,
    );
  });

  it('writes the given bytes, not a re-encoding (so they must be the canonical ones)', () => {
    const block = fc.sample(
      blockArb.filter((b) => b.transactions.length > 0),
      { seed: 7, numRuns: 1 },
    )[0]!;
    const raws = block.transactions.map((t) => encode(SignedTransactionCodec, t).slice());
    raws[0]![raws[0]!.length - 1]! ^= 1;
    assert.equal(bytesEqual(encodeBlock(block, raws), encode(BlockCodec, block)), false);
  });

  it('refuses a list of encodings that does not match the transactions', () => {
    const block = fc.sample(blockArb, { seed: 3, numRuns: 1 })[0]!;
    const raws = [...block.transactions.map(() => undefined), undefined];
    assert.throws(() => encodeBlock(block, raws), RangeError);
  });
});

/** The Merkle rule written out plainly (model/block.ts doc comment). */
function referenceRoot(leaves: Uint8Array[]): Uint8Array {
  if (leaves.length === 0) return hash(new Uint8Array(0));
  let level = leaves;
  while (level.length > 1) {
    const next: Uint8Array[] = [];
    for (let i = 0; i < level.length; i += 2) {
      const b = level[i + 1];
      next.push(b === undefined ? level[i]! : hash(new Uint8Array([1, ...level[i]!, ...b])));
    }
    level = next;
  }
  return level[0]!;
}

describe('merkleRoot', () => {
  it('equals the plain rule, with leaves repeated as one object or as equal copies', () => {
    const pool = fc.array(fc.uint8Array({ minLength: 32, maxLength: 32 }), { minLength: 1, maxLength: 3 });
    const arb = pool.chain((leaves) =>
      fc.array(fc.tuple(fc.nat(leaves.length - 1), fc.boolean()), { maxLength: 40 }).map((picks) =>
        // true: the shared object; false: an equal copy (the memo must key on identity, not content).
        picks.map(([i, shared]) => (shared ? leaves[i]! : leaves[i]!.slice())),
      ),
    );
    fc.assert(
      fc.property(arb, (leaves) => assert.deepEqual(merkleRoot(leaves), referenceRoot(leaves))),
      RUNS,
    );
  });

  it('returns a fresh array, never one of the leaves', () => {
    const leaf = hash(new Uint8Array([1]));
    const root = merkleRoot([leaf]);
    assert.deepEqual(root, leaf);
    assert.notEqual(root, leaf);
  });

  it('resultHashes gives one leaf per result, equal to resultHash', () => {
    const resultArb = MODEL_ARBITRARIES.TransactionResult as fc.Arbitrary<TransactionResult>;
    fc.assert(
      fc.property(fc.array(resultArb, { maxLength: 12 }), (results) => {
        assert.deepEqual(resultHashes(results), results.map(resultHash));
      }),
      RUNS,
    );
  });
});

// ---- ids: the original rules, written with the key parser and printer --------------------------------

function referenceKey(text: string): string | undefined {
  const k = publicKeyFromText(text);
  return isKeyTextError(k) ? undefined : publicKeyToText(k);
}

function referenceAccount(text: string): { signatory: string; domain: string } | undefined {
  const at = text.lastIndexOf('@');
  if (at <= 0 || at === text.length - 1) return undefined;
  const domain = text.slice(at + 1);
  const signatory = referenceKey(text.slice(0, at));
  if (nameProblem(domain) !== undefined || signatory === undefined) return undefined;
  return { signatory, domain };
}

function referenceTwoNames(text: string, sep: string): { name: string; domain: string } | undefined {
  const parts = text.split(sep);
  if (parts.length !== 2 || parts.some((p) => nameProblem(p) !== undefined)) return undefined;
  return { name: parts[0]!, domain: parts[1]! };
}

/** Id-like text, often well-formed, often with a key in another case or length, or extra separators. */
const keyTextArb = fc.oneof(
  fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => `ed0120${Buffer.from(b).toString('hex')}`),
  fc
    .uint8Array({ minLength: 32, maxLength: 32 })
    .map((b) => `ED0120${Buffer.from(b).toString('hex').toUpperCase()}`),
  fc
    .uint8Array({ minLength: 48, maxLength: 48 })
    .map((b) => `ea0130${Buffer.from(b).toString('hex').toUpperCase()}`),
  fc
    .uint8Array({ minLength: 31, maxLength: 49 })
    .map((b) => `ed0120${Buffer.from(b).toString('hex').toUpperCase()}`),
  fc.string({ maxLength: 80 }),
);
const looseAccountArb = fc.oneof(
  accountIdArb,
  fc
    .tuple(keyTextArb, fc.constantFrom('@', '@@', '#', ''), fc.oneof(nameArb, fc.string({ maxLength: 6 })))
    .map(([k, sep, d]) => `${k}${sep}${d}`),
);

describe('id parsing fast paths', () => {
  it('canonical key text: the scan agrees with parse-and-print', () => {
    fc.assert(
      fc.property(keyTextArb, (text) => {
        assert.equal(canonicalPublicKeyText(text), referenceKey(text));
        assert.equal(isCanonicalPublicKeyText(text), referenceKey(text) === text);
      }),
      RUNS,
    );
  });

  it('account ids: same parts and canonical form as the original rules', () => {
    fc.assert(
      fc.property(looseAccountArb, (text) => {
        const expected = referenceAccount(text);
        assert.deepEqual(parseAccountId(text), expected);
        const canonical = expected && `${expected.signatory}@${expected.domain}`;
        assert.equal(canonicalAccountId(text), canonical);
      }),
      RUNS,
    );
  });

  it('asset, definition and NFT ids: same answers as the original rules', () => {
    const defArb = fc.oneof(
      fc.tuple(nameArb, nameArb).map(([a, b]) => `${a}#${b}`),
      fc.string({ maxLength: 12 }),
      fc.tuple(nameArb, nameArb, nameArb).map(([a, b, c]) => `${a}#${b}#${c}`),
    );
    const assetArb = fc.oneof(
      assetIdArb,
      fc.tuple(defArb, looseAccountArb).map(([d, a]) => `${d}#${a}`),
    );
    fc.assert(
      fc.property(defArb, assetArb, (def, asset) => {
        assert.deepEqual(parseDefinitionId(def), referenceTwoNames(def, '#'));
        assert.deepEqual(
          parseNftId(def.replaceAll('#', '$')),
          referenceTwoNames(def.replaceAll('#', '$'), '$'),
        );
        const first = asset.indexOf('#');
        const second = first < 0 ? -1 : asset.indexOf('#', first + 1);
        const definition = second < 0 ? '' : asset.slice(0, second);
        const account = second < 0 ? undefined : referenceAccount(asset.slice(second + 1));
        const expected =
          second < 0 || referenceTwoNames(definition, '#') === undefined || account === undefined
            ? undefined
            : { definition, account: `${account.signatory}@${account.domain}` };
        assert.deepEqual(parseAssetId(asset), expected);
      }),
      RUNS,
    );
  });

  it('names: the ASCII fast path agrees with the full rule', () => {
    const forbidden = /[\s@#$\p{Cc}]/u;
    const reference = (t: string) => t.length > 0 && Buffer.byteLength(t) <= 128 && !forbidden.test(t);
    const arb = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 140 }),
      fc.string({ minLength: 120, maxLength: 140 }),
      fc.stringMatching(/^[\x00-\x7f]{0,20}$/),
    );
    fc.assert(
      fc.property(arb, (t) => assert.equal(nameProblem(t) === undefined, reference(t), JSON.stringify(t))),
      {
        numRuns: 500,
      },
    );
  });
});
