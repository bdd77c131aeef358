// The repo agreement instructions (docs/repo.md §Instructions). Check order: the agreement exists → the
// signer's role (initiator, counterparty, price authority; SettleRepo only in its own scheduled run) →
// its status → the values → the escrow → the movements (settle.ts). Time is the block's; figures are
// integers (model.ts states each rounding).

import { encode } from '../../codec/frame.js';
import { MetadataCodec } from '../../model/metadata.js';
import type { Numeric } from '../../model/numeric.js';
import { toScale } from '../../state/amounts.js';
import { type ExecContext, type Fail, fail, type Handler } from '../../state/exec-context.js';
import {
  collateralValue,
  interest,
  meetsRequirement,
  priceOf,
  REPO_HAIRCUT_BPS_MAX,
  REPO_MARGIN_WINDOW_MS_MAX,
  REPO_MARGIN_WINDOW_MS_MIN,
  REPO_METADATA_BYTES_MAX,
  REPO_PRICES_MAX,
  REPO_RATE_BPS_MAX,
  type RepoAgreement,
  type RepoLeg,
  type RepoStatus,
  repoAgreementId,
  repoRunId,
  requirement,
} from './model.js';
import { attempt, moveLeg, requireEscrow, scheduleRun, unscheduleRun } from './settle.js';

const isFail = (v: unknown): v is Fail => typeof v === 'object' && v !== null && 'code' in v;

function agreementOf(x: ExecContext, id: string): RepoAgreement | Fail {
  const a = x.t.repoAgreement.get(id);
  return a === undefined ? fail('repo_not_found', `no repo agreement ${id}`) : a;
}

/** The agreement, signed by one of `roles` (no role check in genesis). */
function signed(x: ExecContext, id: string, roles: (a: RepoAgreement) => string[]): RepoAgreement | Fail {
  const a = agreementOf(x, id);
  if (isFail(a)) return a;
  const may = roles(a);
  if (x.checkPermissions && !may.includes(x.authority))
    return fail('permission_denied', `only ${may.join(' or ')} may do this to ${id}`);
  return a;
}

function inStatus(a: RepoAgreement, ...kinds: RepoStatus['kind'][]): Fail | undefined {
  return kinds.includes(a.status.kind)
    ? undefined
    : fail('repo_invalid_state', `agreement ${a.id} is ${a.status.kind}, not ${kinds.join(' or ')}`);
}

/** A positive amount at the definition's scale. */
function scaled(x: ExecContext, definition: string, q: Numeric, what: string): Numeric | Fail {
  const d = x.t.assetDefinition.get(definition);
  if (d === undefined) return fail('asset_definition_not_found', `no asset definition ${definition}`);
  const s = toScale(q, d.scale);
  if (!s.ok) return fail('repo_invalid', `${what} is > 0 with at most ${d.scale} fraction digits`);
  return { mantissa: s.mantissa, scale: d.scale };
}

/** The leg with its quantity at its definition's scale, metadata within bounds. */
function legOf(x: ExecContext, leg: RepoLeg, what: string): RepoLeg | Fail {
  const quantity = scaled(x, leg.assetDefinitionId, leg.quantity, `the ${what} quantity`);
  if (isFail(quantity)) return quantity;
  if (encode(MetadataCodec, leg.metadata).length > REPO_METADATA_BYTES_MAX)
    return fail('repo_invalid', `a leg's metadata is at most ${REPO_METADATA_BYTES_MAX} bytes encoded`);
  return { ...leg, quantity };
}

function save(x: ExecContext, before: RepoAgreement, a: RepoAgreement): void {
  x.t.repoAgreement.set(a.id, a);
  if (JSON.stringify(before.status) !== JSON.stringify(a.status))
    x.emit({ kind: 'RepoStatusChanged', id: a.id, status: a.status });
}

