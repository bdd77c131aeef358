// Answer types of the runtime routes.

import { seq, struct } from '../../codec/compound.js';
import { bool, string, varuint } from '../../codec/primitives.js';
import { UpgradeRecordCodec } from '../../model/entities.js';
import { InstructionCodec } from '../../model/instructions.js';
import { Hash } from '../../model/keys.js';
import { AbiDescriptorCodec } from '../../runtime/abi.js';

export const AbiActiveView = struct('RuntimeAbiActive', {
  abiVersion: varuint,
  policy: string(16),
  descriptor: AbiDescriptorCodec,
});

export const AbiHashView = struct('RuntimeAbiHash', { policy: string(16), abiHashHex: Hash });

export const RuntimeMetricsView = struct('RuntimeMetrics', {
  abiVersion: varuint,
  upgradeEventsTotal: struct('RuntimeUpgradeEvents', {
    proposed: varuint,
    activated: varuint,
    canceled: varuint,
  }),
});

export const UpgradesView = struct('RuntimeUpgrades', {
  items: seq(struct('RuntimeUpgradeItem', { idHex: Hash, record: UpgradeRecordCodec })),
});

/** The instructions the caller must sign and submit; the node never signs on a caller's behalf. */
export const UpgradeActionView = struct('RuntimeUpgradeAction', {
  ok: bool,
  idHex: Hash,
  txInstructions: seq(InstructionCodec),
});
