// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../registry.js';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  commitAdminBlock,
  commitGenesis,
  MEMORY_CHAIN_ID,
  newDisk,
  openMemoryLedger,
} from '../../../test/helpers/memory-chain.js';
import { newAccount } from '../../../test/helpers/tx.js';
import { DEFAULT_DECODE_LIMITS } from '../../codec/limits.js';
import type { StateReader } from '../../gateway/ports.js';
import type { Instruction } from '../../model/instructions.js';
import { numeric } from '../../model/numeric.js';
import { Ledger } from '../../pipeline/ledger.js';
import { definitionSnapshot, holderSnapshot, LORENZ_POINTS, SNAPSHOT_TOP_MAX } from './snapshot.js';

const HOLDERS = Array.from({ length: 64 }, (_, i) => newAccount('w', i + 1).id);

/** The snapshot of holders 0..n-1 holding `xs` (scale 0). */
function amounts(xs: readonly bigint[]) {
  return holderSnapshot(
    'rose#w',
    0,
    1,
    xs.map((x, i) => ({ id: `rose#w#${HOLDERS[i]}`, value: { mantissa: x, scale: 0 } })),
  );
}

/**
 * The same statistics from their definitions: Gini as the sum of |x_i − x_j| over every pair over n · Σx
 * (equal to the ranked sum the product uses), each Lorenz point a prefix sum of the sorted amounts, the
 * top holders a full sort.
 */
function reference(xs: readonly bigint[]) {
  const n = xs.length;
  const total = xs.reduce((a, b) => a + b, 0n);
  let pairs = 0n;
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) pairs += xs[i]! > xs[j]! ? xs[i]! - xs[j]! : xs[j]! - xs[i]!;
  const ppm = (a: bigint) => (total === 0n ? 0 : Number((a * 1_000_000n) / total));
  const sorted = [...xs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const lorenz = Array.from({ length: LORENZ_POINTS + 1 }, (_, k) => ({
    holdersPpm: Math.floor((k * 1_000_000) / LORENZ_POINTS),
    quantityPpm:
      n === 0 ? 0 : ppm(sorted.slice(0, Math.floor((n * k) / LORENZ_POINTS)).reduce((a, b) => a + b, 0n)),
  }));
  const top = xs
    .map((x, i) => ({ accountId: HOLDERS[i]!, quantity: { mantissa: x, scale: 0 }, sharePpm: ppm(x) }))
    .sort((a, b) =>
      a.quantity.mantissa !== b.quantity.mantissa
        ? a.quantity.mantissa > b.quantity.mantissa
          ? -1
          : 1
        : a.accountId < b.accountId
          ? -1
          : 1,
    )
    .slice(0, SNAPSHOT_TOP_MAX);
  return {
    definitionId: 'rose#w',
    height: 1,
    holders: n,
    totalQuantity: { mantissa: total, scale: 0 },
    giniPpm: n < 2 || total === 0n ? 0 : Number((pairs * 1_000_000n) / (BigInt(n) * total)),
    lorenz,
    topHolders: top,
  };
}

describe('holder snapshot (exact integer Gini and Lorenz curve)', () => {
  it('is 0 for equal holdings and for fewer than two holders', () => {
    assert.equal(amounts([5n, 5n, 5n]).giniPpm, 0);
    assert.equal(amounts([7n]).giniPpm, 0);
    assert.equal(amounts([]).giniPpm, 0);
  });

  it('approaches 1 when one holder has everything', () => {
    // n = 4, ascending [1, 1, 1, 97]: Σ(2i - n - 1)·x = -3 - 1 + 1 + 3·97 = 288; / (4·100) = 0.72.
    assert.equal(amounts([1n, 97n, 1n, 1n]).giniPpm, 720_000);
  });

  it('draws the Lorenz curve from (0, 0) to (1, 1) in ten steps of holders', () => {
    const points = amounts([20n, 1n, 2n, 3n, 4n, 10n, 10n, 10n, 20n, 20n]).lorenz;
    assert.equal(points.length, 11);
    assert.deepEqual(points[0], { holdersPpm: 0, quantityPpm: 0 });
    assert.deepEqual(points[4], { holdersPpm: 400_000, quantityPpm: 100_000 });
    assert.deepEqual(points[10], { holdersPpm: 1_000_000, quantityPpm: 1_000_000 });
  });

  it('equals the definitions computed over every pair and prefix, for random holdings with ties', () => {
    let seed = 7;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed;
    };
    for (let round = 0; round < 60; round++) {
      const n = round < 12 ? round : 12 + (next() % 40);
      const xs = Array.from({ length: n }, () => BigInt(1 + (next() % (round % 2 === 0 ? 5 : 1000))));
      assert.deepEqual(amounts(xs), reference(xs), `round ${round}: ${xs.join(',')}`);
    }
  });

  it('rescales balances to the definition scale, drops empty ones and orders the top holders', () => {
    const [a, b, c, d] = [1, 2, 3, 4].map((seed) => newAccount('w', seed).id) as [
      string,
      string,
      string,
      string,
    ];
    // Ties (a and d) go by account id.
    const [first, second] = a < d ? [a, d] : [d, a];
    const s = holderSnapshot('rose#w', 2, 9, [
      { id: `rose#w#${a}`, value: numeric('1.5') },
      { id: `rose#w#${b}`, value: numeric('3.00') },
      { id: `rose#w#${c}`, value: numeric('0') },
      { id: `rose#w#${d}`, value: numeric('1.50') },
    ]);
    assert.equal(s.holders, 3);
    assert.deepEqual(s.totalQuantity, { mantissa: 600n, scale: 2 });
    assert.deepEqual(
      s.topHolders.map((h) => [h.accountId, h.sharePpm]),
      [
        [b, 500_000],
        [first, 250_000],
        [second, 250_000],
      ],
    );
  });
});