export const initiateRepo: Handler<'InitiateRepo'> = (x, ins) => {
  const id = repoAgreementId(x.authority, ins.reference);
  for (const account of [ins.counterparty, ...(ins.custodian === undefined ? [] : [ins.custodian])])
    if (!x.t.account.has(account)) return fail('account_not_found', `no account ${account}`);
  const cashLeg = legOf(x, ins.cashLeg, 'cash');
  if (isFail(cashLeg)) return cashLeg;
  const collateralLeg = legOf(x, ins.collateralLeg, 'collateral');
  if (isFail(collateralLeg)) return collateralLeg;
  const now = x.block.blockTimeMs;
  if (ins.reference === '') return fail('repo_invalid', 'an agreement has a reference');
  if (ins.counterparty === x.authority) return fail('repo_invalid', 'the counterparty is another account');
  if (ins.rateBps > REPO_RATE_BPS_MAX || ins.haircutBps > REPO_HAIRCUT_BPS_MAX)
    return fail(
      'repo_invalid',
      `the rate is at most ${REPO_RATE_BPS_MAX} and the haircut at most ${REPO_HAIRCUT_BPS_MAX} basis points`,
    );
  if (ins.marginWindowMs < REPO_MARGIN_WINDOW_MS_MIN || ins.marginWindowMs > REPO_MARGIN_WINDOW_MS_MAX)
    return fail(
      'repo_invalid',
      `the margin window is ${REPO_MARGIN_WINDOW_MS_MIN} to ${REPO_MARGIN_WINDOW_MS_MAX} ms`,
    );
  if (ins.maturityTimestampMs <= now)
    return fail('repo_invalid', `the maturity is after the block time ${now}`);
  if (ins.collateralPrice.mantissa <= 0n) return fail('repo_invalid', 'the collateral price is > 0');
  if (x.t.repoAgreement.has(id)) return fail('repo_exists', `agreement ${id} exists`);
  const a: RepoAgreement = {
    id,
    reference: ins.reference,
    initiator: x.authority,
    counterparty: ins.counterparty,
    ...(ins.custodian === undefined ? {} : { custodian: ins.custodian }),
    cashLeg,
    collateralLeg,
    rateBps: ins.rateBps,
    haircutBps: ins.haircutBps,
    maturityTimestampMs: ins.maturityTimestampMs,
    initiatedTimestampMs: now,
    lastMarginCheckTimestampMs: now,
    prices: [{ assetDefinitionId: collateralLeg.assetDefinitionId, price: ins.collateralPrice }],
    status: { kind: 'Proposed' },
    governance: { priceAuthority: ins.custodian ?? ins.counterparty, marginWindowMs: ins.marginWindowMs },
  };
  x.t.repoAgreement.set(id, a);
  x.emit({
    kind: 'RepoInitiated',
    id,
    initiator: x.authority,
    counterparty: ins.counterparty,
    cashDefinition: cashLeg.assetDefinitionId,
    cash: cashLeg.quantity,
    collateralDefinition: collateralLeg.assetDefinitionId,
    collateral: collateralLeg.quantity,
    maturityMs: ins.maturityTimestampMs,
  });
  return undefined;
};

/** Whether `collateral` meets the agreement's requirement at its price; repo_no_price without one. */
function covered(a: RepoAgreement, collateral: RepoLeg): boolean | Fail {
  const price = priceOf(a, collateral.assetDefinitionId);
  if (price === undefined)
    return fail('repo_no_price', `agreement ${a.id} holds no price for ${collateral.assetDefinitionId}`);
  return meetsRequirement(a.cashLeg.quantity, a.haircutBps, collateral.quantity, price);
}

