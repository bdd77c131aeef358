// The worked example of docs/codec.md §9 and the signing rules of §8. The example's bytes are generated here
// and compared with the doc, so the doc cannot drift from the code. After an intended change, rewrite the
// doc's generated blocks with
//   UPDATE_GOLDEN=1 node --import tsx --test src/model/codec-example.test.ts

// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../modules/registry.js';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Codec } from '../codec/codec.js';
import { crc32c } from '../codec/crc32c.js';
import { decodeFrame, encode, encodeFrame } from '../codec/frame.js';
import { decodeOk } from '../codec/laws.test.js';
import { DEFAULT_DECODE_LIMITS } from '../codec/limits.js';
import { biguint, bytes, fixedBytes, jsonValue, string, u8, varuint } from '../codec/primitives.js';
import { Ed25519Signer, ed25519Verify } from '../crypto/ed25519.js';
import { blake2b256, hash } from '../crypto/hash.js';
import { toHex } from '../util/hex.js';
import { type BlockHeader, BlockHeaderCodec, blockHash } from './block.js';
import { numeric } from './numeric.js';
import { SCHEMA } from './schema.js';
import {
  payloadHash,
  type SignedTransaction,
  SignedTransactionCodec,
  type TransactionPayload,
  TransactionPayloadCodec,
  transactionHash,
} from './transaction.js';

const DOC_PATH = fileURLToPath(new URL('../../docs/codec.md', import.meta.url));
const LINE_BYTES = 16;

// ---- the example transaction -------------------------------------------------------------------

const seed = Uint8Array.from({ length: 32 }, (_, i) => i + 1);
const signer = new Ed25519Signer(seed);
const keyText = `ed0120${toHex(signer.publicKey, true)}`;
const authority = `${keyText}@wonderland`;
const payload: TransactionPayload = {
  chainId: 'torana-test',
  authority,
  creationTimeMs: 1_700_000_000_000,
  instructions: [{ kind: 'MintAsset', asset: `rose#wonderland#${authority}`, amount: numeric('12.50') }],
  ttlMs: 60_000,
  metadata: new Map([['memo', 'hi']]),
};
const tx: SignedTransaction = { payload, signature: signer.sign(payloadHash(payload)) };

interface Segment {
  bytes: Uint8Array;
  note: string;
}

const seg = <T>(codec: Codec<T>, v: T, note: string): Segment => ({ bytes: encode(codec, v), note });

function variantTag(type: string, variant: string): number {
  const desc = SCHEMA.snapshot().types[type];
  assert.ok(desc !== undefined && desc.kind === 'enum');
  return desc.variants.find((v) => v.name === variant)!.tag;
}

/** The example encoded piece by piece, each piece with its own codec and a note saying what it is. */
function transactionSegments(): Segment[] {
  const mint = variantTag('Instruction', 'MintAsset');
  const ed = variantTag('PublicKeyBytes', 'Ed25519');
  const key = signer.publicKey;
  return [
    seg(string(), payload.chainId, 'payload.chain_id: string, length 11, "torana-test"'),
    seg(varuint, ed, `payload.authority.signatory: PublicKey, variant ${ed} (Ed25519)`),
    seg(fixedBytes(32), key, '  the 32-byte Ed25519 public key'),
    seg(string(), 'wonderland', 'payload.authority.domain: DomainId, length 10, "wonderland"'),
    seg(varuint, payload.creationTimeMs, 'payload.creation_time_ms: varuint 1700000000000'),
    seg(varuint, 1, 'payload.instructions: sequence of 1'),
    seg(varuint, mint, `  Instruction variant ${mint} (MintAsset)`),
    seg(string(), 'rose', '  asset.definition.name: Name "rose"'),
    seg(string(), 'wonderland', '  asset.definition.domain: DomainId "wonderland"'),
    seg(varuint, ed, `  asset.account.signatory: PublicKey, variant ${ed} (Ed25519)`),
    seg(fixedBytes(32), key, '  the same public key'),
    seg(string(), 'wonderland', '  asset.account.domain: DomainId "wonderland"'),
    seg(biguint(128), 1250n, '  amount.mantissa: biguint 1250'),
    seg(u8, 2, '  amount.scale: u8 2, so the amount is "12.50"'),
    { bytes: new Uint8Array([1]), note: 'payload.ttl_ms: option, present' },
    seg(varuint, 60_000, '  varuint 60000'),
    { bytes: new Uint8Array([0]), note: 'payload.nonce: option, absent' },
    seg(varuint, 1, 'payload.metadata: map of 1 entry'),
    seg(string(), 'memo', '  key: Name "memo"'),
    seg(jsonValue(), 'hi', '  value: JSON text "\\"hi\\"" (4 bytes)'),
    seg(bytes(), tx.signature, 'signature: bytes, length 64 (Ed25519 over the payload hash)'),
  ];
}

