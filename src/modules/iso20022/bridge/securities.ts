// sese.023 → delivery versus payment in ONE signed transaction: the securities leg and the cash leg are
// two TransferAsset instructions, so the executor applies both or neither (src/state/README.md:
// per-transaction atomicity). DELI moves the securities from the instructing party (SourceAccountId) to
// the counterparty (TargetAccountId) and the cash back; RECE the other way round; FREE (FOP) has no cash
// leg. colr.012 → collateral substitution as one atomic swap: the returned collateral goes from the
// taker back to the giver, the delivered collateral from the giver to the taker. sese.024/sese.025 in
// are recorded against the sese.023 they report on.

import { hash } from '../../../crypto/hash.js';
import { assetId } from '../../../model/ids.js';
import type { Instruction } from '../../../model/instructions.js';
import { toHex } from '../../../util/hex.js';
import type { Colr012Message } from '../messages/colr.js';
import type { Sese023Message } from '../messages/sese023.js';
import type { Sese024Message } from '../messages/sese024.js';
import type { Sese025Message } from '../messages/sese025.js';
import { checkQuantity, type DecimalValue, formatDecimal } from '../validate/amount.js';
import type { IsoAmount } from '../validate/fields.js';
import { businessRule, fieldError } from './errors.js';
import {
  accountIdAt,
  currencyToScale,
  definitionIdAt,
  newRecord,
  type Plan,
  type PlanContext,
  scaleOf,
  toScale,
  withLink,
} from './plan.js';
import type { BridgeRecord, RecordTransfer } from './record.js';
import { originalOf } from './returns.js';
import { type Pin, readSecuritiesPins } from './securities-pins.js';

const SESE023 = 'SctiesSttlmTxInstr';
const COLR012 = 'CollSbstitnConf';

function required(
  pin: Pin | undefined,
  rule: 'account_unresolved' | 'asset_unresolved',
  what: string,
): string {
  if (pin?.value === undefined) throw businessRule(rule, pin?.path ?? '/Document', `${what} must be pinned`);
  return pin.value;
}

/** The account a required pin names, checked where it was read. */
function pinnedAccount(pin: Pin | undefined, what: string): string {
  return accountIdAt(required(pin, 'account_unresolved', what), pin!.path);
}

function checkLedger(ctx: PlanContext, pin: Pin | undefined): void {
  if (pin?.value !== undefined && pin.value !== ctx.chainId) {
    throw businessRule(
      'ledger_mismatch',
      pin.path,
      `ledger ${pin.value} is not this ledger (${ctx.chainId})`,
    );
  }
}

function leg(
  ctx: PlanContext,
  name: string,
  from: string,
  to: string,
  definition: { id: string; path: string },
  value: DecimalValue,
  valuePath: string,
): RecordTransfer {
  const scale = scaleOf(ctx, definition.id, definition.path);
  // Cash follows the currency rule (plan.ts currencyToScale); a securities quantity only has to fit exactly.
  const amount = 'currency' in value ? currencyToScale(value as IsoAmount, scale) : toScale(value, scale);
  if (amount === undefined) {
    throw businessRule(
      name === 'cash' ? 'amount_scale' : 'quantity_scale',
      valuePath,
      `does not fit the scale ${scale} of ${definition.id}`,
    );
  }
  return {
    leg: name,
    transactionIndex: 0,
    source: from,
    destination: to,
    assetDefinition: definition.id,
    amount,
  };
}

function instructionsOf(transfers: readonly RecordTransfer[]): Instruction[] {
  return transfers.map((t) => ({
    kind: 'TransferAsset',
    source: assetId(t.assetDefinition, t.source),
    destination: t.destination,
    amount: t.amount,
  }));
}

const QUANTITY_ELEMENTS = { unit: 'Unit', face_amount: 'FaceAmt', amortised_value: 'AmtsdVal' } as const;

function cashLeg(ctx: PlanContext, m: Sese023Message, pins: Record<string, Pin>, from: string, to: string) {
  const amount = m.settlementAmount!;
  const ccyPath = `/Document/${SESE023}/SttlmAmt/Amt/@Ccy`;
  const pinned = pins.CashAssetDefinitionId!;
  const mapped = ctx.reference.currencies.get(amount.currency);
  const id = pinned.value ?? mapped;
  if (id === undefined)
    throw businessRule(
      'asset_unresolved',
      ccyPath,
      `no cash asset pin and no crosswalk entry for ${amount.currency}`,
    );
  const path = pinned.value === undefined ? ccyPath : pinned.path;
  return leg(
    ctx,
    'cash',
    from,
    to,
    { id: definitionIdAt(id, path), path },
    amount,
    `/Document/${SESE023}/SttlmAmt/Amt`,
  );
}

