// CreateConference, EndConference, SetConferenceRelayManifest (docs/conference.md §Instructions).

import {
  type ExecContext,
  type Fail,
  fail,
  type Handler,
  type InstructionOf,
} from '../../state/exec-context.js';
import { copyMetadata, metadataProblem } from '../../state/validate.js';
import { nativeAsset } from './exec-billing.js';
import {
  emitRoster,
  isFail,
  isZero,
  loadCall,
  putCall,
  requireActive,
  requireBillingAllowed,
  requireHost,
  requirePrivacy,
} from './exec-common.js';
import { checkManifest, emitManifest } from './exec-manifest.js';
import { privateCreate } from './exec-private.js';
import { type ConferenceCall, MAX_PARTICIPANTS_LIMIT, parseCallId } from './model.js';

type Create = InstructionOf<'CreateConference'>;

/** Capacity, schedule and metadata: conference_invalid_call, execution_limit. */
function settingsProblem(x: ExecContext, ins: Create): Fail | undefined {
  if (ins.maxParticipants < 1 || ins.maxParticipants > MAX_PARTICIPANTS_LIMIT)
    return fail('conference_invalid_call', `maxParticipants must be 1..${MAX_PARTICIPANTS_LIMIT}`);
  const end = ins.scheduledEndMs;
  if (end !== undefined && end <= ins.scheduledStartMs)
    return fail('conference_invalid_call', 'scheduledEndMs must be after scheduledStartMs');
  if (end !== undefined && end <= BigInt(x.block.blockTimeMs))
    return fail('conference_invalid_call', 'scheduledEndMs is already past');
  const meta = metadataProblem(ins.metadata);
  return meta === undefined ? undefined : fail('execution_limit', meta);
}

/** Checks in order; the roster root of a private call, the empty string for a transparent one. */
function checkCreate(x: ExecContext, ins: Create): string | Fail {
  const domain = parseCallId(ins.call)?.domain ?? '';
  if (!x.t.domain.has(domain)) return fail('domain_not_found', `no domain ${domain}`);
  if (x.t.conferenceCall.has(ins.call)) return fail('already_exists', `${ins.call} exists`);
  if (!x.t.account.has(ins.billingAccount))
    return fail('account_not_found', `no billing account ${ins.billingAccount}`);
  const billing = requireBillingAllowed(x, x.authority, ins.billingAccount);
  if (billing) return billing;
  const priv = ins.privacy.kind === 'ZkRosterV1';
  const artefacts = ins.rosterCommitments.length > 0 || ins.fee !== undefined;
  const mismatch = priv
    ? requirePrivacy(true, ins.rosterCommitments.length > 0, 'roster commitments')
    : requirePrivacy(false, artefacts, 'roster commitments or fee');
  if (mismatch) return mismatch;
  const settings = settingsProblem(x, ins);
  if (settings) return settings;
  if (!isZero(ins.gasRatePerMinute)) {
    const native = nativeAsset(x);
    if (isFail(native)) return native;
  }
  if (ins.manifest !== undefined) {
    const m = checkManifest(x, ins.manifest);
    if (m) return m;
  }
  return priv ? privateCreate(x, ins) : '';
}

export const createConference: Handler<'CreateConference'> = (x, ins) => {
  const root = checkCreate(x, ins);
  if (isFail(root)) return root;
  const call: ConferenceCall = {
    id: ins.call,
    host: x.authority,
    title: ins.title,
    description: ins.description,
    policy: { kind: ins.policy.kind },
    privacy: { kind: ins.privacy.kind },
    scheduledStartMs: ins.scheduledStartMs,
    ...(ins.scheduledEndMs === undefined ? {} : { scheduledEndMs: ins.scheduledEndMs }),
    maxParticipants: ins.maxParticipants,
    gasRatePerMinute: ins.gasRatePerMinute,
    billingAccount: ins.billingAccount,
    metadata: copyMetadata(ins.metadata),
    ...(ins.manifest === undefined ? {} : { manifest: ins.manifest }),
    roster:
      ins.privacy.kind === 'ZkRosterV1'
        ? { kind: 'ZkRosterV1', commitments: [...ins.rosterCommitments], root, active: 0 }
        : { kind: 'Transparent', participants: [] },
    usage: { durationMs: 0n, billedGas: { mantissa: 0n, scale: 0 }, segments: 0 },
    status: { kind: 'Active' },
    createdHeight: x.block.height,
    createdAtMs: BigInt(x.block.blockTimeMs),
  };
  putCall(x, call);
  emitRoster(x, call, 'Created');
  if (call.manifest !== undefined) emitManifest(x, call.id, call.manifest);
  return undefined;
};

export const endConference: Handler<'EndConference'> = (x, ins) => {
  const call = loadCall(x, ins.call);
  if (isFail(call)) return call;
  const denied = requireHost(x, call) ?? requireActive(call);
  if (denied) return denied;
  const endedAtMs = BigInt(x.block.blockTimeMs);
  putCall(x, { ...call, status: { kind: 'Ended' }, endedHeight: x.block.height, endedAtMs });
  x.emit({ kind: 'ConferenceEnded', call: call.id, endedAtMs });
  return undefined;
};

export const setConferenceRelayManifest: Handler<'SetConferenceRelayManifest'> = (x, ins) => {
  const call = loadCall(x, ins.call);
  if (isFail(call)) return call;
  const denied = requireHost(x, call) ?? requireActive(call) ?? checkManifest(x, ins.manifest);
  if (denied) return denied;
  putCall(x, { ...call, manifest: ins.manifest });
  emitManifest(x, call.id, ins.manifest);
  return undefined;
};
