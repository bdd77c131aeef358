// Block sync (design "Peers and transport"): a peer behind asks one peer for the blocks after its tip and
// accepts only a block whose commit certificate verifies against the validator set of that height (the
// host's set for height()+1, since blocks are appended in order). Serving reads the block log.

import { decode } from '../../codec/frame.js';
import type { DecodeLimits } from '../../codec/limits.js';
import { type Block, BlockCodec, blockHash } from '../../model/block.js';
import { assert } from '../../util/assert.js';
import { bytesEqual } from '../../util/hex.js';
import type { BftHost } from './ports.js';
import type { VoteCrypto } from './types.js';

export type SyncVerdict = { ok: true; block: Block } | { ok: false; reason: string };

/** Checks one synced block against the host's tip and validator set (does not append it). */
export function checkSyncedBlock(
  host: BftHost,
  crypto: VoteCrypto,
  bytes: Uint8Array,
  limits: DecodeLimits,
): SyncVerdict {
  const d = decode(BlockCodec, bytes, limits);
  if (!d.ok) return { ok: false, reason: 'sync_undecodable' };
  const block = d.value;
  const c = block.certificate;
  if (block.header.height !== host.height() + 1) return { ok: false, reason: 'sync_height' };
  if (c.phase.kind !== 'Commit' || c.height !== block.header.height)
    return { ok: false, reason: 'sync_certificate_subject' };
  if (!bytesEqual(c.blockHash, blockHash(block.header)))
    return { ok: false, reason: 'sync_certificate_hash' };
  const problem = crypto.verifyQc(c, host.validatorSet());
  if (problem !== undefined) return { ok: false, reason: `sync_certificate_${problem}` };
  return { ok: true, block };
}

/** Encoded committed blocks from `from`, at most `max` and about `bytesMax` bytes (at least one). */
export async function blocksToServe(
  host: BftHost,
  from: number,
  max: number,
  bytesMax: number,
): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  let total = 0;
  for (let h = Math.max(1, from); h <= host.height() && out.length < max; h++) {
    const b = await host.blockBytes(h);
    if (b === undefined) break;
    if (out.length > 0 && total + b.length > bytesMax) break;
    out.push(b);
    total += b.length;
  }
  // Within the byte budget, but for a single block larger than it (a peer behind must get each block).
  assert(out.length <= 1 || total <= bytesMax, `a sync answer of ${total} bytes over ${bytesMax}`);
  return out;
}
