// Answer types of the transfer control routes (docs/controls.md), defined once as
// codec types: the JSON answer, the codec answer and the OpenAPI schema come from one definition.

import { seq, struct } from '../../codec/compound.js';
import { bool, string, varuint } from '../../codec/primitives.js';
import { AccountId, AssetDefinitionId } from '../../model/ids.js';
import { NumericCodec } from '../../model/numeric.js';
import { CONTROL_LIMITS_MAX, CONTROL_LIST_ENTRIES_MAX } from './model.js';

/** tx | hour | day | week | month */
const WindowName = string(8);

export const LimitView = struct('TransferLimitView', { window: WindowName, capAmount: NumericCodec });

export const UsageView = struct('TransferUsageView', {
  window: WindowName,
  /** Start of the bucket (ms since the epoch, UTC, block time). */
  bucketStart: varuint,
  spentAmount: NumericCodec,
  /** The tightest cap of this window on the account (its own or the definition's). */
  capAmount: NumericCodec,
  /** Whether the bucket is the one holding the committed tip's block time (else spent resets to 0 at the next debit). */
  current: bool,
});

export const AssetTransferControlView = struct('AssetTransferControl', {
  accountId: AccountId,
  assetDefinitionId: AssetDefinitionId,
  control: struct('TransferControlFlags', {
    outgoingFrozen: bool,
    blacklisted: bool,
    limits: seq(LimitView, CONTROL_LIMITS_MAX),
  }),
  /** The definition-wide rules that also apply to this account (see /v1/controls/asset-definition/get). */
  definition: struct('DefinitionRulesForAccount', {
    outgoingFrozen: bool,
    blacklisted: bool,
    allowListActive: bool,
    onAllowList: bool,
    onDenyList: bool,
    limits: seq(LimitView, CONTROL_LIMITS_MAX),
  }),
  usages: seq(UsageView, CONTROL_LIMITS_MAX),
});

export const DefinitionTransferControlView = struct('DefinitionTransferControl', {
  assetDefinitionId: AssetDefinitionId,
  control: struct('DefinitionControlRules', {
    outgoingFrozen: bool,
    blacklisted: bool,
    allowList: seq(AccountId, CONTROL_LIST_ENTRIES_MAX),
    denyList: seq(AccountId, CONTROL_LIST_ENTRIES_MAX),
    limits: seq(LimitView, CONTROL_LIMITS_MAX),
  }),
});
