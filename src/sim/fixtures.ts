// What every simulated cluster shares, built once per process: the roster's keys, the genesis
// transaction, a pool of signed client transactions (so a seed never pays for Ed25519 signing) and a
// verifier that remembers signatures it has checked (each distinct signature is still verified once).

import { encodeFrame } from '../codec/frame.js';
import { ValidatorSet } from '../consensus/validator-set.js';
import { BlsKeyPair } from '../crypto/bls.js';
import { ed25519Verify } from '../crypto/ed25519.js';
import { hash } from '../crypto/hash.js';
import { publicKeyToText } from '../crypto/keys.js';
import { Ed25519KeyPair } from '../crypto/signer.js';
import { accountId } from '../model/ids.js';
import type { Instruction } from '../model/instructions.js';
import { SCHEMA } from '../model/schema.js';
import {
  type SignedTransaction,
  SignedTransactionCodec,
  signTransaction,
  transactionHash,
} from '../model/transaction.js';
import { toHex } from '../util/hex.js';

export const SIM_CHAIN_ID = 'torana-sim';
export const SIM_GENESIS_MS = 1_700_000_000_000;
/** Client transactions in the shared pool (a seed submits a prefix of a shuffled copy). */
export const POOL_SIZE = 64;

export interface SimFixtures {
  peers: string[];
  roster: ValidatorSet;
  observer: string;
  genesis: SignedTransaction;
  pool: Uint8Array[];
  poolHashes: Uint8Array[];
  verify(pk: Uint8Array, msg: Uint8Array, sig: Uint8Array): Promise<boolean>;
}

const cache = new Map<number, SimFixtures>();

function seedBytes(tag: number, i: number): Uint8Array {
  const b = new Uint8Array(32).fill(tag);
  b[0] = i;
  return b;
}

function tx(admin: Ed25519KeyPair, instructions: Instruction[], nonce: number): SignedTransaction {
  return signTransaction(
    {
      chainId: SIM_CHAIN_ID,
      authority: accountId(admin.publicKeyText(), 'system'),
      creationTimeMs: SIM_GENESIS_MS,
      instructions,
      metadata: new Map(),
      nonce,
    },
    admin,
  );
}

function build(n: number): SimFixtures {
  const admin = Ed25519KeyPair.fromSeed(new Uint8Array(32).fill(201));
  const adminId = accountId(admin.publicKeyText(), 'system');
  const empty = new Map();
  const validators = Array.from({ length: n }, (_, i) => ({
    peer: Ed25519KeyPair.fromSeed(seedBytes(202, i)).publicKeyText(),
    blsKey: publicKeyToText(BlsKeyPair.fromSeed(seedBytes(203, i)).publicKey),
  }));
  const roster = new ValidatorSet(validators);
  const genesis = tx(
    admin,
    [
      { kind: 'RegisterDomain', id: 'system', metadata: empty },
      { kind: 'RegisterAccount', id: adminId, metadata: empty },
      { kind: 'GrantPermission', account: adminId, permission: { name: 'Admin', payload: null } },
    ],
    0,
  );
  const pool = Array.from({ length: POOL_SIZE }, (_, i) => {
    const user = Ed25519KeyPair.fromSeed(seedBytes(204, i)).publicKeyText();
    const t = tx(admin, [{ kind: 'RegisterAccount', id: accountId(user, 'system'), metadata: empty }], i + 1);
    return { bytes: encodeFrame(SCHEMA, SignedTransactionCodec, t), hash: transactionHash(t) };
  });
  const verified = new Set<string>();
  return {
    peers: roster.validators.map((v) => v.peer),
    roster,
    observer: Ed25519KeyPair.fromSeed(seedBytes(205, 0)).publicKeyText(),
    genesis,
    pool: pool.map((p) => p.bytes),
    poolHashes: pool.map((p) => p.hash),
    async verify(pk, msg, sig) {
      const id = toHex(pk) + toHex(sig) + toHex(hash(msg));
      if (verified.has(id)) return true;
      const ok = ed25519Verify(pk, msg, sig);
      if (ok) verified.add(id);
      return ok;
    },
  };
}

/** The fixtures of an `n`-validator cluster (cached per process). */
export function simFixtures(n: number): SimFixtures {
  let f = cache.get(n);
  if (f === undefined) {
    f = build(n);
    cache.set(n, f);
  }
  return f;
}