describe('holder snapshot of a state on disk, from the ordered holder index', () => {
  const DEFINITION = 'coin#scale';
  const id = (i: number) => newAccount('scale', 100 + i).id;
  const none = new Map();
  /** 60 holders: balances with ties (i % 9), two larger holders, one balance emptied by a transfer. */
  const blocks: Instruction[][] = [
    [
      { kind: 'RegisterDomain', id: 'scale', metadata: none },
      {
        kind: 'RegisterAssetDefinition',
        id: DEFINITION,
        scale: 2,
        mintable: { kind: 'Infinitely' },
        metadata: none,
      },
    ],
    Array.from({ length: 61 }, (_, i) => [
      { kind: 'RegisterAccount' as const, id: id(i), metadata: none },
      {
        kind: 'MintAsset' as const,
        asset: `${DEFINITION}#${id(i)}`,
        amount: { mantissa: BigInt(1 + (i % 9)) * (i === 5 || i === 40 ? 1000n : 1n), scale: 2 },
      },
    ]).flat(),
    [
      {
        kind: 'TransferAsset',
        source: `${DEFINITION}#${id(60)}`,
        destination: id(3),
        amount: { mantissa: 7n, scale: 2 },
      },
    ],
  ];

  /** The state with holdersOfDefinition refused: what a snapshot must not list. */
  function unlisted(state: StateReader): StateReader {
    return new Proxy(state, {
      get(target, name) {
        if (name === 'holdersOfDefinition') throw new Error('listed every holder');
        const v = Reflect.get(target, name, target);
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
  }

  it('walks the index in steps, equals the snapshot of the listed holders, and keeps to the work budget', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'torana-snapshot-'));
    try {
      const { ledger } = await Ledger.open({
        dir,
        chainId: MEMORY_CHAIN_ID,
        decodeLimits: DEFAULT_DECODE_LIMITS,
        fsync: false,
        segmentBytesMax: 1 << 20,
        lmdbMapBytes: 64 << 20,
      });
      const memory = (await openMemoryLedger(newDisk())).ledger;
      await commitGenesis(ledger);
      await commitGenesis(memory);
      for (const b of blocks)
        assert.deepEqual(await commitAdminBlock(ledger, b), await commitAdminBlock(memory, b));
      const d = { id: DEFINITION, scale: 2 };
      const want = holderSnapshot(DEFINITION, 2, 9, memory.state.holdersOfDefinition(DEFINITION));
      assert.equal(want.holders, 60, 'the emptied balance is no holder');
      assert.equal(want.topHolders[0]!.accountId, id(5));
      // Before the last blocks are durable (pending index entries), then after; in steps of 7 and of 4,096.
      for (const when of ['pending', 'durable']) {
        if (when === 'durable') await ledger.flushState();
        const disk = unlisted(ledger.state);
        assert.deepEqual(definitionSnapshot(disk, d, 9, 60, 7), want, when);
        assert.deepEqual(definitionSnapshot(disk, d, 9, 1_000), want, when);
        assert.throws(
          () => definitionSnapshot(disk, d, 9, 59),
          (e: unknown) => (e as { code?: string }).code === 'query_budget_exceeded',
        );
      }
      // A state in the heap keeps no ordered index: its holders are listed.
      assert.equal(memory.state.orderedHolders(DEFINITION, { descending: false, max: 1 }), undefined);
      assert.deepEqual(definitionSnapshot(memory.state, d, 9, 60), want);
      await ledger.close();
      await memory.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
