// Fuzz targets for the native codec's wire types, each decoded exactly as the node decodes it
// (docs/codec.md §1, §6): SignedTransaction through admission's decodeSignedTransaction (framed or bare
// body of POST /transaction), SignedQuery through decodeFrame (POST /query), Block as the block log
// stores it (bare payload, the ledger's limits). Inputs: random bytes, valid encodings of generated
// values (src/model/arbitraries.test.ts) and of real signed transactions, and mutations of those in the
// request's form; a mutated payload is re-framed half of the time so that the frame checks (length,
// CRC-32C) pass and the mutation reaches the decoder.

import fc from 'fast-check';
import type { Codec } from '../../../src/codec/codec.js';
import { crc32c } from '../../../src/codec/crc32c.js';
import { CodecError } from '../../../src/codec/errors.js';
import {
  type DecodeResult,
  decode,
  decodeFrame,
  encode,
  encodeFrame,
  FRAME_HEADER_BYTES,
} from '../../../src/codec/frame.js';
import { CODEC_ERROR_CODES } from '../../../src/codec/laws.test.js';
import { DEFAULT_DECODE_LIMITS, type DecodeLimits } from '../../../src/codec/limits.js';
import type { SchemaRegistry } from '../../../src/codec/registry.js';
import { MODEL_ARBITRARIES } from '../../../src/model/arbitraries.test.js';
import { type Block, BlockCodec } from '../../../src/model/block.js';
import { type SignedQuery, SignedQueryCodec } from '../../../src/model/queries.js';
import { SCHEMA } from '../../../src/model/schema.js';
import {
  type SignedTransaction,
  SignedTransactionCodec,
  TransactionPayloadCodec,
} from '../../../src/model/transaction.js';
import { decodeSignedTransaction } from '../../../src/pipeline/admission.js';
import { bytesEqual, fromHex, toHex } from '../../../src/util/hex.js';
import { buildTx, newAccount } from '../../helpers/tx.js';
import type { FuzzTarget, Outcome } from './fuzz-target.js';
import { applyMutations, lengthOffsets, mutationsArb } from './mutate.js';

/** The node's decode limits at their defaults (config keys codec.bytes_max, sequence_items_max, depth_max). */
export const NODE_DECODE_LIMITS: DecodeLimits = DEFAULT_DECODE_LIMITS;
/** The ledger decodes its own (checksummed) blocks without byte or item caps (pipeline/ledger.ts). */
const LEDGER_BLOCK_LIMITS: DecodeLimits = {
  ...DEFAULT_DECODE_LIMITS,
  bytesMax: Number.MAX_SAFE_INTEGER,
  itemsMax: Number.MAX_SAFE_INTEGER,
};
const RANDOM_BYTES_MAX = 2048;
export const CODEC_CODES: ReadonlySet<string> = new Set(CODEC_ERROR_CODES);

export type Form = 'bare' | 'frame' | 'payload';

/** The wire form of a payload: a 22-byte frame, one version byte (bare body), or the payload alone. */
export function wrap(
  registry: SchemaRegistry,
  typeName: string,
  payload: Uint8Array,
  form: Form,
): Uint8Array {
  if (form === 'payload') return payload;
  if (form === 'bare') return Uint8Array.from([1, ...payload]);
  const out = new Uint8Array(FRAME_HEADER_BYTES + payload.length);
  out.set([0x54, 0x52, 0x4e, 0x43, 1, 0]);
  out.set(registry.schemaHash(typeName), 6);
  const view = new DataView(out.buffer);
  view.setUint32(14, payload.length, true);
  view.setUint32(18, crc32c(payload), true);
  out.set(payload, FRAME_HEADER_BYTES);
  return out;
}

interface CodecInputs<T> {
  codec: Codec<T>;
  registry: SchemaRegistry;
  values: fc.Arbitrary<T>;
  forms: readonly Form[];
  limits: DecodeLimits;
}

/**
 * Random bytes (1 in 8), valid encodings (1 in 8), and mutated valid encodings: mutated in the wire form
 * as a client would send them, or mutated as a payload and re-wrapped with a correct frame header.
 */
export function codecInputs<T>(o: CodecInputs<T>): fc.Arbitrary<Uint8Array> {
  const name = o.codec.name!;
  const payloads = o.values.map((v) => encode(o.codec, v));
  const valid = fc.tuple(payloads, fc.constantFrom(...o.forms)).map(([p, f]) => wrap(o.registry, name, p, f));
  const mutated = fc
    .tuple(payloads, payloads, fc.constantFrom(...o.forms), mutationsArb, fc.boolean())
    .map(([p, other, form, ms, rewrap]) => {
      const offsets = lengthOffsets(o.codec, p, o.limits);
      if (rewrap) return wrap(o.registry, name, applyMutations(p, ms, other, offsets), form);
      const shift = form === 'frame' ? FRAME_HEADER_BYTES : form === 'bare' ? 1 : 0;
      const wire = wrap(o.registry, name, p, form);
      const otherWire = wrap(o.registry, name, other, form);
      return applyMutations(
        wire,
        ms,
        otherWire,
        offsets.map((x) => x + shift),
      );
    });
  return fc.oneof(
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: RANDOM_BYTES_MAX }) },
    { weight: 1, arbitrary: valid },
    { weight: 6, arbitrary: mutated },
  );
}

