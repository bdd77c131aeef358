// The instruction → handler table of the features not yet in a module folder of their own (the `ledger`
// entry of src/modules/registry.ts). The executor runs the table the installed modules make together
// (module-host.ts), which checks at start-up that every instruction tag has exactly one handler.

import * as assets from './exec-assets.js';
import type { HandlerTable } from './exec-context.js';
import * as grants from './exec-grants.js';
import * as metadata from './exec-metadata.js';
import * as ownership from './exec-ownership.js';
import * as parameters from './exec-parameters.js';
import * as register from './exec-register.js';
import * as shielded from './exec-shielded.js';
import * as unregister from './exec-unregister.js';
import * as upgrades from './exec-upgrades.js';

export const LEDGER_HANDLERS: Readonly<Partial<HandlerTable>> = Object.freeze({
  RegisterDomain: register.registerDomain,
  RegisterAccount: register.registerAccount,
  RegisterAssetDefinition: register.registerAssetDefinition,
  RegisterNft: register.registerNft,
  RegisterRole: register.registerRole,
  RegisterPeer: register.registerPeer,
  UnregisterDomain: unregister.unregisterDomain,
  UnregisterAccount: unregister.unregisterAccount,
  UnregisterAssetDefinition: unregister.unregisterAssetDefinition,
  UnregisterNft: unregister.unregisterNft,
  UnregisterRole: unregister.unregisterRole,
  UnregisterPeer: unregister.unregisterPeer,
  MintAsset: assets.mintAsset,
  BurnAsset: assets.burnAsset,
  TransferAsset: assets.transferAsset,
  TransferNft: ownership.transferNft,
  TransferDomain: ownership.transferDomain,
  SetKeyValue: metadata.setKeyValue,
  RemoveKeyValue: metadata.removeKeyValue,
  GrantPermission: grants.grantPermission,
  RevokePermission: grants.revokePermission,
  GrantRole: grants.grantRole,
  RevokeRole: grants.revokeRole,
  SetParameter: parameters.setParameter,
  Log: parameters.log,
  ProposeRuntimeUpgrade: upgrades.proposeRuntimeUpgrade,
  ActivateRuntimeUpgrade: upgrades.activateRuntimeUpgrade,
  CancelRuntimeUpgrade: upgrades.cancelRuntimeUpgrade,
  ShieldAsset: shielded.shieldAsset,
});
