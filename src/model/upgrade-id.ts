// The id of a runtime upgrade: the hex of hash(encode(UpgradeManifestCodec, manifest)), so the same
// manifest always has the same id (state/exec-upgrades.ts keys upgrades by it; the runtime routes show it).

import { encode } from '../codec/frame.js';
import { hash } from '../crypto/hash.js';
import { toHex } from '../util/hex.js';
import { type UpgradeManifest, UpgradeManifestCodec } from './entities.js';

export function upgradeId(manifest: UpgradeManifest): string {
  return toHex(hash(encode(UpgradeManifestCodec, manifest)));
}
