// One JSON example of every instruction kind of the core, in the form `torana tx submit` takes (and a
// committed transaction reads back as); each ledger module declares its own in its `examples.ts`
// (src/modules/examples.ts finds them). docs/instructions.md lists the core's (a generated section), each
// module's docs page its own; instruction-schema.test.ts checks that every kind of the build has exactly
// one example, valid against the published schema and encodable. The examples share one small world
// (example-world.ts).

import type { Json } from '../codec/codec.js';
import type { InstructionKind } from '../model/instructions.js';
import { ALICE, BOB, HASH, MINT, ROSE } from './example-world.js';

export { ALICE, BOB } from './example-world.js';

const PEER = 'ed0120ED4928C628D1C2C6EAE90338905995612959273A5C63F93636C14614AC8737D1';
const FIELD = `${'0'.repeat(62)}2a`;

/** The core's instruction kinds. */
export const CORE_INSTRUCTION_EXAMPLES: Readonly<Partial<Record<InstructionKind, Json>>> = {
  RegisterDomain: { kind: 'RegisterDomain', id: 'wonderland', metadata: {} },
  RegisterAccount: { kind: 'RegisterAccount', id: ALICE, metadata: { display_name: 'Alice' } },
  RegisterAssetDefinition: {
    kind: 'RegisterAssetDefinition',
    id: ROSE,
    scale: 2,
    mintable: { kind: 'Infinitely' },
    metadata: {},
  },
  RegisterNft: { kind: 'RegisterNft', id: 'deed$wonderland', content: { parcel: 'A-17' } },
  RegisterRole: {
    kind: 'RegisterRole',
    id: 'auditors',
    permissions: [{ name: 'CanRegisterAccountInDomain', payload: { domain: 'wonderland' } }],
  },
  RegisterPeer: {
    kind: 'RegisterPeer',
    peer: 'ed0120ABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABAB',
    address: '10.0.0.7:1337',
    bls_key:
      'ea0130B802DB0534FAE2EB12A5667348F1C30016249290451FEF393EEFA102210E0E5E645C4F67B9C262837A9FED7EF3009618',
    pop: 'a857dd823f1c4f214a12eeaa7cab3499dc68b478d4dbb4c662e1f8009f929152f5dd56cb052da50533fd3ba30ec05ba40d00bcac1504441a810e52eab5e38ccbdaa6284acb769bc6d2c3e5e267af695dc85b496e90fbc7c04a392f16bc79a564',
  },
  UnregisterDomain: { kind: 'UnregisterDomain', id: 'wonderland' },
  UnregisterAccount: { kind: 'UnregisterAccount', id: BOB },
  UnregisterAssetDefinition: { kind: 'UnregisterAssetDefinition', id: ROSE },
  UnregisterNft: { kind: 'UnregisterNft', id: 'deed$wonderland' },
  UnregisterRole: { kind: 'UnregisterRole', id: 'auditors' },
  UnregisterPeer: { kind: 'UnregisterPeer', peer: PEER },
  MintAsset: MINT,
  BurnAsset: { kind: 'BurnAsset', asset: `${ROSE}#${ALICE}`, amount: '1.25' },
  TransferAsset: { kind: 'TransferAsset', source: `${ROSE}#${ALICE}`, destination: BOB, amount: '2.50' },
  TransferNft: { kind: 'TransferNft', id: 'deed$wonderland', source: ALICE, destination: BOB },
  TransferDomain: { kind: 'TransferDomain', id: 'wonderland', source: ALICE, destination: BOB },
  SetKeyValue: {
    kind: 'SetKeyValue',
    target: { kind: 'Account', id: ALICE },
    key: 'email',
    value: 'alice@example.org',
  },
  RemoveKeyValue: { kind: 'RemoveKeyValue', target: { kind: 'Domain', id: 'wonderland' }, key: 'logo' },
  GrantPermission: {
    kind: 'GrantPermission',
    account: BOB,
    permission: { name: 'CanTransferAssetWithDefinition', payload: { asset_definition: ROSE } },
  },
  RevokePermission: {
    kind: 'RevokePermission',
    account: BOB,
    permission: { name: 'CanTransferAssetWithDefinition', payload: { asset_definition: ROSE } },
  },
  GrantRole: { kind: 'GrantRole', account: BOB, role: 'auditors' },
  RevokeRole: { kind: 'RevokeRole', account: BOB, role: 'auditors' },
  SetParameter: { kind: 'SetParameter', parameter: { kind: 'BlockMaxWeight', value: 400000 } },
  Log: { kind: 'Log', level: { kind: 'Info' }, message: 'quarterly close' },
  ProposeRuntimeUpgrade: {
    kind: 'ProposeRuntimeUpgrade',
    manifest: {
      name: 'fees-v2',
      description: 'new fee schedule',
      abi_version: 2,
      abi_hash: HASH,
      start_height: 1000,
      end_height: 2000,
    },
  },
  ActivateRuntimeUpgrade: { kind: 'ActivateRuntimeUpgrade', id: HASH },
  CancelRuntimeUpgrade: { kind: 'CancelRuntimeUpgrade', id: HASH },
  ShieldAsset: { kind: 'ShieldAsset', amount: '5', owner_hash: FIELD },
};

/** Every kind's example: the core's and each module's (a kind without one fails instruction-schema.test.ts). */
export function allInstructionExamples(
  modules: readonly { readonly examples: Readonly<Record<string, Json>> }[],
): Readonly<Record<InstructionKind, Json>> {
  return Object.assign({}, CORE_INSTRUCTION_EXAMPLES, ...modules.map((m) => m.examples));
}
