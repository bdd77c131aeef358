import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import {
  admin,
  certify,
  commitGenesis,
  GENESIS_TIME_MS,
  genesisTransaction,
  MEMORY_CHAIN_ID,
  newDisk,
  openMemoryLedger,
  validatorSet,
} from '../../test/helpers/memory-chain.js';
import { buildTx, newAccount } from '../../test/helpers/tx.js';
import { ValidatorSet } from '../consensus/validator-set.js';
import { BlsKeyPair } from '../crypto/bls.js';
import { publicKeyToText } from '../crypto/keys.js';
import type { Block } from '../model/block.js';
import { transactionHash } from '../model/transaction.js';
import { IndexerError } from './errors.js';
import { ChainFollower } from './follower.js';

const follower = (set = validatorSet) =>
  new ChainFollower({
    chainId: MEMORY_CHAIN_ID,
    genesisSet: set,
    genesisTransactionHash: transactionHash(genesisTransaction()),
  });

function refused(f: ChainFollower, block: Block, code: string, why: RegExp): void {
  assert.throws(
    () => f.verify(block),
    (e: unknown) => e instanceof IndexerError && e.code === code && why.test(e.message),
  );
}

describe('ChainFollower', () => {
  let blocks: Block[];
  before(async () => {
    const { ledger } = await openMemoryLedger(newDisk());
    await commitGenesis(ledger);
    const tx = buildTx(admin, [{ kind: 'RegisterDomain', id: 'wonderland', metadata: new Map() }], {
      chainId: MEMORY_CHAIN_ID,
      creationTimeMs: GENESIS_TIME_MS + 500,
    });
    const executed = ledger.execute({
      view: 0,
      creationTimeMs: GENESIS_TIME_MS + 1_000,
      transactions: [tx],
      hashes: [transactionHash(tx)],
    });
    await ledger.commit(executed, certify(2, executed.hash));
    blocks = [(await ledger.block(1))!, (await ledger.block(2))!];
    await ledger.close();
  });

  it('accepts block 1 signed by the genesis validators and re-executes it to the certified hash', () => {
    const f = follower();
    const v = f.verify(blocks[0]!);
    assert.equal(v.signers, 1);
    assert.equal(v.executed.events.length, 1);
    assert.equal(f.height, 0);
    v.commit();
    assert.equal(f.height, 1);
    assert.ok(f.state.domain('system') !== undefined);
  });

  it('refuses a certificate of another validator set, a forged signature, and one for another block', () => {
    const other = new ValidatorSet([
      {
        peer: newAccount('system', 99).key.publicKeyText(),
        blsKey: publicKeyToText(BlsKeyPair.fromSeed(new Uint8Array(32).fill(98)).publicKey),
      },
    ]);
    const b = blocks[0]!;
    refused(follower(other), b, 'index_certificate_invalid', /wrong_validator_set/);
    const f = follower();
    const signature = b.certificate.signature.slice();
    signature[40]! ^= 1;
    refused(
      f,
      { ...b, certificate: { ...b.certificate, signature } },
      'index_certificate_invalid',
      /bad_signature/,
    );
    refused(f, { ...b, certificate: blocks[1]!.certificate }, 'index_certificate_invalid', /another block/);
    // Nothing moved: the true block still follows.
    assert.equal(f.height, 0);
    f.verify(b).commit();
    assert.equal(f.height, 1);
  });

  it('refuses blocks out of order, unlinked, or with results the header does not commit to', () => {
    const f = follower();
    refused(f, blocks[1]!, 'index_block_out_of_order', /height 2/);
    const b = blocks[0]!;
    refused(
      f,
      { ...b, header: { ...b.header, prevHash: new Uint8Array(32).fill(1) } },
      'index_block_unlinked',
      /previous hash/,
    );
    const results = [
      { kind: 'Rejected' as const, reason: { code: 'insufficient_funds' as const, message: 'x' } },
    ];
    refused(f, { ...b, results }, 'index_block_mismatch', /results/);
  });

  it('refuses a block after a genesis that registers no validators', () => {
    // This test chain's genesis registers no peers: block 2 has no validator set to verify against.
    const f = follower();
    f.verify(blocks[0]!).commit();
    refused(f, blocks[1]!, 'index_certificate_invalid', /names no validator set/);
  });
});
