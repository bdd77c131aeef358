// What the transfer control routes read from the node (docs/design/architecture.md "Application families":
// families see small interfaces). The node adapts its committed world state and chain to it
// (node/controls-port.ts).

import type { AccountAlias, AssetAlias } from '../model/aliases.js';
import type { AssetControl, DefinitionControl } from '../model/controls.js';

/** Committed rows; answers are copies the caller may keep. */
export interface ControlsPort {
  /** The control row of (account, definition), keyed by the asset id `<definition>#<account>`. */
  assetControl(assetId: string): AssetControl | undefined;
  definitionControl(definition: string): DefinitionControl | undefined;
  accountExists(id: string): boolean;
  definitionExists(id: string): boolean;
  /** For ids given as aliases (gateway/alias-resolver.ts). */
  accountAlias(alias: string): AccountAlias | undefined;
  assetAlias(alias: string): AssetAlias | undefined;
  /** Height and block time of the committed tip (alias leases; "current" usage buckets). */
  height(): number;
  tipTimeMs(): Promise<number>;
}
