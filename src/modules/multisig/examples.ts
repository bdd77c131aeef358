// One JSON example of each of this module's instruction kinds.
// The form `torana tx submit` takes (docs/instructions.md). Found by its file name (src/modules/examples.ts):
// the CLI's schema tests check each one against the published schema and the codec, and write them into
// the generated section of this module's docs page, `page`.

import { ALICE, BOB, HASH, MINT } from '../../cli/example-world.js';
import type { Json } from '../../codec/codec.js';

/** The multisig account derived from (wonderland, treasury). */
const MULTISIG = 'ed01205DE9B1D73CF85CE231AA4DCC442E31D9364588D0A5F2654734E57C65CB3CA7A5@wonderland';

export const page = 'docs/multisig.md';

export const examples: Readonly<Record<string, Json>> = {
  RegisterMultisig: {
    kind: 'RegisterMultisig',
    account: MULTISIG,
    seed: 'treasury',
    spec: { signatories: { [ALICE]: 1, [BOB]: 1 }, quorum: 2, transaction_ttl_ms: 3600000 },
  },
  ProposeMultisig: { kind: 'ProposeMultisig', multisig: MULTISIG, instructions: [MINT] },
  ApproveMultisig: { kind: 'ApproveMultisig', multisig: MULTISIG, instructions_hash: HASH },
  CancelMultisig: { kind: 'CancelMultisig', multisig: MULTISIG, instructions_hash: HASH },
  SetMultisigSpec: {
    kind: 'SetMultisigSpec',
    multisig: MULTISIG,
    spec: { signatories: { [ALICE]: 1, [BOB]: 1 }, quorum: 1, transaction_ttl_ms: 3600000 },
  },
};
