// One JSON example of each of this module's instruction kinds.
// The form `torana tx submit` takes (docs/instructions.md). Found by its file name (src/modules/examples.ts):
// the CLI's schema tests check each one against the published schema and the codec, and write them into
// the generated section of this module's docs page, `page`.

import { BOB, ROSE } from '../../cli/example-world.js';
import type { Json } from '../../codec/codec.js';

export const page = 'docs/rwas.md';

/** A lot id of the examples' world (the lot `rwaLotId(alice, 'WR-2026-00042')` where it was registered). */
const LOT = 'rwa_3f1c0e8b9a7d6c5b4a39281706f5e4d3c2b1a098';
const LOT2 = 'rwa_9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b';

export const examples: Readonly<Record<string, Json>> = {
  RegisterRwa: {
    kind: 'RegisterRwa',
    reference: 'WR-2026-00042',
    spec: 'copper-cathode-grade-a',
    quantity: '250.000',
    owner: BOB,
    metadata: { warehouse: 'Rotterdam 4' },
  },
  TransferRwa: { kind: 'TransferRwa', lot: LOT, to: BOB, quantity: '100.000' },
  MergeRwas: { kind: 'MergeRwas', lots: [LOT, LOT2] },
  RedeemRwa: { kind: 'RedeemRwa', lot: LOT, quantity: '50.000' },
  FreezeRwa: { kind: 'FreezeRwa', lot: LOT },
  UnfreezeRwa: { kind: 'UnfreezeRwa', lot: LOT },
  HoldRwa: { kind: 'HoldRwa', lot: LOT, quantity: '10.000' },
  ReleaseRwa: { kind: 'ReleaseRwa', lot: LOT, quantity: '10.000' },
  ForceTransferRwa: { kind: 'ForceTransferRwa', lot: LOT, to: BOB, quantity: '25.000' },
  SetRwaControls: { kind: 'SetRwaControls', lot: LOT, controls: ROSE },
};