export const acceptRepo: Handler<'AcceptRepo'> = (x, ins) => {
  const a = signed(x, ins.id, (r) => [r.counterparty]);
  if (isFail(a)) return a;
  const state = inStatus(a, 'Proposed');
  if (state) return state;
  const now = x.block.blockTimeMs;
  if (a.maturityTimestampMs <= now) return fail('repo_invalid', `agreement ${a.id} matured unaccepted`);
  const ok = covered(a, a.collateralLeg);
  if (isFail(ok)) return ok;
  if (!ok) return fail('repo_margin_short', `the collateral of ${a.id} is worth less than its requirement`);
  const escrow = requireEscrow(x);
  if (isFail(escrow)) return escrow;
  const c = a.collateralLeg;
  const moved =
    moveLeg(x, c.assetDefinitionId, a.initiator, escrow, c.quantity) ??
    moveLeg(x, a.cashLeg.assetDefinitionId, a.counterparty, a.initiator, a.cashLeg.quantity);
  if (moved) return moved;
  const open: RepoAgreement = {
    ...a,
    status: { kind: 'Open' },
    escrow,
    initiatedTimestampMs: now,
    lastMarginCheckTimestampMs: now,
  };
  save(x, a, open);
  scheduleRun(x, open);
  x.emit({ kind: 'RepoAccepted', id: a.id, escrow, initiatedMs: now });
  return undefined;
};

export const setRepoPrice: Handler<'SetRepoPrice'> = (x, ins) => {
  const a = signed(x, ins.id, (r) => [r.governance.priceAuthority]);
  if (isFail(a)) return a;
  const state = inStatus(a, 'Proposed', 'Open', 'MarginCalled');
  if (state) return state;
  if (!x.t.assetDefinition.has(ins.assetDefinition))
    return fail('asset_definition_not_found', `no asset definition ${ins.assetDefinition}`);
  if (ins.price.mantissa <= 0n) return fail('repo_invalid', 'a price is > 0');
  const others = a.prices.filter((p) => p.assetDefinitionId !== ins.assetDefinition);
  if (others.length >= REPO_PRICES_MAX)
    return fail('repo_invalid', `an agreement holds at most ${REPO_PRICES_MAX} prices`);
  const prices = [...others, { assetDefinitionId: ins.assetDefinition, price: ins.price }].sort((p, q) =>
    p.assetDefinitionId < q.assetDefinitionId ? -1 : p.assetDefinitionId > q.assetDefinitionId ? 1 : 0,
  );
  x.t.repoAgreement.set(a.id, { ...a, prices });
  x.emit({ kind: 'RepoPriceSet', id: a.id, assetDefinition: ins.assetDefinition, price: ins.price });
  return undefined;
};

/**
 * Recomputes the requirement at the block time: short while open → margin called with a deadline one
 * margin window away (the scheduled run moves to it); met while margin called → open again.
 */
function recheck(x: ExecContext, a: RepoAgreement): RepoAgreement | Fail {
  const ok = covered(a, a.collateralLeg);
  if (isFail(ok)) return ok;
  const now = x.block.blockTimeMs;
  const cash = a.cashLeg.quantity;
  const price = priceOf(a, a.collateralLeg.assetDefinitionId)!;
  x.emit({
    kind: 'RepoMarginChecked',
    id: a.id,
    required: { mantissa: requirement(cash, a.haircutBps), scale: cash.scale },
    value: { mantissa: collateralValue(a.collateralLeg.quantity, price, cash.scale), scale: cash.scale },
    met: ok,
  });
  let status = a.status;
  if (!ok && status.kind === 'Open')
    status = { kind: 'MarginCalled', deadlineMs: now + a.governance.marginWindowMs };
  if (ok && status.kind === 'MarginCalled') status = { kind: 'Open' };
  const next: RepoAgreement = { ...a, status, lastMarginCheckTimestampMs: now };
  save(x, a, next);
  if (status !== a.status) scheduleRun(x, next);
  return next;
}

export const checkRepoMargin: Handler<'CheckRepoMargin'> = (x, ins) => {
  const a = agreementOf(x, ins.id);
  if (isFail(a)) return a;
  const state = inStatus(a, 'Open', 'MarginCalled');
  if (state) return state;
  const r = recheck(x, a);
  return isFail(r) ? r : undefined;
};

