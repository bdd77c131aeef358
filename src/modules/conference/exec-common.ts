// Shared steps of the conference handlers (docs/conference.md): loading a call, the state and role
// checks every instruction makes in the same order, writing a call back, and the roster summary event.

import type { Numeric } from '../../model/numeric.js';
import { permissionKey } from '../../model/permissions.js';
import { heldTokens } from '../../state/authorize.js';
import { type ExecContext, type Fail, fail } from '../../state/exec-context.js';
import type { ConferenceCall, RosterChange } from './model.js';

export function isFail(v: unknown): v is Fail {
  return typeof v === 'object' && v !== null && 'code' in v;
}

/** The call: conference_not_found. */
export function loadCall(x: ExecContext, id: string): ConferenceCall | Fail {
  return x.t.conferenceCall.get(id) ?? fail('conference_not_found', `no conference call ${id}`);
}

/** conference_ended unless the call is Active. */
export function requireActive(call: ConferenceCall): Fail | undefined {
  return call.status.kind === 'Active' ? undefined : fail('conference_ended', `${call.id} has ended`);
}

/** conference_not_host unless the authority is the host. */
export function requireHost(x: ExecContext, call: ConferenceCall): Fail | undefined {
  return x.authority === call.host
    ? undefined
    : fail('conference_not_host', `only the host ${call.host} may do this`);
}

/** conference_privacy_mismatch unless the artefacts are present exactly when the call is private. */
export function requirePrivacy(private_: boolean, artefacts: boolean, what: string): Fail | undefined {
  if (private_ === artefacts) return undefined;
  return fail(
    'conference_privacy_mismatch',
    private_ ? `a private call needs ${what}` : `a transparent call takes no ${what}`,
  );
}

/** Rows are immutable: every change writes a new call object. */
export function putCall(x: ExecContext, call: ConferenceCall): void {
  x.t.conferenceCall.set(call.id, call);
}

/** The number of participants in the roster now. */
export function activeCount(call: ConferenceCall): number {
  return call.roster.kind === 'Transparent' ? call.roster.participants.length : call.roster.active;
}

export function emitRoster(
  x: ExecContext,
  call: ConferenceCall,
  change: RosterChange['kind'],
  participant?: string,
): void {
  x.emit({
    kind: 'ConferenceRosterSummary',
    call: call.id,
    change: { kind: change },
    privacy: { kind: call.privacy.kind },
    ...(participant === undefined ? {} : { participant }),
    active: activeCount(call),
    maxParticipants: call.maxParticipants,
  });
}

/**
 * May `host` bill `billing`? When it is the host itself, or when `billing` granted the host
 * `CanTransferFrom { account: billing }`: conference_billing_not_allowed otherwise.
 */
export function requireBillingAllowed(x: ExecContext, host: string, billing: string): Fail | undefined {
  if (billing === host) return undefined;
  const grant = permissionKey({ name: 'CanTransferFrom', payload: { account: billing } });
  return heldTokens(x.t, host).has(grant)
    ? undefined
    : fail('conference_billing_not_allowed', `${billing} has not granted CanTransferFrom to ${host}`);
}

export function isZero(n: Numeric): boolean {
  return n.mantissa === 0n;
}
