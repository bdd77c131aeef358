// Groth16 verifying keys as network parameters (docs/security.md "Development keys"). The payload
// of a verifying-key custom parameter (one per circuit: roster membership, usage, note spend) is
// snarkjs' verification-key JSON (`snarkjs zkey export verificationkey`): protocol "groth16",
// curve "bn128", nPublic, vk_alpha_1, vk_beta_2, vk_gamma_2, vk_delta_2 and IC, coordinates as
// decimal strings, projective with z = 1 (vk_alphabeta_12 may be present and is ignored).
// Parsing validates every point (curve, subgroup) and is cached by the payload's content hash:
// the cache only memoises a pure function, so it cannot make two nodes disagree.
import { blake2b256 } from '../crypto/hash.js';
import { toHex } from '../util/hex.js';
import {
  g1FromCoordinates,
  g2FromCoordinates,
  type PreparedVerifyingKey,
  prepareKey,
} from './groth16-verify.js';

/** A JSON value (the shape of a custom parameter's payload; the same as codec's Json). */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Public inputs a key may declare: far above what our circuits use, low enough to bound work. */
export const VK_PUBLIC_MAX = 16;
const CACHE_ENTRIES_MAX = 16;

const DECIMAL = /^(0|[1-9][0-9]{0,77})$/;

function decimal(v: Json | undefined): bigint | undefined {
  return typeof v === 'string' && DECIMAL.test(v) ? BigInt(v) : undefined;
}

function array(v: Json | undefined, length: number): Json[] | undefined {
  return Array.isArray(v) && v.length === length ? v : undefined;
}

function g1(v: Json | undefined) {
  const c = array(v, 3);
  if (c === undefined || decimal(c[2]) !== 1n) return undefined;
  const x = decimal(c[0]);
  const y = decimal(c[1]);
  return x === undefined || y === undefined ? undefined : g1FromCoordinates(x, y);
}

function g2(v: Json | undefined) {
  const c = array(v, 3);
  const x = array(c?.[0], 2);
  const y = array(c?.[1], 2);
  const z = array(c?.[2], 2);
  if (x === undefined || y === undefined || z === undefined) return undefined;
  if (decimal(z[0]) !== 1n || decimal(z[1]) !== 0n) return undefined;
  const coords = [x[0], x[1], y[0], y[1]].map(decimal);
  if (coords.some((k) => k === undefined)) return undefined;
  const [xc0, xc1, yc0, yc1] = coords as bigint[];
  return g2FromCoordinates(xc0!, xc1!, yc0!, yc1!);
}

/** Parses and validates a key payload; undefined when anything is malformed. */
export function parseVerifyingKey(payload: Json): PreparedVerifyingKey | undefined {
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return undefined;
  if (payload['protocol'] !== 'groth16' || payload['curve'] !== 'bn128') return undefined;
  const nPublic = payload['nPublic'];
  if (typeof nPublic !== 'number' || !Number.isInteger(nPublic) || nPublic < 0 || nPublic > VK_PUBLIC_MAX) {
    return undefined;
  }
  const icJson = array(payload['IC'], nPublic + 1);
  if (icJson === undefined) return undefined;
  const alpha = g1(payload['vk_alpha_1']);
  const beta = g2(payload['vk_beta_2']);
  const gamma = g2(payload['vk_gamma_2']);
  const delta = g2(payload['vk_delta_2']);
  const ic = icJson.map(g1);
  if (alpha === undefined || beta === undefined || gamma === undefined || delta === undefined)
    return undefined;
  if (ic.some((p) => p === undefined)) return undefined;
  return prepareKey({ alpha, beta, gamma, delta, ic: ic as NonNullable<(typeof ic)[number]>[] });
}

/**
 * The content hash a key is cached under: BLAKE2b-256 of its JSON text. The text is not canonical
 * (key order follows the payload), which can only cost a cache miss: the parsed key is a function
 * of the content, never of the order.
 */
export function verifyingKeyId(payload: Json): string {
  return toHex(blake2b256(new TextEncoder().encode(JSON.stringify(payload))));
}

/** A bounded memo of parseVerifyingKey by content hash; one instance per process is fine (pure). */
export class VerifyingKeyCache {
  private readonly entries = new Map<string, PreparedVerifyingKey | undefined>();

  get(payload: Json): PreparedVerifyingKey | undefined {
    const id = verifyingKeyId(payload);
    if (this.entries.has(id)) return this.entries.get(id);
    const key = parseVerifyingKey(payload);
    if (this.entries.size >= CACHE_ENTRIES_MAX) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(id, key);
    return key;
  }
}