/** Typed result or a failed invariant of an accepted input: it must re-encode to exactly its bytes. */
export function judge<T>(
  r: { ok: true; value: T } | { ok: false; error: unknown },
  reencode: (v: T) => Uint8Array,
  input: Uint8Array,
): Outcome {
  if (!r.ok) {
    const e = r.error;
    if (!(e instanceof CodecError)) return { accepted: false, problem: `not a CodecError: ${String(e)}` };
    return { accepted: false, code: e.code };
  }
  const again = reencode(r.value);
  if (!bytesEqual(again, input)) {
    return {
      accepted: true,
      problem: `accepted but re-encodes to ${again.length} other bytes (not canonical)`,
    };
  }
  return { accepted: true };
}

/** Re-encodes in the form of `input`: frames as frames, bare bodies with their version byte. */
function reencodeAs<T>(codec: Codec<T>, input: Uint8Array, value: T): Uint8Array {
  if (input[0] === 1) return Uint8Array.from([1, ...encode(codec, value)]);
  return encodeFrame(SCHEMA, codec, value);
}

const hexSave = (input: Uint8Array) => ({ input_hex: toHex(input) });
const hexLoad = (saved: Record<string, unknown>) => fromHex(String(saved.input_hex)) ?? new Uint8Array();

/** Real signed transactions (as clients send them) beside generated ones (which carry garbage signatures). */
function signedTransactions(): fc.Arbitrary<SignedTransaction> {
  const signer = newAccount('fuzz', 9);
  const real = fc.nat(1000).map((nonce) =>
    buildTx(
      signer,
      [
        { kind: 'Log', level: { kind: 'Info' }, message: `fuzz ${nonce}` },
        { kind: 'RegisterDomain', id: `d${nonce}`, metadata: new Map([['k', { v: nonce }]]) },
      ],
      { chainId: 'torana-test', creationTimeMs: 1_700_000_000_000 + nonce, nonce, ttlMs: 60_000 },
    ),
  );
  return fc.oneof(real, MODEL_ARBITRARIES.SignedTransaction as fc.Arbitrary<SignedTransaction>);
}

type TxDecoded = ReturnType<typeof decodeSignedTransaction>;

export function signedTransactionTarget(): FuzzTarget<Uint8Array, TxDecoded> {
  return {
    name: 'SignedTransaction',
    inputs: codecInputs({
      codec: SignedTransactionCodec,
      registry: SCHEMA,
      values: signedTransactions(),
      forms: ['frame', 'bare'],
      limits: NODE_DECODE_LIMITS,
    }),
    codes: CODEC_CODES,
    decode: (input) => decodeSignedTransaction(input, NODE_DECODE_LIMITS),
    judge(input, d) {
      if (!d.ok) return judge(d, () => input, input);
      const outcome = judge(
        { ok: true, value: d.tx },
        (v) => reencodeAs(SignedTransactionCodec, input, v),
        input,
      );
      // Admission hashes and verifies the payload bytes as received (docs/codec.md §8): they must be
      // exactly the canonical encoding of the decoded payload.
      const payload = encode(TransactionPayloadCodec, d.tx.payload);
      if (outcome.problem === undefined && !bytesEqual(payload, d.payloadBytes))
        return { accepted: true, problem: 'payloadBytes differ from the canonical payload encoding' };
      return outcome;
    },
    size: (input) => input.length,
    save: hexSave,
    load: hexLoad,
  };
}

export function signedQueryTarget(): FuzzTarget<Uint8Array, DecodeResult<SignedQuery>> {
  return {
    name: 'SignedQuery',
    inputs: codecInputs({
      codec: SignedQueryCodec,
      registry: SCHEMA,
      values: MODEL_ARBITRARIES.SignedQuery as fc.Arbitrary<SignedQuery>,
      forms: ['frame', 'bare'],
      limits: NODE_DECODE_LIMITS,
    }),
    codes: CODEC_CODES,
    decode: (input) => decodeFrame(SCHEMA, SignedQueryCodec, input, NODE_DECODE_LIMITS),
    judge: (input, d) => judge(d, (v) => reencodeAs(SignedQueryCodec, input, v), input),
    size: (input) => input.length,
    save: hexSave,
    load: hexLoad,
  };
}

export function blockTarget(): FuzzTarget<Uint8Array, DecodeResult<Block>> {
  return {
    name: 'Block',
    inputs: codecInputs({
      codec: BlockCodec,
      registry: SCHEMA,
      values: MODEL_ARBITRARIES.Block as fc.Arbitrary<Block>,
      forms: ['payload'],
      limits: LEDGER_BLOCK_LIMITS,
    }),
    codes: CODEC_CODES,
    decode: (input) => decode(BlockCodec, input, LEDGER_BLOCK_LIMITS),
    judge: (input, d) => judge(d, (v) => encode(BlockCodec, v), input),
    size: (input) => input.length,
    save: hexSave,
    load: hexLoad,
  };
}
