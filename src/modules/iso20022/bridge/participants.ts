// Bridge participants (docs/iso20022.md "Participants"): the institutions allowed to
// submit to the bridge. A participant is a ledger account (its key signs every bridge request, gateway
// signed-request.ts) bound to its BICs, and the ledger accounts it acts for:
//
//   participants.json  { "<account id>": { "bics": ["DEUTDEFFXXX"], "account_ids": ["<account id>"] } }
//
// It acts for its own account, the `account_ids` listed here, and the accounts the BIC crosswalk lists for
// its BICs (reference-data.ts). Pins and crosswalks can only narrow this set, never widen it.

import { parseAccountId } from '../../../model/ids.js';
import type { ReferenceData } from '../reference-data.js';
import { checkBic, normalizeBic } from '../validate/bic.js';
import { BridgeError } from './errors.js';

/** Most participants one file may hold, and most BICs or accounts per participant. */
export const PARTICIPANTS_MAX = 10_000;
export const PARTICIPANT_ITEMS_MAX = 1_000;

export interface Participant {
  readonly account: string;
  /** BIC11 (a BIC8 is stored with branch XXX). */
  readonly bics: ReadonlySet<string>;
  readonly accountIds: ReadonlySet<string>;
}

export type Participants = ReadonlyMap<string, Participant>;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function strings(v: unknown, where: string, problems: string[]): string[] {
  if (v === undefined) return [];
  if (!Array.isArray(v) || v.length > PARTICIPANT_ITEMS_MAX || v.some((x) => typeof x !== 'string')) {
    problems.push(`${where}: expected a list of at most ${PARTICIPANT_ITEMS_MAX} strings`);
    return [];
  }
  return v as string[];
}

/** Validates the decoded participants file; every problem is reported (with its `account/field` path). */
export function buildParticipants(
  json: unknown,
): { ok: true; value: Participants } | { ok: false; errors: string[] } {
  const problems: string[] = [];
  const out = new Map<string, Participant>();
  if (!isRecord(json)) return { ok: false, errors: ['expected a JSON object of account id → participant'] };
  const entries = Object.entries(json);
  if (entries.length > PARTICIPANTS_MAX) problems.push(`more than ${PARTICIPANTS_MAX} participants`);
  for (const [account, entry] of entries.slice(0, PARTICIPANTS_MAX)) {
    if (parseAccountId(account) === undefined) problems.push(`${account}: not an account id`);
    if (!isRecord(entry)) {
      problems.push(`${account}: expected { "bics": [...], "account_ids": [...] }`);
      continue;
    }
    const unknown = Object.keys(entry).filter((k) => k !== 'bics' && k !== 'account_ids');
    if (unknown.length > 0) problems.push(`${account}: unknown field ${unknown[0]}`);
    const bics = strings(entry.bics, `${account}/bics`, problems);
    for (const b of bics) if (!checkBic(b).ok) problems.push(`${account}/bics: ${b} is not a BIC`);
    const accountIds = strings(entry.account_ids, `${account}/account_ids`, problems);
    for (const a of accountIds)
      if (parseAccountId(a) === undefined) problems.push(`${account}/account_ids: ${a} is not an account id`);
    out.set(account, { account, bics: new Set(bics.map(normalizeBic)), accountIds: new Set(accountIds) });
  }
  return problems.length === 0 ? { ok: true, value: out } : { ok: false, errors: problems };
}

export function notAuthorised(reason: string, message: string, details: Record<string, unknown> = {}) {
  return new BridgeError('iso_participant_not_authorised', message, { reason, ...details });
}

/** Whether `p` holds `bic` (BIC8 or BIC11). */
export function holdsBic(p: Participant, bic: string): boolean {
  return p.bics.has(normalizeBic(bic));
}

/** Whether `p` may act for (debit) `account`: its own, listed for it, or listed for one of its BICs. */
export function actsFor(p: Participant, account: string, ref: ReferenceData): boolean {
  if (account === p.account || p.accountIds.has(account)) return true;
  for (const bic of p.bics) if (ref.bics.get(bic)?.accountIds?.has(account) === true) return true;
  return false;
}