export function planSese023(m: Sese023Message, ctx: PlanContext): Plan {
  const names = [
    'LedgerId',
    'SourceAccountId',
    'TargetAccountId',
    'AssetDefinitionId',
    'CashAssetDefinitionId',
  ];
  const pins = readSecuritiesPins(ctx.body, SESE023, names, ctx.xmlLimits);
  checkLedger(ctx, pins.LedgerId);
  const owner = pinnedAccount(pins.SourceAccountId, 'the instructing party account');
  const other = pinnedAccount(pins.TargetAccountId, 'the counterparty account');
  const security = {
    id: definitionIdAt(
      required(pins.AssetDefinitionId, 'asset_unresolved', 'the security asset definition'),
      pins.AssetDefinitionId!.path,
    ),
    path: pins.AssetDefinitionId!.path,
  };
  const delivers = m.movement === 'DELI';
  const [from, to] = delivers ? [owner, other] : [other, owner];
  const qtyPath = `/Document/${SESE023}/QtyAndAcctDtls/SttlmQty/Qty/${QUANTITY_ELEMENTS[m.quantity.type]}`;
  const transfers = [leg(ctx, 'securities', from, to, security, m.quantity.value, qtyPath)];
  if (m.paymentType !== 'FOP') transfers.push(cashLeg(ctx, m, pins, to, from));
  const record = {
    ...newRecord(ctx, 'sese023', m.transactionId, m.messageDefinitionId, undefined),
    transfers,
    info: {
      movement: m.movement,
      payment: m.payment,
      payment_type: m.paymentType,
      trade_date: m.tradeDate ?? null,
      settlement_date: m.settlementDate,
      isin: m.isin,
      quantity_type: m.quantity.type,
      quantity: formatDecimal(m.quantity.value),
      safekeeping_account: m.safekeepingAccount,
      delivering: partiesJson(m.delivering),
      receiving: partiesJson(m.receiving),
      settlement_amount: m.settlementAmount === undefined ? null : m.settlementAmount.text,
      currency: m.settlementAmount?.currency ?? null,
      credit_debit: m.creditDebit ?? null,
    },
  };
  return { record, instructions: instructionsOf(transfers), linked: [] };
}

function partiesJson(p: Sese023Message['delivering']) {
  if (p === undefined) return null;
  return {
    depository_bic: p.depositoryBic ?? null,
    party_bic: p.partyBic ?? null,
    party_safekeeping_account: p.partySafekeepingAccount ?? null,
  };
}

function quantityPin(pin: Pin): DecimalValue {
  const text = pin.value;
  if (text === undefined)
    throw businessRule('asset_unresolved', pin.path, 'the collateral quantity must be pinned');
  const q = checkQuantity(text);
  if (!q.ok) throw fieldError('quantity_format', pin.path, q.message);
  return q.value;
}

export function planColr012(m: Colr012Message, ctx: PlanContext): Plan {
  const names = [
    'LedgerId',
    'SourceAccountId',
    'TargetAccountId',
    'ReturnedAssetDefinitionId',
    'ReturnedQuantity',
    'DeliveredAssetDefinitionId',
    'DeliveredQuantity',
  ];
  const pins = readSecuritiesPins(ctx.body, COLR012, names, ctx.xmlLimits);
  checkLedger(ctx, pins.LedgerId);
  const giver = pinnedAccount(pins.SourceAccountId, 'the collateral giver account');
  const taker = pinnedAccount(pins.TargetAccountId, 'the collateral taker account');
  const side = (asset: string, quantity: string) => {
    const a = pins[asset]!;
    return {
      def: {
        id: definitionIdAt(required(a, 'asset_unresolved', 'the collateral asset'), a.path),
        path: a.path,
      },
      qty: pins[quantity]!,
    };
  };
  const returned = side('ReturnedAssetDefinitionId', 'ReturnedQuantity');
  const delivered = side('DeliveredAssetDefinitionId', 'DeliveredQuantity');
  const transfers = [
    leg(ctx, 'collateral_returned', taker, giver, returned.def, quantityPin(returned.qty), returned.qty.path),
    leg(
      ctx,
      'collateral_delivered',
      giver,
      taker,
      delivered.def,
      quantityPin(delivered.qty),
      delivered.qty.path,
    ),
  ];
  const record = {
    ...newRecord(ctx, 'colr012', m.transactionId, m.messageDefinitionId, undefined),
    transfers,
    info: {
      request_id: m.requestId,
      response_id: m.responseId ?? null,
      confirmation_type: m.confirmationType,
      party_a_bic: m.obligation.partyABic ?? null,
      party_b_bic: m.obligation.partyBBic ?? null,
      collateral_account_id: m.obligation.collateralAccountId ?? null,
      valuation_date: m.obligation.valuationDate,
    },
  };
  return { record, instructions: instructionsOf(transfers), linked: [] };
}

/** sese.024/.025 have no message id of their own in the subset read: the AppHdr's, else a content hash. */
export function securitiesReportId(m: Sese024Message | Sese025Message, body: string | object): string {
  if (m.appHeader !== undefined) return m.appHeader.businessMessageId;
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return `${m.kind.toUpperCase()}-${toHex(hash(new TextEncoder().encode(text))).slice(0, 24)}`;
}

export function planSecuritiesReport(m: Sese024Message | Sese025Message, ctx: PlanContext): Plan {
  const ids = m.kind === 'sese024' ? 'TxId' : 'TxIdDtls';
  const root = m.kind === 'sese024' ? 'SctiesSttlmTxStsAdvc' : 'SctiesSttlmTxConf';
  const path = `/Document/${root}/${ids}/AcctOwnrTxId`;
  const id = securitiesReportId(m, ctx.body);
  const original = originalOf(ctx, m.accountOwnerTransactionId, path, new Set(['sese023']));
  const info =
    m.kind === 'sese024'
      ? {
          processing: m.processingStatus ?? null,
          matching: m.matchingStatus ?? null,
          settlement: m.settlementStatus ?? null,
        }
      : {
          effective_settlement_date: m.effectiveSettlementDate,
          settled_quantity: formatDecimal(m.settledQuantity.value),
        };
  const record: BridgeRecord = {
    ...newRecord(ctx, m.kind, id, m.messageDefinitionId, undefined),
    status: 'Accepted',
    originalMessageId: original.messageId,
    info: JSON.parse(
      JSON.stringify({ ...info, account_servicer_transaction_id: m.accountServicerTransactionId ?? null }),
    ),
  };
  const updated = { ...withLink(original, m.kind, id, path), updatedAtMs: ctx.nowMs };
  return { record, instructions: [], linked: [{ record: updated, event: 'status_report' }] };
}