function frameSegments(framed: Uint8Array, payloadBytes: number): Segment[] {
  return [
    { bytes: framed.subarray(0, 4), note: 'magic "TRNC"' },
    { bytes: framed.subarray(4, 5), note: 'codec version 1' },
    { bytes: framed.subarray(5, 6), note: 'flags: none' },
    { bytes: framed.subarray(6, 14), note: 'schema hash of SignedTransaction' },
    { bytes: framed.subarray(14, 18), note: `payload length, u32 LE: ${payloadBytes}` },
    { bytes: framed.subarray(18, 22), note: 'CRC-32C of the payload, u32 LE' },
  ];
}

function spaced(b: Uint8Array): string {
  return [...b].map((x) => x.toString(16).padStart(2, '0')).join(' ');
}

function render(segments: Segment[]): string {
  const lines: string[] = [];
  for (const s of segments) {
    for (let i = 0; i < s.bytes.length; i += LINE_BYTES) {
      const chunk = spaced(s.bytes.subarray(i, i + LINE_BYTES));
      lines.push(i === 0 ? `${chunk.padEnd(LINE_BYTES * 3)} ${s.note}`.trimEnd() : chunk);
    }
  }
  return lines.join('\n');
}

// ---- the doc's generated blocks ----------------------------------------------------------------

const fence = (body: string) => `\`\`\`text\n${body}\n\`\`\``;

function blocks(): Record<string, string> {
  const bare = encode(SignedTransactionCodec, tx);
  const framed = encodeFrame(SCHEMA, SignedTransactionCodec, tx);
  const payloadBytes = encode(TransactionPayloadCodec, payload);
  return {
    'example-json': `\`\`\`json\n${JSON.stringify(SignedTransactionCodec.toJson(tx), null, 2)}\n\`\`\``,
    'example-transaction': fence(render(transactionSegments())),
    'example-frame': fence(render(frameSegments(framed, bare.length))),
    'example-hashes': fence(
      [
        `payload encoding     ${payloadBytes.length} bytes (the first ${payloadBytes.length} bytes above)`,
        `payload hash         ${toHex(payloadHash(payload))}`,
        `transaction hash     ${toHex(transactionHash(tx))}`,
        `signing key (seed)   ${toHex(seed)}`,
        `authority            ${authority}`,
      ].join('\n'),
    ),
  };
}

function blockPattern(id: string): RegExp {
  return new RegExp(`(<!-- BEGIN GENERATED ${id} -->\\n)([\\s\\S]*?)(\\n<!-- END GENERATED ${id} -->)`);
}

function docBlock(doc: string, id: string): string {
  const m = blockPattern(id).exec(doc);
  assert.ok(m !== null, `docs/codec.md has no generated block ${id}`);
  return m[2]!;
}

if (process.env['UPDATE_GOLDEN'] === '1') {
  let doc = readFileSync(DOC_PATH, 'utf8');
  for (const [id, body] of Object.entries(blocks())) {
    docBlock(doc, id);
    doc = doc.replace(
      blockPattern(id),
      (_, open: string, _old: string, close: string) => `${open}${body}${close}`,
    );
  }
  writeFileSync(DOC_PATH, doc);
}

