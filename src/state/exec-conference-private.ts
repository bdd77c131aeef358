// Private-mode (ZkRosterV1) conference steps and shielding (docs/conference.md §Private rosters). The
// transparent handlers call these at fixed points, after their own checks (call exists, Active, host or
// operator, capacity) and before their own effects (active count, usage totals, events):
//   privateCreate → the Poseidon Merkle root of the invited commitments (and the fee spend);
//   privateJoin / privateLeave / privateUsage → verify the roster proof, record the nullifier.
// This version knows only whether the verifying keys are configured; the verifier replaces the rest.

import type { ConferenceCall } from '../model/conference.js';
import { type ExecContext, type Fail, fail, type Handler, type InstructionOf } from './exec-context.js';

/** The custom parameters that hold the verifying keys. */
export const ZK_VK_PARAMETERS = ['conference_roster_vk', 'conference_usage_vk', 'shielded_note_vk'] as const;

/** zk_keys_not_configured unless every verifying-key parameter is set. */
export function requireZkKeys(x: ExecContext): Fail | undefined {
  const custom = x.view.parameters().custom;
  for (const id of ZK_VK_PARAMETERS)
    if (!custom.has(id)) return fail('zk_keys_not_configured', `the ${id} parameter is not set`);
  return undefined;
}

function noVerifier(x: ExecContext): Fail {
  return requireZkKeys(x) ?? fail('zk_keys_not_configured', 'this node has no proof verifier');
}

/** The roster root of a new private call, or why it cannot be created. */
export function privateCreate(x: ExecContext, _ins: InstructionOf<'CreateConference'>): string | Fail {
  return noVerifier(x);
}

export function privateJoin(
  x: ExecContext,
  _call: ConferenceCall,
  _ins: InstructionOf<'JoinConference'>,
): Fail | undefined {
  return noVerifier(x);
}

export function privateLeave(
  x: ExecContext,
  _call: ConferenceCall,
  _ins: InstructionOf<'LeaveConference'>,
): Fail | undefined {
  return noVerifier(x);
}

export function privateUsage(
  x: ExecContext,
  _call: ConferenceCall,
  _ins: InstructionOf<'RecordConferenceUsage'>,
): Fail | undefined {
  return noVerifier(x);
}

export const shieldAsset: Handler<'ShieldAsset'> = (x) => noVerifier(x);
