// The transaction history methods of ToranaClient (docs/history.md "SDK and CLI"): the client account's own
// history (a signed request) and the public lists of an account or an asset definition. sdk.ts declares
// them on the ToranaClient interface and installs them (src/sdk/client.ts installClientMethods).

import type { ToranaClient } from '../../sdk/client.js';
import * as history from './sdk-calls.js';

function historyGet(c: ToranaClient, signed: boolean): history.HistoryGet {
  if (signed) return (path, query) => c.signedJson({ method: 'GET', path, query });
  return (path, query) => c.http.json({ method: 'GET', path, query });
}

export const HISTORY_CLIENT_METHODS = {
  /** The client account's history (a signed request: transactions it signed or is named in). */
  transactionHistory(this: ToranaClient, opts?: history.CallerHistoryOptions) {
    return history.historyPage(historyGet(this, true), history.CALLER_HISTORY_PATH, opts);
  },
  /** Every transaction of the client account's history, newest first, along the cursor. */
  walkTransactionHistory(this: ToranaClient, opts?: history.CallerHistoryOptions) {
    return history.walkHistory(historyGet(this, true), history.CALLER_HISTORY_PATH, opts);
  },
  accountTransactions(this: ToranaClient, id: string, opts?: history.HistoryOptions) {
    return history.historyPage(historyGet(this, false), history.accountHistoryPath(id), opts);
  },
  assetDefinitionTransactions(this: ToranaClient, id: string, opts?: history.HistoryOptions) {
    return history.historyPage(historyGet(this, false), history.definitionHistoryPath(id), opts);
  },
} as const;

export type HistoryClientMethods = typeof HISTORY_CLIENT_METHODS;
