// Per routed message kind: its message id (the idempotency key) and its planner. README "Supported
// messages" lists the id each kind is keyed by.

import { type MessageMap, parseMessage } from '../parse.js';
import { planCamt056 } from './cancellations.js';
import { fromIsoErrors } from './errors.js';
import { planPayment } from './payments.js';
import type { Plan, PlanContext } from './plan.js';
import { planPacs002, planPacs004 } from './returns.js';
import type { RoutedKind } from './routed-kinds.js';
import { planColr012, planSecuritiesReport, planSese023, securitiesReportId } from './securities.js';

export type RoutedMessage = MessageMap[RoutedKind];

/** Parses and validates a body of the route's kind; a failure is a 400/422 BridgeError. */
export function parseRouted(kind: RoutedKind, body: string | object, ctx: Pick<PlanContext, 'xmlLimits'>) {
  const r = parseMessage(kind, body, { limits: ctx.xmlLimits });
  if (!r.ok) throw fromIsoErrors(r.errors);
  return r.message as RoutedMessage;
}

export function messageIdOf(m: RoutedMessage, body: string | object): string {
  switch (m.kind) {
    case 'pacs008':
    case 'pacs009':
    case 'pacs002':
    case 'pacs004':
      return m.messageId;
    case 'camt056':
      return m.assignment.id;
    case 'sese023':
    case 'colr012':
      return m.transactionId;
    case 'sese024':
    case 'sese025':
      return securitiesReportId(m, body);
  }
}

export function planOf(m: RoutedMessage, ctx: PlanContext): Plan {
  switch (m.kind) {
    case 'pacs008':
    case 'pacs009':
      return planPayment(m, ctx);
    case 'pacs002':
      return planPacs002(m, ctx);
    case 'pacs004':
      return planPacs004(m, ctx);
    case 'camt056':
      return planCamt056(m, ctx);
    case 'sese023':
      return planSese023(m, ctx);
    case 'sese024':
    case 'sese025':
      return planSecuritiesReport(m, ctx);
    case 'colr012':
      return planColr012(m, ctx);
  }
}
