// One JSON example of each of this module's instruction kinds.
// The form `torana tx submit` takes (docs/instructions.md). Found by its file name (src/modules/examples.ts):
// the CLI's schema tests check each one against the published schema and the codec, and write them into
// the generated section of this module's docs page, `page`.

import { BOB, ROSE } from '../../cli/example-world.js';
import type { Json } from '../../codec/codec.js';

export const page = 'docs/repo.md';

/** An agreement id of the examples' world. */
const ID = 'repo_5b2e9f0c1d3a4b6c7d8e9f0a1b2c3d4e5f6a7b8c';
const BOND = 'bond#wonderland';

export const examples: Readonly<Record<string, Json>> = {
  InitiateRepo: {
    kind: 'InitiateRepo',
    reference: 'REPO-2026-0001',
    counterparty: BOB,
    cash_leg: { asset_definition_id: ROSE, quantity: '1000.00', metadata: {} },
    collateral_leg: { asset_definition_id: BOND, quantity: '12', metadata: { isin: 'XS0000000001' } },
    rate_bps: 500,
    haircut_bps: 200,
    maturity_timestamp_ms: 1_798_761_600_000,
    collateral_price: '100.00',
    margin_window_ms: 86_400_000,
  },
  AcceptRepo: { kind: 'AcceptRepo', id: ID },
  SetRepoPrice: { kind: 'SetRepoPrice', id: ID, asset_definition: BOND, price: '92.50' },
  CheckRepoMargin: { kind: 'CheckRepoMargin', id: ID },
  TopUpRepoMargin: { kind: 'TopUpRepoMargin', id: ID, quantity: '2' },
  SubstituteRepoCollateral: {
    kind: 'SubstituteRepoCollateral',
    id: ID,
    collateral_leg: { asset_definition_id: ROSE, quantity: '1100.00', metadata: {} },
  },
  UnwindRepo: { kind: 'UnwindRepo', id: ID },
  SettleRepo: { kind: 'SettleRepo', id: ID },
};
