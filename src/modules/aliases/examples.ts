// One JSON example of each of this module's instruction kinds.
// The form `torana tx submit` takes (docs/instructions.md). Found by its file name (src/modules/examples.ts):
// the CLI's schema tests check each one against the published schema and the codec, and write them into
// the generated section of this module's docs page, `page`.

import { ALICE, BOB, ROSE } from '../../cli/example-world.js';
import type { Json } from '../../codec/codec.js';

export const page = 'docs/data-model.md';

export const examples: Readonly<Record<string, Json>> = {
  RegisterAccountAlias: { kind: 'RegisterAccountAlias', alias: 'alice@wonderland', account: ALICE },
  TransferAccountAlias: { kind: 'TransferAccountAlias', alias: 'alice@wonderland', destination: BOB },
  RemoveAccountAlias: { kind: 'RemoveAccountAlias', alias: 'alice@wonderland' },
  SetPrimaryAccountAlias: { kind: 'SetPrimaryAccountAlias', alias: 'alice@wonderland' },
  SetAssetAlias: { kind: 'SetAssetAlias', alias: 'rose', definition: ROSE },
  RenewAssetAlias: { kind: 'RenewAssetAlias', alias: 'rose', expires_at_ms: '1798761600000' },
  RemoveAssetAlias: { kind: 'RemoveAssetAlias', alias: 'rose' },
};
