// The small world every instruction example shares (src/cli/instruction-examples.ts and the modules'
// examples.ts): the domain wonderland, accounts alice and bob in it, the asset rose#wonderland.

import type { Json } from '../codec/codec.js';

export const ALICE = 'ed01208A88E3DD7409F195FD52DB2D3CBA5D72CA6709BF1D94121BF3748801B40F6F5C@wonderland';
export const BOB = 'ed01208139770EA87D175F56A35466C34C7ECCCB8D8A91B4EE37A25DF60F5B8FC9B394@wonderland';
export const ROSE = 'rose#wonderland';
export const HASH = '5f2a8c1e9b7d4a3f6e0c2b8d1a7f4e3c9b6d0a2f8e5c1b7d4a3f6e0c2b8d1a7f';
export const MINT: Json = { kind: 'MintAsset', asset: `${ROSE}#${ALICE}`, amount: '10' };