export const topUpRepoMargin: Handler<'TopUpRepoMargin'> = (x, ins) => {
  const a = signed(x, ins.id, (r) => [r.initiator]);
  if (isFail(a)) return a;
  const state = inStatus(a, 'Open', 'MarginCalled');
  if (state) return state;
  const c = a.collateralLeg;
  const q = scaled(x, c.assetDefinitionId, ins.quantity, 'the top-up');
  if (isFail(q)) return q;
  const moved = moveLeg(x, c.assetDefinitionId, a.initiator, a.escrow!, q);
  if (moved) return moved;
  const total = { mantissa: c.quantity.mantissa + q.mantissa, scale: q.scale };
  const next: RepoAgreement = { ...a, collateralLeg: { ...c, quantity: total } };
  x.t.repoAgreement.set(a.id, next);
  x.emit({
    kind: 'RepoCollateralChanged',
    id: a.id,
    assetDefinition: c.assetDefinitionId,
    quantity: total,
    substituted: false,
  });
  const r = recheck(x, next);
  return isFail(r) ? r : undefined;
};

export const substituteRepoCollateral: Handler<'SubstituteRepoCollateral'> = (x, ins) => {
  const a = signed(x, ins.id, (r) => [r.initiator]);
  if (isFail(a)) return a;
  const state = inStatus(a, 'Open');
  if (state) return state;
  const leg = legOf(x, ins.collateralLeg, 'collateral');
  if (isFail(leg)) return leg;
  const ok = covered(a, leg);
  if (isFail(ok)) return ok;
  if (!ok)
    return fail('repo_margin_short', `the new collateral of ${a.id} is worth less than its requirement`);
  const old = a.collateralLeg;
  const moved =
    moveLeg(x, leg.assetDefinitionId, a.initiator, a.escrow!, leg.quantity) ??
    moveLeg(x, old.assetDefinitionId, a.escrow!, a.initiator, old.quantity);
  if (moved) return moved;
  x.t.repoAgreement.set(a.id, { ...a, collateralLeg: leg, lastMarginCheckTimestampMs: x.block.blockTimeMs });
  x.emit({
    kind: 'RepoCollateralChanged',
    id: a.id,
    assetDefinition: leg.assetDefinitionId,
    quantity: leg.quantity,
    substituted: true,
  });
  return undefined;
};

/** Cash and interest to the lender, collateral to the borrower; the agreement unwound. */
function unwind(x: ExecContext, a: RepoAgreement, atMaturity: boolean): Fail | undefined {
  const until = atMaturity ? Math.min(x.block.blockTimeMs, a.maturityTimestampMs) : x.block.blockTimeMs;
  const cash = a.cashLeg.quantity;
  const due = interest(cash, a.rateBps, until - a.initiatedTimestampMs);
  const back = { mantissa: cash.mantissa + due, scale: cash.scale };
  const c = a.collateralLeg;
  const moved =
    moveLeg(x, a.cashLeg.assetDefinitionId, a.initiator, a.counterparty, back) ??
    moveLeg(x, c.assetDefinitionId, a.escrow!, a.initiator, c.quantity);
  if (moved) return moved;
  close(x, a, { kind: 'Unwound' });
  x.emit({
    kind: 'RepoSettled',
    id: a.id,
    defaulted: false,
    atMaturity,
    cash,
    interest: { mantissa: due, scale: cash.scale },
    collateralDefinition: c.assetDefinitionId,
    collateral: c.quantity,
    collateralTo: a.initiator,
  });
  return undefined;
}

