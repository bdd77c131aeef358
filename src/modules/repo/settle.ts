// Moving the legs of a repo agreement (docs/repo.md "Escrow" and "Transfer rules"). Every movement goes
// through exec-assets.ts `transferValue` (the function TransferAsset uses), so the installed transfer
// checks — freezes, blacklists, allow and deny lists, caps — apply to all four movements: collateral into
// escrow, cash to the borrower, cash and interest back to the lender, collateral out of escrow. The
// escrow account (the `repo_escrow_account` parameter) is locked: only these movements debit it.

import type { Json } from '../../codec/codec.js';
import type { DataEvent } from '../../model/events.js';
import { assetId } from '../../model/ids.js';
import type { Numeric } from '../../model/numeric.js';
import { transferValue } from '../../state/exec-assets.js';
import { type ExecContext, type Fail, fail } from '../../state/exec-context.js';
import { installedScheduledRuns, type ScheduledRunMaker } from '../../state/module-host.js';
import type { StateView } from '../../state/state-view.js';
import { REPO_ESCROW_PARAMETER, type RepoAgreement, repoRunId } from './model.js';

/** Movements the module itself makes (escrow debits pass the lock only while this is above zero). */
let moving = 0;

/** The escrow account the parameter names, if it is a registered account. */
export function escrowOf(view: StateView): string | undefined {
  const v: Json | undefined = view.parameters().custom.get(REPO_ESCROW_PARAMETER);
  return typeof v === 'string' && view.t.account.has(v) ? v : undefined;
}

export function requireEscrow(x: ExecContext): string | Fail {
  return (
    escrowOf(x.view) ??
    fail('repo_not_configured', `the ${REPO_ESCROW_PARAMETER} parameter names no registered account`)
  );
}

/** Moves `quantity` of `definition` from `from` to `to` as the module (no debit authorization asked). */
export function moveLeg(
  x: ExecContext,
  definition: string,
  from: string,
  to: string,
  quantity: Numeric,
): Fail | undefined {
  if (quantity.mantissa === 0n) return undefined;
  moving++;
  try {
    return transferValue(x, assetId(definition, from), to, quantity, false);
  } finally {
    moving--;
  }
}

/** The escrow lock, as the module's transfer check: a debit of the escrow account not made by the module. */
export function escrowLock(x: ExecContext, m: { from?: string | undefined }): Fail | undefined {
  if (moving > 0 || m.from === undefined || m.from !== escrowOf(x.view)) return undefined;
  return fail('repo_escrow_locked', `${m.from} is the repo escrow: only repo settlement moves its funds`);
}

/** The escrow lock, as the module's authority check: the escrow account signs nothing. */
export function escrowAuthority(view: StateView, authority: string): Fail | undefined {
  return authority === escrowOf(view)
    ? fail('repo_escrow_locked', `${authority} is the repo escrow: it signs no transaction`)
    : undefined;
}

/**
 * Runs `body` all or nothing: on a Fail its writes are rolled back and its events dropped (the caller
 * goes on, e.g. to default after an unwind that could not move).
 */
export function attempt(x: ExecContext, body: (y: ExecContext) => Fail | undefined): Fail | undefined {
  const mark = x.view.journal.mark();
  const out: DataEvent[] = [];
  const y: ExecContext = {
    view: x.view,
    t: x.t,
    block: x.block,
    authority: x.authority,
    checkPermissions: x.checkPermissions,
    ...(x.dueItem === undefined ? {} : { dueItem: x.dueItem }),
    runAsDepth: x.runAsDepth,
    emit: (e) => out.push(e),
    runAs: (a, i) => x.runAs(a, i),
  };
  const failed = body(y);
  if (failed !== undefined) {
    x.view.journal.rollback(mark);
    return failed;
  }
  for (const e of out) x.emit(e);
  return undefined;
}

/** (Re)schedules the agreement's one run: at its margin deadline while margin called, else at maturity. */
export function scheduleRun(x: ExecContext, a: RepoAgreement): void {
  const timeMs =
    a.status.kind === 'MarginCalled'
      ? Math.min(a.status.deadlineMs, a.maturityTimestampMs)
      : a.maturityTimestampMs;
  installedScheduledRuns().schedule(x, {
    id: repoRunId(a.id),
    authority: a.counterparty,
    timeMs,
    instructions: [{ kind: 'SettleRepo', id: a.id }],
  });
}

export function unscheduleRun(x: ExecContext, a: RepoAgreement): void {
  installedScheduledRuns().cancel(x, repoRunId(a.id));
}

/**
 * The runs as the store of scheduled runs hears of them: UnregisterTrigger on a `$repo:` id is refused
 * `trigger_reserved` with this message. It is in the committed result (consensus data): never reword it.
 */
export const REPO_RUNS: ScheduledRunMaker = {
  prefix: '$repo:',
  removalRefused: (id) => `${id} belongs to a repo agreement: it ends when the agreement settles`,
};
