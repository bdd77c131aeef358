// The explorer module's SDK surface (docs/explorer.md "SDK and CLI"): `client.explorer`, the typed
// readers and streams of the explorer routes (sdk-client.ts, sdk-stream.ts), and their types. The
// registry re-exports these names (src/sdk/index.ts exports the registry's); loading this file installs
// the reader on every client (src/sdk/client.ts installClientReaders).

import { installClientReaders } from '../../sdk/client.js';
import { ExplorerClient } from './sdk-client.js';

export type {
  AssetFilterOptions,
  ExplorerClient,
  ExplorerPageOptions,
  InstructionFilterOptions,
  TransactionFilterOptions,
} from './sdk-client.js';
export type { ExplorerStreamItem, ExplorerStreamOptions } from './sdk-stream.js';

declare module '../../sdk/client.js' {
  interface ToranaClient {
    /** Readers and streams of the explorer routes (docs/explorer.md). */
    readonly explorer: ExplorerClient;
  }
}

installClientReaders({ explorer: (c) => new ExplorerClient(c.http) });

/** The module's SDK functions by name (none besides `client.explorer`). */
export const EXPLORER_SDK = {} as const;
