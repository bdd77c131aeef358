// What the transfer control routes read from the node (docs/design/architecture.md "Application families":
// families see small interfaces). The node adapts its committed world state and chain to it
// (node/controls-port.ts).

import type { IdNameState } from '../gateway/id-resolver.js';
import type { AssetControl, DefinitionControl } from '../model/controls.js';

/** Committed rows; answers are copies the caller may keep. Ids may be given as names (gateway/id-resolver.ts). */
export interface ControlsPort extends IdNameState {
  /** The control row of (account, definition), keyed by the asset id `<definition>#<account>`. */
  assetControl(assetId: string): AssetControl | undefined;
  definitionControl(definition: string): DefinitionControl | undefined;
  accountExists(id: string): boolean;
  definitionExists(id: string): boolean;
  /** Height and block time of the committed tip (alias leases; "current" usage buckets). */
  height(): number;
  tipTimeMs(): Promise<number>;
}
