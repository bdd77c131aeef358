// The public inputs that tie a proof to one ledger action (a roster-membership proof, a usage record's
// proof, a note spend). Each is a field element derived from text by fieldFromDigest, with a
// domain-separation tag per use, so a proof made for one call, action or record verifies for no
// other. Parts never contain NUL, which separates them.
import { fieldFromDigest } from './field.js';

/** Roster actions, the `action` public input of circuits/roster.circom (usage is 3, in its own circuit). */
export const ROSTER_JOIN = 1n;
export const ROSTER_LEAVE = 2n;
export const USAGE_ACTION = 3n;

function digest(tag: string, parts: readonly string[]): bigint {
  return fieldFromDigest(new TextEncoder().encode([tag, ...parts].join('\0')));
}

/** `callField`: the call id (`domain:call_name`) as a field element. */
export function callField(callId: string): bigint {
  return digest('torana/zk/call/v1', [callId]);
}

/**
 * `sender` of circuits/roster.circom and usage.circom: the account that submits the transaction
 * (its authority), so a proof copied from the mempool into another account's transaction fails.
 */
export function senderField(authority: string): bigint {
  return digest('torana/zk/sender/v1', [authority]);
}

/**
 * `record` of circuits/usage.circom: one usage record (segment, durationMs, billedGas as its
 * canonical decimal text), so a usage proof cannot be replayed with other figures.
 */
export function usageRecordField(
  callId: string,
  segment: number,
  durationMs: bigint,
  billedGas: string,
): bigint {
  return digest('torana/zk/usage/v1', [callId, String(segment), durationMs.toString(), billedGas]);
}

/**
 * `bind` of circuits/note_spend.circom for the fee of a private create: the call and the account
 * that creates it, so a copied spend cannot pay for someone else's call.
 */
export function createFeeBind(callId: string, authority: string): bigint {
  return digest('torana/zk/fee/v1', [callId, 'create', authority]);
}

/**
 * `bind` for the fee of a private join: the call, the join's roster nullifier and the submitting
 * account, so the spend pays for exactly this join, by this account, and a copied spend pays for
 * nobody else's.
 */
export function joinFeeBind(callId: string, rosterNullifier: bigint, authority: string): bigint {
  return digest('torana/zk/fee/v1', [callId, 'join', rosterNullifier.toString(16), authority]);
}