/** The hex bytes at the start of each line of a generated block, concatenated. */
function hexOf(block: string): string {
  return block
    .split('\n')
    .map((line) => /^([0-9a-f]{2}(?: [0-9a-f]{2})*)/.exec(line)?.[1] ?? '')
    .join('')
    .replace(/ /g, '');
}

describe('worked example (docs/codec.md §9)', () => {
  const doc = readFileSync(DOC_PATH, 'utf8');
  const hint =
    'run UPDATE_GOLDEN=1 node --import tsx --test src/model/codec-example.test.ts after an intended change';

  it('the annotated pieces add up to the encoding of the whole transaction', () => {
    const pieces = transactionSegments()
      .map((s) => toHex(s.bytes))
      .join('');
    assert.equal(pieces, toHex(encode(SignedTransactionCodec, tx)));
  });

  it("the doc's hex is the encoding, and its blocks are up to date", () => {
    assert.equal(
      hexOf(docBlock(doc, 'example-transaction')),
      toHex(encode(SignedTransactionCodec, tx)),
      hint,
    );
    const framed = encodeFrame(SCHEMA, SignedTransactionCodec, tx);
    assert.equal(hexOf(docBlock(doc, 'example-frame')), toHex(framed.subarray(0, 22)), hint);
    for (const [id, body] of Object.entries(blocks()))
      assert.equal(docBlock(doc, id), body, `${id}: ${hint}`);
  });

  it('decodes back, framed and bare, to the same transaction', () => {
    const framed = encodeFrame(SCHEMA, SignedTransactionCodec, tx);
    const r = decodeFrame(SCHEMA, SignedTransactionCodec, framed, DEFAULT_DECODE_LIMITS);
    assert.ok(r.ok);
    assert.deepStrictEqual(r.value, tx);
    assert.equal(
      new DataView(framed.buffer, framed.byteOffset).getUint32(18, true),
      crc32c(framed.subarray(22)),
    );
    assert.deepStrictEqual(decodeOk(SignedTransactionCodec, encode(SignedTransactionCodec, tx)), tx);
  });
});

describe('signing rules (docs/codec.md §8)', () => {
  const forced = (data: Uint8Array) => {
    const h = blake2b256(data);
    h[31]! |= 1;
    return toHex(h);
  };

  it('the ledger hash is BLAKE2b-256 with the lowest bit of the last byte set', () => {
    const h = hash(new Uint8Array(0));
    assert.equal(
      toHex(blake2b256(new Uint8Array(0))),
      '0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8',
    );
    assert.equal(toHex(h), '0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a9');
  });

  it('the signature covers the hash of the bare payload encoding, which opens the transaction encoding', () => {
    const payloadBytes = encode(TransactionPayloadCodec, payload);
    assert.equal(toHex(payloadHash(payload)), forced(payloadBytes));
    assert.ok(ed25519Verify(signer.publicKey, payloadHash(payload), tx.signature));
    const txBytes = encode(SignedTransactionCodec, tx);
    assert.equal(toHex(txBytes.subarray(0, payloadBytes.length)), toHex(payloadBytes));
  });

  it('the transaction hash covers the whole bare signed transaction, not the frame', () => {
    assert.equal(toHex(transactionHash(tx)), forced(encode(SignedTransactionCodec, tx)));
    const other = { ...tx, signature: tx.signature.map((b, i) => (i === 0 ? b ^ 1 : b)) };
    assert.notEqual(toHex(transactionHash(other)), toHex(transactionHash(tx)), 'the signature is hashed too');
  });

  it('the block hash covers the bare header encoding only', () => {
    const header: BlockHeader = {
      height: 2,
      prevHash: hash(new Uint8Array([1])),
      transactionsRoot: hash(new Uint8Array([2])),
      resultsRoot: hash(new Uint8Array([3])),
      stateRoot: hash(new Uint8Array([4])),
      creationTimeMs: 1_700_000_000_000,
      view: 0,
      transactionCount: 1,
    };
    assert.equal(toHex(blockHash(header)), forced(encode(BlockHeaderCodec, header)));
  });
});