/** The collateral to the lender; the cash stays with the borrower; the agreement defaulted. */
function defaulted(x: ExecContext, a: RepoAgreement, atMaturity: boolean): Fail | undefined {
  const c = a.collateralLeg;
  const moved = moveLeg(x, c.assetDefinitionId, a.escrow!, a.counterparty, c.quantity);
  if (moved) return moved;
  close(x, a, { kind: 'Defaulted' });
  x.emit({
    kind: 'RepoSettled',
    id: a.id,
    defaulted: true,
    atMaturity,
    cash: a.cashLeg.quantity,
    interest: { mantissa: 0n, scale: a.cashLeg.quantity.scale },
    collateralDefinition: c.assetDefinitionId,
    collateral: c.quantity,
    collateralTo: a.counterparty,
  });
  return undefined;
}

function close(x: ExecContext, a: RepoAgreement, status: RepoStatus): void {
  const { unwindRequestedBy: _, ...rest } = a;
  save(x, a, { ...rest, status, lastMarginCheckTimestampMs: x.block.blockTimeMs });
  unscheduleRun(x, a);
}

export const unwindRepo: Handler<'UnwindRepo'> = (x, ins) => {
  const a = signed(x, ins.id, (r) => [r.initiator, r.counterparty]);
  if (isFail(a)) return a;
  if (a.status.kind === 'Proposed') {
    close(x, a, { kind: 'Unwound' });
    return undefined;
  }
  const state = inStatus(a, 'Open', 'MarginCalled');
  if (state) return state;
  const asked = a.unwindRequestedBy;
  const by = x.authority;
  if (asked === undefined || asked === by) {
    if (asked === by) return fail('repo_invalid_state', `${by} already asked to unwind ${a.id}`);
    x.t.repoAgreement.set(a.id, { ...a, unwindRequestedBy: by });
    x.emit({ kind: 'RepoUnwindRequested', id: a.id, by });
    return undefined;
  }
  return unwind(x, a, false);
};

/**
 * The agreement's scheduled run (its maturity, or its margin deadline). A margin call still unmet at
 * its deadline defaults; at maturity the agreement unwinds, or defaults when the unwind cannot move
 * (the borrower lacks the cash and interest, or a transfer check refuses). When even the default cannot
 * move, the run is put off by one margin window.
 */
export const settleRepo: Handler<'SettleRepo'> = (x, ins) => {
  const a = agreementOf(x, ins.id);
  if (isFail(a)) return a;
  if (x.dueItem !== repoRunId(a.id))
    return fail('repo_settle_not_allowed', `only ${repoRunId(a.id)} settles ${a.id}`);
  const state = inStatus(a, 'Open', 'MarginCalled');
  if (state) return state;
  const now = x.block.blockTimeMs;
  let current = a;
  if (a.status.kind === 'MarginCalled' && now >= a.status.deadlineMs) {
    const r = recheck(x, a);
    if (isFail(r)) return r;
    current = r;
    if (r.status.kind === 'MarginCalled') return settleOrDefer(x, r, false);
  }
  if (now < current.maturityTimestampMs) {
    scheduleRun(x, current);
    return undefined;
  }
  if (attempt(x, (y) => unwind(y, current, true)) === undefined) return undefined;
  return settleOrDefer(x, current, true);
};

function settleOrDefer(x: ExecContext, a: RepoAgreement, atMaturity: boolean): Fail | undefined {
  if (attempt(x, (y) => defaulted(y, a, atMaturity)) === undefined) return undefined;
  scheduleRun(x, {
    ...a,
    maturityTimestampMs: x.block.blockTimeMs + a.governance.marginWindowMs,
    status: { kind: 'Open' },
  });
  return undefined;
}

export const REPO_HANDLERS = {
  InitiateRepo: initiateRepo,
  AcceptRepo: acceptRepo,
  SetRepoPrice: setRepoPrice,
  CheckRepoMargin: checkRepoMargin,
  TopUpRepoMargin: topUpRepoMargin,
  SubstituteRepoCollateral: substituteRepoCollateral,
  UnwindRepo: unwindRepo,
  SettleRepo: settleRepo,
} as const;
