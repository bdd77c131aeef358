// One JSON example of each of this module's instruction kinds.
// The form `torana tx submit` takes (docs/instructions.md). Found by its file name (src/modules/examples.ts):
// the CLI's schema tests check each one against the published schema and the codec, and write them into
// the generated section of this module's docs page, `page`.

import { MINT } from '../../cli/example-world.js';
import type { Json } from '../../codec/codec.js';

export const page = 'docs/triggers.md';

export const examples: Readonly<Record<string, Json>> = {
  RegisterTrigger: {
    kind: 'RegisterTrigger',
    id: 'nightly-mint',
    due: { kind: 'Height', height: 100 },
    repeat: { kind: 'EveryBlocks', blocks: 100 },
    instructions: [MINT],
  },
  UnregisterTrigger: { kind: 'UnregisterTrigger', id: 'nightly-mint' },
};
