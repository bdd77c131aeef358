// The zero-knowledge part of the dev genesis: the shielded pool account, the entry fee and the
// DEVELOPMENT verifying keys from zk/artifacts/ of the parameters the installed ledger modules declare
// (state/zk-parameters.ts; the registry declares them when it is imported, which every entry point that
// runs a node or a command does before it calls these), so private instructions work out of
// the box on `torana init` chains and testnets. The development keys come from a public-beacon setup
// (scripts/build-circuits.mjs): anyone can forge proofs for them. A production network sets keys from a
// real ceremony with SetParameter instead.
import { readFileSync } from 'node:fs';
import type { Json } from '../codec/codec.js';
import { canonicalJson } from '../codec/json.js';
import { blake2b256 } from '../crypto/hash.js';
import { accountId } from '../model/ids.js';
import type { Instruction } from '../model/instructions.js';
import { POOL_ACCOUNT_PARAMETER } from '../state/exec-pool-lock.js';
import { verifyingKeyParameters, type ZkParameters, zkParameters } from '../state/zk-parameters.js';
import { toHex } from '../util/hex.js';

/** The dev entry fee of a private instruction, in the native asset. */
export const DEV_ENTRY_FEE = '1';

/** The declared parameters: every build installs the module that declares them (refused when none did). */
function declared(): ZkParameters {
  const p = zkParameters();
  if (p === undefined)
    throw new Error(
      'no installed ledger module declares zero-knowledge parameters (is the registry loaded?)',
    );
  return p;
}

/**
 * The pool account's signatory: an Ed25519 key text made from a public hash, whose private key
 * nobody knows, so nobody can sign transfers out of the pool; only note spends move its funds.
 */
export function devPoolAccount(domain: string): string {
  const seed = blake2b256(new TextEncoder().encode('torana shielded pool: nobody holds this key'));
  return accountId(`ed0120${toHex(seed).toUpperCase()}`, domain);
}

/**
 * The development verifying keys (snarkjs' verification-key JSON) shipped in zk/artifacts/, by
 * parameter id, in check order (the module's keys, then the pool's `shielded_note_vk`).
 */
export function devVerifyingKeys(): Record<string, Json> {
  const read = (name: string) =>
    JSON.parse(
      readFileSync(new URL(`../../zk/artifacts/${name}.vkey.json`, import.meta.url), 'utf8'),
    ) as Json;
  return Object.fromEntries(verifyingKeyParameters().map((k) => [k.id, read(k.artifact)]));
}

/** The feature name the capabilities document lists while the development keys are configured. */
export function devKeysFeature(): string {
  return declared().devKeysFeature;
}

/**
 * True when any configured verifying-key parameter is a development key of zk/artifacts/ (same
 * BLAKE2b-256 of its canonical JSON text, keys sorted: the ledger stores Json parameters in that form,
 * so the file's key order must not matter): anyone can forge proofs for it (docs/security.md
 * "Development keys").
 */
export function usesDevelopmentKeys(custom: ReadonlyMap<string, Json>): boolean {
  const digest = (v: Json) => toHex(blake2b256(new TextEncoder().encode(canonicalJson(v))));
  const dev = devVerifyingKeys();
  return Object.entries(dev).some(([id, key]) => {
    const configured = custom.get(id);
    return configured !== undefined && digest(configured) === digest(key);
  });
}

/** SetParameter instructions for the keys, the pool account, the fee and its treasury. */
export function zkParameterInstructions(pool: string, fee: string, treasury: string): Instruction[] {
  const custom = (id: string, payload: Json): Instruction => ({
    kind: 'SetParameter',
    parameter: { kind: 'Custom', id, payload },
  });
  const keys = Object.entries(devVerifyingKeys()).map(([id, vk]) => custom(id, vk));
  const { entryFee, feeAccount } = declared();
  return [...keys, custom(POOL_ACCOUNT_PARAMETER, pool), custom(entryFee, fee), custom(feeAccount, treasury)];
}

/**
 * Registers the pool account in `domain` and sets every zero-knowledge parameter; entry fees go to
 * `treasury` (the dev genesis passes its admin account).
 */
export function devZkInstructions(domain: string, treasury: string): Instruction[] {
  const pool = devPoolAccount(domain);
  return [
    { kind: 'RegisterAccount', id: pool, metadata: new Map() },
    ...zkParameterInstructions(pool, DEV_ENTRY_FEE, treasury),
  ];
}
