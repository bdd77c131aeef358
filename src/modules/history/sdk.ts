// The transaction history module's SDK surface (docs/history.md "SDK and CLI"): the history methods of
// ToranaClient (installed here, sdk-client.ts) and their types. The registry re-exports these names
// (src/sdk/index.ts exports the registry's); loading this file installs the client methods.

import { installClientMethods } from '../../sdk/client.js';
import { HISTORY_CLIENT_METHODS, type HistoryClientMethods } from './sdk-client.js';

export type {
  CallerHistoryOptions,
  HistoryItem,
  HistoryOptions,
  HistoryPage,
} from './sdk-calls.js';

declare module '../../sdk/client.js' {
  interface ToranaClient extends HistoryClientMethods {}
}

installClientMethods(HISTORY_CLIENT_METHODS);

/** The module's SDK functions by name (none besides the client methods). */
export const HISTORY_SDK = {} as const;
