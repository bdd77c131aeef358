// Private-mode (ZkRosterV1) conference steps (docs/conference.md "Private rosters (zk-roster-v1)").
// The transparent handlers call these at fixed points, after their own checks (call exists, Active,
// host, capacity) and before their own effects (active count, usage totals, events):
//   privateCreate → the Poseidon Merkle root (depth 8) of the invited commitments, and the fee;
//   privateJoin / privateLeave / privateUsage → verify the roster proof for this call, action and
//   submitting account (`sender`), record its nullifier (table 0x0f); a join also pays the fee by a
//   note spend (exec-shielded.ts); a leave must name a join nullifier already recorded for the call.
// Check order, the first failing one wins: zk_keys_not_configured, nullifier_reused,
// zk_proof_invalid, then conference_not_participant (leave without a join) or the fee's codes. A
// rejected instruction changes nothing (the executor rolls back). One join and one leave per member
// and call: the join nullifier stays spent, so a member who left cannot re-join that call.

import { formatNumeric } from '../../model/numeric.js';
import { type NullifierKind, nullifierId } from '../../model/shielded.js';
import { type ExecContext, type Fail, fail, type InstructionOf } from '../../state/exec-context.js';
import { payFee, spendNullifier } from '../../state/exec-shielded.js';
import { requireZkKeys, verifyProof } from '../../state/exec-zk-keys.js';
import {
  callField,
  createFeeBind,
  joinFeeBind,
  ROSTER_JOIN,
  ROSTER_LEAVE,
  senderField,
  usageRecordField,
} from '../../zk/bind.js';
import { fieldFromHex, fieldToHex } from '../../zk/field.js';
import { merkleRoot } from '../../zk/poseidon-tree.js';
import type { ConferenceCall, Groth16Proof, RosterProof } from './model.js';

/** Depth of a call's roster tree (circuits/roster.circom): 256 invitations. */
export const ROSTER_TREE_DEPTH = 8;

const field = (hex: string): bigint => fieldFromHex(hex) ?? 0n;

/** The roster root of a new private call (64 hex digits) after paying its fee, or why not. */
export function privateCreate(x: ExecContext, ins: InstructionOf<'CreateConference'>): string | Fail {
  const keys = requireZkKeys(x);
  if (keys) return keys;
  const root = fieldToHex(merkleRoot(ROSTER_TREE_DEPTH, ins.rosterCommitments.map(field)));
  const paid = payFee(x, ins.fee, createFeeBind(ins.call, x.authority));
  return paid ?? root;
}

/**
 * A roster-kind proof: unspent nullifier, valid proof for `signals` (the nullifier first), then
 * `before` (a further check on the proved values), then the nullifier is spent.
 */
function provedOnce(
  x: ExecContext,
  kind: NullifierKind,
  vk: string,
  p: RosterProof,
  signals: readonly bigint[],
  before?: () => Fail | undefined,
): Fail | undefined {
  const id = nullifierId(kind, p.nullifier);
  if (x.t.nullifier.has(id)) return fail('nullifier_reused', `${kind} nullifier ${p.nullifier} is spent`);
  const bad = verifyProof(x, vk, p.proof as Groth16Proof, [field(p.nullifier), ...signals]);
  return bad ?? before?.() ?? spendNullifier(x, id);
}

function rosterRoot(call: ConferenceCall): bigint {
  return call.roster.kind === 'ZkRosterV1' ? field(call.roster.root) : 0n;
}

export function privateJoin(
  x: ExecContext,
  call: ConferenceCall,
  ins: InstructionOf<'JoinConference'>,
): Fail | undefined {
  const keys = requireZkKeys(x);
  if (keys || ins.private === undefined) return keys ?? fail('conference_privacy_mismatch');
  const p = ins.private;
  // A join proof's joinNullifier output is its nullifier (action 1): any other value fails.
  const signals = [
    field(p.joinNullifier ?? p.nullifier),
    rosterRoot(call),
    callField(call.id),
    ROSTER_JOIN,
    senderField(x.authority),
  ];
  const proved = provedOnce(x, 'roster', 'conference_roster_vk', p, signals);
  if (proved) return proved;
  const bind = joinFeeBind(call.id, field(p.nullifier), x.authority);
  return payFee(x, ins.fee, bind);
}

export function privateLeave(
  x: ExecContext,
  call: ConferenceCall,
  ins: InstructionOf<'LeaveConference'>,
): Fail | undefined {
  const keys = requireZkKeys(x);
  if (keys || ins.private === undefined) return keys ?? fail('conference_privacy_mismatch');
  const p = ins.private;
  if (p.joinNullifier === undefined)
    return fail(
      'conference_privacy_mismatch',
      'a private leave carries the join nullifier its proof outputs',
    );
  const join = p.joinNullifier;
  const signals = [field(join), rosterRoot(call), callField(call.id), ROSTER_LEAVE, senderField(x.authority)];
  const joined = () =>
    x.t.nullifier.has(nullifierId('roster', join))
      ? undefined
      : fail('conference_not_participant', `no join with nullifier ${join} in ${call.id}`);
  return provedOnce(x, 'roster', 'conference_roster_vk', p, signals, joined);
}

export function privateUsage(
  x: ExecContext,
  call: ConferenceCall,
  ins: InstructionOf<'RecordConferenceUsage'>,
): Fail | undefined {
  const keys = requireZkKeys(x);
  if (keys || ins.private === undefined) return keys ?? fail('conference_privacy_mismatch');
  const record = usageRecordField(call.id, ins.segment, ins.durationMs, formatNumeric(ins.billedGas));
  const signals = [
    rosterRoot(call),
    callField(call.id),
    BigInt(ins.segment),
    record,
    senderField(x.authority),
  ];
  return provedOnce(x, 'usage', 'conference_usage_vk', ins.private, signals);
}
