// Answer types of the subscription routes, codec types so the JSON answer, the codec answer and the
// OpenAPI schema come from one definition (gateway/view.ts). Rows are the ledger's own
// (model.ts), in their snake_case JSON form.

import { option, seq, struct } from '../../codec/compound.js';
import { varuint } from '../../codec/primitives.js';
import { InvoiceCodec, SubscriptionCodec, SubscriptionIdText, SubscriptionPlanCodec } from './model.js';

export const LIST_ITEMS_MAX = 500;

export const PlanListView = struct('SubscriptionPlanList', {
  items: seq(SubscriptionPlanCodec, LIST_ITEMS_MAX),
  total: varuint,
});

/** One subscription with its latest invoice and its plan (§11 "Shapes"). */
export const SubscriptionItemView = struct('SubscriptionItem', {
  subscriptionId: SubscriptionIdText,
  subscription: SubscriptionCodec,
  invoice: option(InvoiceCodec),
  plan: option(SubscriptionPlanCodec),
});

export const SubscriptionListView = struct('SubscriptionList', {
  items: seq(SubscriptionItemView, LIST_ITEMS_MAX),
  total: varuint,
});
