// pacs.008 / pacs.009 → one TransferAsset per ISO transaction, all in one signed transaction (README
// "Mapping"). Each transaction's ledger context comes from its pins,
// else the reference-data crosswalks (resolve.ts); with neither, the ledger defaults to this chain and
// accounts and asset must be pinned. The amount moves exactly: currency minor units must fit the asset
// definition's scale, else 422 `amount_scale`.

import { assetId } from '../../../model/ids.js';
import type { Instruction } from '../../../model/instructions.js';
import type { Pacs008Message } from '../messages/pacs008.js';
import type { Pacs009Message } from '../messages/pacs009.js';
import { type ResolvableTransfer, resolveTransfer, transfersOf } from '../resolve.js';
import { normalizeBic } from '../validate/bic.js';
import { Issues } from '../validate/fields.js';
import { businessRule, fieldError, fromIsoErrors } from './errors.js';
import {
  accountIdAt,
  currencyToScale,
  definitionIdAt,
  newRecord,
  type Plan,
  type PlanContext,
  scaleOf,
} from './plan.js';
import { RECORD_TRANSACTIONS_MAX, type RecordTransaction, type RecordTransfer } from './record.js';

type Payment = Pacs008Message | Pacs009Message;

/** The ledger defaults to this chain when neither a pin nor the BIC crosswalk names one. */
function withDefaultLedger(t: ResolvableTransfer, ctx: PlanContext): ResolvableTransfer {
  if (t.pins.ledger_id !== undefined) return t;
  const mapped = [t.source.bic, t.target.bic].some(
    (b) => b !== undefined && ctx.reference.bics.get(normalizeBic(b))?.ledgerId !== undefined,
  );
  return mapped ? t : { ...t, pins: { ...t.pins, ledger_id: ctx.chainId } };
}

function resolveAll(message: Payment, ctx: PlanContext) {
  const is = new Issues();
  const transfers = transfersOf(message).map((t) => withDefaultLedger(t, ctx));
  const contexts = transfers.map((t) => resolveTransfer(t, ctx.reference, is));
  if (!is.ok) throw fromIsoErrors(is.errors);
  return transfers.map((t, i) => {
    const c = contexts[i]!;
    if (c.ledger_id !== ctx.chainId) {
      const path = t.pinPaths.ledger_id ?? t.source.bicPath;
      throw businessRule(
        'ledger_mismatch',
        path,
        `ledger ${c.ledger_id} is not this ledger (${ctx.chainId})`,
      );
    }
    return { transfer: t, context: c };
  });
}

function recordTransaction(t: Payment['transactions'][number]): RecordTransaction {
  return {
    ...(t.instructionId === undefined ? {} : { instructionId: t.instructionId }),
    endToEndId: t.endToEndId,
    ...(t.transactionId === undefined ? {} : { transactionId: t.transactionId }),
    ...(t.uetr === undefined ? {} : { uetr: t.uetr }),
    amount: { mantissa: t.amount.mantissa, scale: t.amount.scale },
    currency: t.amount.currency,
    settlementDate: t.settlementDate,
    ...('debtorBic' in t && t.debtorBic !== undefined ? { debtorBic: t.debtorBic } : {}),
    ...('creditorBic' in t && t.creditorBic !== undefined ? { creditorBic: t.creditorBic } : {}),
  };
}

export function planPayment(message: Payment, ctx: PlanContext): Plan {
  if (message.transactions.length > RECORD_TRANSACTIONS_MAX) {
    throw fieldError(
      'count_max',
      '/Document',
      `the bridge maps at most ${RECORD_TRANSACTIONS_MAX} transactions per message`,
    );
  }
  const resolved = resolveAll(message, ctx);
  const transfers: RecordTransfer[] = [];
  const instructions: Instruction[] = [];
  message.transactions.forEach((tx, i) => {
    const { transfer, context: raw } = resolved[i]!;
    const assetPath = transfer.pinPaths.asset_definition_id ?? transfer.currencyPath;
    const context = {
      source_account_id: accountIdAt(
        raw.source_account_id,
        transfer.pinPaths.source_account_id ?? transfer.source.ibanPath,
      ),
      target_account_id: accountIdAt(
        raw.target_account_id,
        transfer.pinPaths.target_account_id ?? transfer.target.ibanPath,
      ),
      asset_definition_id: definitionIdAt(raw.asset_definition_id, assetPath),
    };
    const scale = scaleOf(ctx, context.asset_definition_id, assetPath);
    const amount = currencyToScale(tx.amount, scale);
    if (amount === undefined) {
      throw businessRule(
        'amount_scale',
        tx.paths.amount,
        `${tx.amount.currency} has ${tx.amount.scale} decimals; asset ${context.asset_definition_id} has scale ${scale}`,
      );
    }
    transfers.push({
      leg: 'payment',
      transactionIndex: i,
      source: context.source_account_id,
      destination: context.target_account_id,
      assetDefinition: context.asset_definition_id,
      amount,
    });
    instructions.push({
      kind: 'TransferAsset',
      source: assetId(context.asset_definition_id, context.source_account_id),
      destination: context.target_account_id,
      amount,
    });
  });
  const record = {
    ...newRecord(ctx, message.kind, message.messageId, message.messageDefinitionId, message.creationTime),
    transfers,
    transactions: message.transactions.map(recordTransaction),
    info: message.kind === 'pacs009' ? { business_message_id: message.businessMessageId } : {},
  };
  return { record, instructions, linked: [] };
}
