// Runtime upgrades (README.md §Instructions): propose, activate, cancel. The id of an
// upgrade is the hex of hash(encode(UpgradeManifestCodec, manifest)) (model/upgrade-id.ts), so the same
// manifest always has the same id. The active ABI version only ever increases.

import { encode } from '../codec/frame.js';
import type { UpgradeManifest } from '../model/entities.js';
import { UpgradeManifestCodec } from '../model/entities.js';
import { upgradeId } from '../model/upgrade-id.js';
import { authorize } from './authorize.js';
import { type ExecContext, type Fail, fail, type Handler } from './exec-context.js';

/** Field limits of UpgradeManifestCodec, checked because a longer field could not be decoded again. */
export const MANIFEST_NAME_BYTES_MAX = 128;
export const MANIFEST_DESCRIPTION_BYTES_MAX = 4096;
const utf8 = new TextEncoder();

function encodable(m: UpgradeManifest): boolean {
  try {
    encode(UpgradeManifestCodec, m);
  } catch {
    return false;
  }
  return (
    utf8.encode(m.name).length <= MANIFEST_NAME_BYTES_MAX &&
    utf8.encode(m.description).length <= MANIFEST_DESCRIPTION_BYTES_MAX
  );
}

function manifestProblem(x: ExecContext, m: UpgradeManifest): Fail | undefined {
  if (!encodable(m)) return fail('upgrade_invalid_manifest', 'the manifest does not fit its wire form');
  const active = x.view.meta().abiVersion;
  if (m.abiVersion <= active)
    return fail('upgrade_invalid_manifest', `abi_version must exceed the active ${active}`);
  if (m.startHeight <= x.block.height) {
    return fail(
      'upgrade_invalid_manifest',
      `start_height must be above the current height ${x.block.height}`,
    );
  }
  if (m.endHeight !== undefined && m.endHeight <= m.startHeight) {
    return fail('upgrade_invalid_manifest', 'end_height must be above start_height');
  }
  return undefined;
}

export const proposeRuntimeUpgrade: Handler<'ProposeRuntimeUpgrade'> = (x, ins) => {
  const denied = authorize(x, [], 'CanManageRuntimeUpgrades');
  if (denied) return denied;
  const problem = manifestProblem(x, ins.manifest);
  if (problem) return problem;
  const id = upgradeId(ins.manifest);
  if (x.t.upgrade.has(id)) return fail('already_exists', `upgrade ${id} exists`);
  x.t.upgrade.set(id, {
    id,
    manifest: structuredClone(ins.manifest),
    status: { kind: 'Proposed' },
    proposer: x.authority,
    createdHeight: x.block.height,
  });
  x.emit({ kind: 'UpgradeProposed', id });
  return undefined;
};

export const activateRuntimeUpgrade: Handler<'ActivateRuntimeUpgrade'> = (x, ins) => {
  const record = x.t.upgrade.get(ins.id);
  if (record === undefined) return fail('upgrade_not_found', `no upgrade ${ins.id}`);
  const denied = authorize(x, [], 'CanManageRuntimeUpgrades');
  if (denied) return denied;
  if (record.status.kind !== 'Proposed')
    return fail('upgrade_invalid_state', `upgrade is ${record.status.kind}`);
  const meta = x.view.meta();
  // Another upgrade may have been activated since this one was proposed; never go back a version.
  if (record.manifest.abiVersion <= meta.abiVersion) {
    return fail('upgrade_invalid_manifest', `abi_version must exceed the active ${meta.abiVersion}`);
  }
  x.t.upgrade.set(ins.id, { ...record, status: { kind: 'ActivatedAt', height: x.block.height } });
  x.view.setMeta({ ...meta, abiVersion: record.manifest.abiVersion });
  x.emit({ kind: 'UpgradeActivated', id: ins.id, height: x.block.height });
  return undefined;
};

export const cancelRuntimeUpgrade: Handler<'CancelRuntimeUpgrade'> = (x, ins) => {
  const record = x.t.upgrade.get(ins.id);
  if (record === undefined) return fail('upgrade_not_found', `no upgrade ${ins.id}`);
  const denied = authorize(x, [], 'CanManageRuntimeUpgrades');
  if (denied) return denied;
  if (record.status.kind !== 'Proposed')
    return fail('upgrade_invalid_state', `upgrade is ${record.status.kind}`);
  x.t.upgrade.set(ins.id, { ...record, status: { kind: 'Canceled' } });
  x.emit({ kind: 'UpgradeCanceled', id: ins.id });
  return undefined;
};
