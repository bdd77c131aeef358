// The commit certificate of an encoded block (BlockCodec) without decoding its transactions and
// results: a restart seeds consensus with the certificates of the newest blocks, and decoding those
// whole blocks only to take their last field cost most of that step.
//
// A block is `header ‖ transactions ‖ results ‖ certificate`, and the certificate is
// `phase ‖ height ‖ view ‖ epoch ‖ blockHash ‖ validatorSetHash ‖ signers ‖ signature`. The block hash
// is the hash of the header's bytes (the codec is canonical), and the header commits to the
// transactions and the results (their roots): neither can contain the block's own hash. So the first
// occurrence of the block hash after the header is the certificate's `blockHash` field; the four
// varuints before it (canonical LEB128: every byte but a number's last has its high bit set) and the
// one-byte phase are read backwards to the certificate's start, and the certificate is then decoded as usual, which must end
// exactly at the block's end. Anything that does not fit gives undefined: the caller decodes the whole
// block instead.

import { decodeWith } from '../codec/frame.js';
import type { DecodeLimits } from '../codec/limits.js';
import { Reader } from '../codec/reader.js';
import { hash } from '../crypto/hash.js';
import { assert } from '../util/assert.js';
import { bytesEqual } from '../util/hex.js';
import { BlockCodec, BlockHeaderCodec, type CommitCertificate, CommitCertificateCodec } from './block.js';

/** The fields this reader relies on, in order; checked once so a layout change cannot go unnoticed. */
function fieldNames(c: typeof BlockCodec | typeof CommitCertificateCodec): string {
  const d = c.describe((x) => x.name ?? '');
  return d.kind === 'struct' ? d.fields.map((f) => f.name).join(',') : d.kind;
}
if (
  fieldNames(BlockCodec) !== 'header,transactions,results,certificate' ||
  fieldNames(CommitCertificateCodec) !==
    'phase,height,view,epoch,block_hash,validator_set_hash,signers,signature'
) {
  throw new Error('model/block-certificate.ts no longer matches the Block or CommitCertificate layout');
}

/** The varuints between the phase (a one-byte enum tag) and `blockHash`: height, view, epoch. */
const VARUINTS_BEFORE_HASH = 3;

/**
 * The certificate of the encoded block `bytes` (exactly `decode(BlockCodec, bytes).certificate` of a
 * block that decodes), or undefined when the shortcut does not apply (then decode the block).
 */
export function blockCertificate(bytes: Uint8Array, limits: DecodeLimits): CommitCertificate | undefined {
  let headerEnd: number;
  let height: number;
  try {
    const r = new Reader(bytes, limits);
    r.enter();
    height = BlockHeaderCodec.decode(r).height;
    headerEnd = r.pos;
  } catch {
    return undefined;
  }
  const blockHash = hash(bytes.subarray(0, headerEnd));
  const at = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).indexOf(blockHash, headerEnd);
  if (at < 0) return undefined;
  const epochEnd = varuintsBefore(bytes, at, VARUINTS_BEFORE_HASH, headerEnd);
  // The phase: one byte (three variants), its high bit clear.
  if (epochEnd === undefined || epochEnd - 1 < headerEnd || (bytes[epochEnd - 1]! & 0x80) !== 0)
    return undefined;
  const start = epochEnd - 1;
  const d = decodeWith(bytes.subarray(start), limits, (r) => CommitCertificateCodec.decode(r));
  if (!d.ok || d.value.height !== height || !bytesEqual(d.value.blockHash, blockHash)) return undefined;
  // Found where the forward decode of the whole block finds it: right after the results, at the end.
  assert(start >= headerEnd, 'block certificate: found inside the header');
  return d.value;
}

/** Where the `count` canonical LEB128 varuints that end at `end` start; undefined past `floor`. */
function varuintsBefore(bytes: Uint8Array, end: number, count: number, floor: number): number | undefined {
  let pos = end;
  for (let i = 0; i < count; i++) {
    // A varuint's last byte has its high bit clear, every earlier byte of it has it set.
    if (pos - 1 < floor || (bytes[pos - 1]! & 0x80) !== 0) return undefined;
    pos--;
    while (pos - 1 >= floor && (bytes[pos - 1]! & 0x80) !== 0) pos--;
  }
  return pos;
}
