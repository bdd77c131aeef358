// `torana verify --genesis-import <file>`: a chain whose node imported a genesis state before block 1
// verifies when block 1 re-executes on the file imported again; without the file, or with another file
// (one balance changed), block 1 is refused with why.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  admin,
  certify,
  commitGenesis,
  GENESIS_TIME_MS,
  MEMORY_CHAIN_ID,
  validatorSet,
  verifyEd25519,
} from '../../test/helpers/memory-chain.js';
import { buildTx } from '../../test/helpers/tx.js';
import { DEFAULT_DECODE_LIMITS } from '../codec/limits.js';
import { transactionHash } from '../model/transaction.js';
import { Ledger } from '../pipeline/ledger.js';
import { toHex } from '../util/hex.js';
import { importGenesisFile } from './genesis-import.js';
import { openImportedState } from './genesis-import-state.js';
import { type VerifyChainOptions, verifyChain } from './verify-chain.js';

const COIN = 'coin#scale';
const account = (i: number) =>
  `ed0120${createHash('sha256').update(`verify-import-${i}`).digest('hex').toUpperCase()}@scale`;
const lines = (changed = false) => [
  JSON.stringify({ domain: 'scale' }),
  JSON.stringify({ definition: COIN, scale: 0 }),
  ...Array.from({ length: 300 }, (_, i) =>
    JSON.stringify({ account: account(i), balances: { [COIN]: String(changed && i === 150 ? 2 : i + 1) } }),
  ),
];

describe('verify on an imported chain', () => {
  let root: string;
  let data: string;
  let persisted: string;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'torana-verify-import-'));
    await writeFile(join(root, 'accounts.ndjson'), `${lines().join('\n')}\n`);
    await writeFile(join(root, 'changed.ndjson'), `${lines(true).join('\n')}\n`);
    const node = join(root, 'node');
    await importGenesisFile(node, join(root, 'accounts.ndjson'), { authority: admin.id, fsync: false });
    data = join(node, 'data');
    const { ledger } = await Ledger.open({
      dir: data,
      chainId: MEMORY_CHAIN_ID,
      decodeLimits: DEFAULT_DECODE_LIMITS,
      fsync: false,
      segmentBytesMax: 1 << 20,
      lmdbMapBytes: 64 << 20,
      stateRowCacheRows: 1_000,
    });
    try {
      await commitGenesis(ledger);
      const creationTimeMs = GENESIS_TIME_MS + 1000;
      const tx = buildTx(
        admin,
        [
          {
            kind: 'TransferAsset',
            source: `${COIN}#${account(1)}`,
            destination: account(2),
            amount: { mantissa: 1n, scale: 0 },
          },
        ],
        { chainId: MEMORY_CHAIN_ID, creationTimeMs },
      );
      const executed = ledger.execute({
        view: 0,
        creationTimeMs,
        transactions: [tx],
        hashes: [transactionHash(tx)],
      });
      assert.equal(executed.results[0]!.kind, 'Committed');
      await ledger.commit(executed, certify(2, executed.hash));
      persisted = toHex(ledger.state.stateRoot());
    } finally {
      await ledger.close();
    }
  });
  after(async () => {
    await rm(root, { recursive: true, force: true });
  });

  const verify = async (file: string | undefined) => {
    const imported =
      file === undefined
        ? undefined
        : await openImportedState(join(root, file), { authority: admin.id, scratchDir: root });
    const opts: VerifyChainOptions = {
      dir: data,
      chainId: MEMORY_CHAIN_ID,
      validatorSet,
      decodeLimits: DEFAULT_DECODE_LIMITS,
      verifySignatures: (items) =>
        Promise.all(items.map((i) => verifyEd25519(i.publicKey, i.message, i.signature))),
      initialState: imported?.state,
    };
    try {
      return await verifyChain(opts);
    } finally {
      await imported?.close();
    }
  };

  it('verifies every block when block 1 re-executes on the imported file', async () => {
    const report = await verify('accounts.ndjson');
    assert.equal(report.height, 2);
    assert.equal(report.stateRoot, persisted);
  });

  it('refuses block 1 on an empty state, and on a file with one balance changed', async () => {
    await assert.rejects(verify(undefined), /^ChainVerificationError: block 1: .*--genesis-import <file>$/);
    await assert.rejects(
      verify('changed.ndjson'),
      /^ChainVerificationError: block 1: .*not the one this chain imported$/,
    );
  });
});
