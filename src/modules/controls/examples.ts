// One JSON example of each of this module's instruction kinds.
// The form `torana tx submit` takes (docs/instructions.md). Found by its file name (src/modules/examples.ts):
// the CLI's schema tests check each one against the published schema and the codec, and write them into
// the generated section of this module's docs page, `page`.

import { BOB, ROSE } from '../../cli/example-world.js';
import type { Json } from '../../codec/codec.js';

export const page = 'docs/controls.md';

export const examples: Readonly<Record<string, Json>> = {
  SetTransferFreeze: { kind: 'SetTransferFreeze', definition: ROSE, account: BOB, frozen: true },
  SetTransferBlacklist: { kind: 'SetTransferBlacklist', definition: ROSE, account: BOB, blacklisted: true },
  SetTransferListEntry: {
    kind: 'SetTransferListEntry',
    definition: ROSE,
    list: { kind: 'Allow' },
    account: BOB,
    listed: true,
  },
  SetTransferCap: {
    kind: 'SetTransferCap',
    definition: ROSE,
    window: { kind: 'Day' },
    cap: '1000',
  },
};
