// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../modules/registry.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Json } from '../codec/codec.js';
import { BlsKeyPair, blsProvePossession } from '../crypto/bls.js';
import { publicKeyToText } from '../crypto/keys.js';
import { Ed25519KeyPair } from '../crypto/signer.js';
import { accountId } from '../model/ids.js';
import type { Instruction } from '../model/instructions.js';
import { signTransaction } from '../model/transaction.js';
import {
  type Genesis,
  GenesisError,
  type GenesisValidator,
  genesisFromJson,
  genesisToJson,
} from './genesis.js';

const CHAIN = 'genesis-test';
const adminKey = Ed25519KeyPair.fromSeed(new Uint8Array(32).fill(1));
const admin = accountId(adminKey.publicKeyText(), 'system');

function validator(n: number): GenesisValidator {
  const bls = BlsKeyPair.fromSeed(new Uint8Array(32).fill(n));
  return {
    peer: Ed25519KeyPair.fromSeed(new Uint8Array(32).fill(n)).publicKeyText(),
    blsKey: publicKeyToText(bls.publicKey),
    pop: blsProvePossession(bls),
  };
}

const register = (v: GenesisValidator): Instruction => ({ kind: 'RegisterPeer', address: 'a:1', ...v });

/** A signed genesis listing `validators` and registering `registered` (default: the same). */
function genesis(validators: GenesisValidator[], registered = validators): Json {
  const instructions: Instruction[] = [
    { kind: 'RegisterDomain', id: 'system', metadata: new Map() },
    ...registered.map(register),
  ];
  const payload = { chainId: CHAIN, authority: admin, creationTimeMs: 1, instructions, metadata: new Map() };
  const g: Genesis = { chainId: CHAIN, validators, transaction: signTransaction(payload, adminKey) };
  return genesisToJson(g);
}

function refusal(j: unknown): string {
  try {
    genesisFromJson(j, CHAIN);
  } catch (e) {
    assert.ok(e instanceof GenesisError, String(e));
    return e.message;
  }
  assert.fail('genesis accepted');
}

describe('genesis validators', () => {
  it('loads validators with a verifying proof of possession, registered by the genesis transaction', () => {
    const vs = [validator(2), validator(3)];
    const g = genesisFromJson(JSON.parse(JSON.stringify(genesis(vs))), CHAIN);
    assert.deepEqual(g.validators, vs);
    const first = (genesis(vs) as { validators: Record<string, unknown>[] }).validators[0]!;
    assert.deepEqual(Object.keys(first), ['peer', 'bls_key', 'pop']);
    assert.match(first.pop as string, /^[0-9a-f]{192}$/);
  });

  it('refuses an entry without pop, with another key’s pop, or with random bytes, naming it', () => {
    const a = validator(2);
    const b = validator(3);
    const j = genesis([a, b]) as { validators: Record<string, unknown>[] };
    delete j.validators[1]!.pop;
    assert.match(refusal(j), /genesis\.validators\[1\]\.pop/);
    assert.match(
      refusal(genesis([a, { ...b, pop: a.pop }])),
      /genesis\.validators\[1\]\.pop: does not verify/,
    );
    const random = new Uint8Array(96).map((_, i) => (i * 91 + 7) & 0xff);
    assert.match(refusal(genesis([{ ...a, pop: random }, b])), /genesis\.validators\[0\]\.pop/);
  });

  it('refuses a validator the genesis transaction does not register the same way, and extra peers', () => {
    const a = validator(2);
    const b = validator(3);
    assert.match(refusal(genesis([a, b], [a])), /validators\[1\].*must register peer/);
    const otherKey = { ...b, blsKey: validator(4).blsKey, pop: validator(4).pop };
    assert.match(refusal(genesis([a, b], [a, otherKey])), /validators\[1\].*same bls_key and pop/);
    assert.match(refusal(genesis([a], [a, b])), /registers peers that genesis\.validators does not list/);
    assert.match(refusal(genesis([a, a])), /listed twice/);
  });

  it('refuses a bls_key that is not a BLS key', () => {
    const a = validator(2);
    assert.match(refusal(genesis([{ ...a, blsKey: a.peer }])), /validators\[0\]\.bls_key/);
  });
});
