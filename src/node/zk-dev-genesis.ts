// The zero-knowledge part of the dev genesis (docs/conference.md "Development keys"): the shielded
// pool account, the conference entry fee and the DEVELOPMENT verifying keys from zk/artifacts/, so
// private conferences work out of the box on `torana init` chains and testnets. The development keys
// come from a public-beacon setup (scripts/build-circuits.mjs): anyone can forge proofs for them.
// A production network sets keys from a real ceremony with SetParameter instead.
import { readFileSync } from 'node:fs';
import type { Json } from '../codec/codec.js';
import { canonicalJson } from '../codec/json.js';
import { blake2b256 } from '../crypto/hash.js';
import { accountId } from '../model/ids.js';
import type { Instruction } from '../model/instructions.js';
import { toHex } from '../util/hex.js';

/** Parameter id → artifact name in zk/artifacts/. */
const DEV_KEYS = {
  conference_roster_vk: 'roster',
  conference_usage_vk: 'usage',
  shielded_note_vk: 'note_spend',
} as const;

/** The dev entry fee of a private create or join, in the native asset. */
export const DEV_ENTRY_FEE = '1';

/**
 * The pool account's signatory: an Ed25519 key text made from a public hash, whose private key
 * nobody knows, so nobody can sign transfers out of the pool; only note spends move its funds.
 */
export function devPoolAccount(domain: string): string {
  const seed = blake2b256(new TextEncoder().encode('torana shielded pool: nobody holds this key'));
  return accountId(`ed0120${toHex(seed).toUpperCase()}`, domain);
}

/** The development verifying keys (snarkjs' verification-key JSON) shipped in zk/artifacts/. */
export function devVerifyingKeys(): Record<keyof typeof DEV_KEYS, Json> {
  const read = (name: string) =>
    JSON.parse(
      readFileSync(new URL(`../../zk/artifacts/${name}.vkey.json`, import.meta.url), 'utf8'),
    ) as Json;
  return {
    conference_roster_vk: read(DEV_KEYS.conference_roster_vk),
    conference_usage_vk: read(DEV_KEYS.conference_usage_vk),
    shielded_note_vk: read(DEV_KEYS.shielded_note_vk),
  };
}

/** The feature name the capabilities document lists while the development keys are configured. */
export const DEV_KEYS_FEATURE = 'conference.dev_keys';

/**
 * True when any configured verifying-key parameter is a development key of zk/artifacts/ (same
 * BLAKE2b-256 of its canonical JSON text, keys sorted: the ledger stores Json parameters in that form,
 * so the file's key order must not matter): anyone can forge proofs for it (docs/security.md
 * "Development keys").
 */
export function usesDevelopmentKeys(custom: ReadonlyMap<string, Json>): boolean {
  const digest = (v: Json) => toHex(blake2b256(new TextEncoder().encode(canonicalJson(v))));
  const dev = devVerifyingKeys();
  return (Object.keys(DEV_KEYS) as (keyof typeof DEV_KEYS)[]).some((id) => {
    const configured = custom.get(id);
    return configured !== undefined && digest(configured) === digest(dev[id]);
  });
}

/** SetParameter instructions for the keys, the pool account, the fee and its treasury. */
export function zkParameterInstructions(pool: string, fee: string, treasury: string): Instruction[] {
  const custom = (id: string, payload: Json): Instruction => ({
    kind: 'SetParameter',
    parameter: { kind: 'Custom', id, payload },
  });
  const keys = Object.entries(devVerifyingKeys()).map(([id, vk]) => custom(id, vk));
  return [
    ...keys,
    custom('shielded_pool_account', pool),
    custom('conference_entry_fee', fee),
    custom('conference_fee_account', treasury),
  ];
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
