// What the ISO 20022 bridge's routes need from the node: the bridge service itself
// (src/modules/iso20022/bridge/service.ts), present only when `iso20022.enabled`. node/families.ts lists the
// family only then, with the node's bridge as this port.

import type { AuditPage } from '../bridge/audit-page.js';
import type { BridgeRecord, Submitted } from '../bridge/record.js';
import type { ReportKind, RoutedKind } from '../bridge/routed-kinds.js';

/**
 * The ISO 20022 bridge (src/modules/iso20022/bridge/service.ts). Failures are thrown as BridgeError values with
 * codes registered in gateway/ledger-errors.ts.
 */
export interface BridgePort {
  /** The account that signs bridge transactions and anchors the audit manifest. */
  readonly account: string;
  /**
   * `participant`: the account that signed the request (checked against the participants). The same
   * message sent again answers its record with `replayed` set.
   */
  submit(kind: RoutedKind, body: string | object, participant: string): Promise<Submitted>;
  /** Throws 403 `iso_participant_not_authorised` unless `account` is a participant. */
  participant(account: string): unknown;
  record(messageId: string): BridgeRecord;
  report(messageId: string, report: ReportKind): string;
  audit(offset: number, limit: number): AuditPage;
}
