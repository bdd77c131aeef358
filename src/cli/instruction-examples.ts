// One JSON example of every instruction kind, in the form `torana tx submit` takes (and a committed
// transaction reads back as). Typed by kind, so a new instruction kind in the core or a module does not
// compile until it has its example here. docs/instructions.md lists them (a generated section), and
// instruction-schema.test.ts checks that each one validates against the published schema and encodes.
// The examples share one small world: the domain wonderland, accounts alice and bob in it, the asset
// rose#wonderland, a multisig account derived from (wonderland, treasury), a call wonderland:standup.

import type { Json } from '../codec/codec.js';
import type { InstructionKind } from '../model/instructions.js';

export const ALICE = 'ed01208A88E3DD7409F195FD52DB2D3CBA5D72CA6709BF1D94121BF3748801B40F6F5C@wonderland';
export const BOB = 'ed01208139770EA87D175F56A35466C34C7ECCCB8D8A91B4EE37A25DF60F5B8FC9B394@wonderland';
const PEER = 'ed0120ED4928C628D1C2C6EAE90338905995612959273A5C63F93636C14614AC8737D1';
const MULTISIG = 'ed01205DE9B1D73CF85CE231AA4DCC442E31D9364588D0A5F2654734E57C65CB3CA7A5@wonderland';
const ROSE = 'rose#wonderland';
const CALL = 'wonderland:standup';
const HASH = '5f2a8c1e9b7d4a3f6e0c2b8d1a7f4e3c9b6d0a2f8e5c1b7d4a3f6e0c2b8d1a7f';
const FIELD = `${'0'.repeat(62)}2a`;
const RELAY_KEY = '11'.repeat(32);
const MINT: Json = { kind: 'MintAsset', asset: `${ROSE}#${ALICE}`, amount: '10' };

export const INSTRUCTION_EXAMPLES: Record<InstructionKind, Json> = {
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
  CreateConference: {
    kind: 'CreateConference',
    call: CALL,
    policy: { kind: 'Authenticated' },
    privacy: { kind: 'Transparent' },
    title: 'Stand-up',
    description: 'daily',
    scheduled_start_ms: '1767225600000',
    scheduled_end_ms: '1767227400000',
    max_participants: 8,
    gas_rate_per_minute: '0.5',
    billing_account: ALICE,
    metadata: {},
    roster_commitments: [],
  },
  JoinConference: { kind: 'JoinConference', call: CALL, participant: BOB },
  LeaveConference: { kind: 'LeaveConference', call: CALL, participant: BOB },
  RecordConferenceUsage: {
    kind: 'RecordConferenceUsage',
    call: CALL,
    participant: BOB,
    segment: 1,
    duration_ms: '60000',
    billed_gas: '0.5',
  },
  EndConference: { kind: 'EndConference', call: CALL },
  SetConferenceRelayManifest: {
    kind: 'SetConferenceRelayManifest',
    call: CALL,
    manifest: {
      hops: [{ relay: 'relay-eu', public_key: RELAY_KEY, weight: 1 }],
      expires_at_ms: '1767229200000',
    },
  },
  RegisterConferenceRelay: {
    kind: 'RegisterConferenceRelay',
    relay: 'relay-eu',
    public_key: RELAY_KEY,
    endpoint: 'wss://relay-eu.example.org',
    region: 'eu-west',
  },
  ReportConferenceRelayHealth: {
    kind: 'ReportConferenceRelayHealth',
    relay: 'relay-eu',
    available: true,
    latency_ms: 42,
    loss_permille: 3,
  },
  ShieldAsset: { kind: 'ShieldAsset', amount: '5', owner_hash: FIELD },
  RegisterAccountAlias: { kind: 'RegisterAccountAlias', alias: 'alice@wonderland', account: ALICE },
  TransferAccountAlias: { kind: 'TransferAccountAlias', alias: 'alice@wonderland', destination: BOB },
  RemoveAccountAlias: { kind: 'RemoveAccountAlias', alias: 'alice@wonderland' },
  SetPrimaryAccountAlias: { kind: 'SetPrimaryAccountAlias', alias: 'alice@wonderland' },
  SetAssetAlias: { kind: 'SetAssetAlias', alias: 'rose', definition: ROSE },
  RenewAssetAlias: { kind: 'RenewAssetAlias', alias: 'rose', expires_at_ms: '1798761600000' },
  RemoveAssetAlias: { kind: 'RemoveAssetAlias', alias: 'rose' },
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
  RegisterTrigger: {
    kind: 'RegisterTrigger',
    id: 'nightly-mint',
    due: { kind: 'Height', height: 100 },
    repeat: { kind: 'EveryBlocks', blocks: 100 },
    instructions: [MINT],
  },
  UnregisterTrigger: { kind: 'UnregisterTrigger', id: 'nightly-mint' },
  RegisterSubscriptionPlan: {
    kind: 'RegisterSubscriptionPlan',
    id: 'pro-monthly',
    billing: {
      cadence: { kind: 'FixedPeriod', period_ms: 2592000000 },
      bill_for: { kind: 'Current' },
      retry_backoff_ms: 3600000,
      max_failures: 3,
      grace_ms: 86400000,
    },
    pricing: { kind: 'Fixed', amount: '9.99', asset_definition: ROSE },
    trial_ms: 0,
  },
  Subscribe: { kind: 'Subscribe', id: 'alice-pro', plan: 'pro-monthly' },
  CancelSubscription: { kind: 'CancelSubscription', id: 'alice-pro', at_period_end: true },
  KeepSubscription: { kind: 'KeepSubscription', id: 'alice-pro' },
  PauseSubscription: { kind: 'PauseSubscription', id: 'alice-pro' },
  ResumeSubscription: { kind: 'ResumeSubscription', id: 'alice-pro' },
  ChargeSubscriptionNow: { kind: 'ChargeSubscriptionNow', id: 'alice-pro' },
  RecordSubscriptionUsage: {
    kind: 'RecordSubscriptionUsage',
    id: 'alice-pro',
    unit_key: 'api_calls',
    units: '120',
  },
  ChargeSubscription: { kind: 'ChargeSubscription', id: 'alice-pro' },
};
