// Figure `codec_ratio_vs_msgpackr` ("codec"): encode + decode of one block of 512
// transfer transactions with our BlockCodec (bare payload, as the block log stores it, docs/codec.md),
// against msgpackr's standard `pack`/`unpack` of the same model value and JSON.stringify/parse of the
// block's JSON form. Goal: ratio >= 1.5 in every run; >= 1 with no account recurring. msgpackr's record mode (`new Packr()`,
// non-standard MessagePack) is measured too and reported in `extra`, since it is msgpackr's fastest mode.
// The block's 64 accounts recur, as accounts do in a ledger, and our codec remembers recent key and id
// texts (bounded memos); `extra.no_account_recurring_ratio_vs_msgpackr` is the same comparison with no
// account ever recurring (its own goal in `extra.no_account_recurring_goal`), so the memos' share is
// visible and a stream of new accounts is measured too.

import { Packr, pack, unpack } from 'msgpackr';
import { decode, encode } from '../../src/codec/frame.js';
import { randomBytes } from '../../src/crypto/random.js';
import { installAccountTexts } from '../../src/model/account-texts.js';
import { type Block, BlockCodec } from '../../src/model/block.js';
import type { Instruction } from '../../src/model/instructions.js';
import { buildTx, newAccount } from '../../test/helpers/tx.js';
import { compare } from '../lib/timing.js';
import { type Figure, type FigureResult, ratioOf } from '../lib/types.js';

// The codec as the node runs it: with the reader of the usual account id the node installs at start
// (src/model/account-texts.ts; the SDK's builds leave it out).
installAccountTexts();

export const CODEC_BLOCK_TRANSACTIONS = 512;
/** Goals: the usual block, and blocks in which no account recurs. */
const RATIO_GOAL = 1.5;
const NO_RECURRING_RATIO_GOAL = 1;
const LIMITS = { bytesMax: 16 * 1024 * 1024, itemsMax: 100_000, depthMax: 32 };
/** The writer's first buffer size, computed as the ledger does for a block (pipeline/ledger.ts). */
const SIZE_HINT = 1024 + CODEC_BLOCK_TRANSACTIONS * 256;

/**
 * The no-reuse variant (in `extra`): blocks in which every account takes part in one transaction only
 * (1,024 fresh accounts and 512 asset ids per block), cycled over enough blocks that no key or id text
 * comes back before the codec's bounded memos (model/keys.ts, codec/text.ts: 4,096 entries each,
 * forgotten all at once when full) have been emptied: 9 blocks hold 4,608 asset ids and 9,216 accounts,
 * more than a memo keeps, so every text is a miss.
 */
const NO_REUSE_BLOCKS = 9;

/**
 * A realistic block: 512 signed one-transfer transactions, all committed. By default among 64 accounts,
 * each paying the next; with `disjoint`, 1,024 accounts, each in one transaction only.
 */
export function sampleBlock(disjoint = false): Block {
  const accountCount = disjoint ? 2 * CODEC_BLOCK_TRANSACTIONS : 64;
  const accounts = Array.from({ length: accountCount }, () => newAccount('bench'));
  const transactions = Array.from({ length: CODEC_BLOCK_TRANSACTIONS }, (_, i) => {
    const from = accounts[(disjoint ? 2 * i : i) % accounts.length]!;
    const to = accounts[(disjoint ? 2 * i + 1 : i + 1) % accounts.length]!;
    const transfer: Instruction = {
      kind: 'TransferAsset',
      source: `unit#bench#${from.id}`,
      destination: to.id,
      amount: { mantissa: BigInt(1 + i), scale: 2 },
    };
    return buildTx(from, [transfer], { chainId: 'torana-bench', nonce: i });
  });
  const h = () => randomBytes(32);
  return {
    header: {
      height: 123_456,
      prevHash: h(),
      transactionsRoot: h(),
      resultsRoot: h(),
      stateRoot: h(),
      creationTimeMs: Date.now(),
      view: 0,
      transactionCount: transactions.length,
    },
    transactions,
    results: transactions.map(() => ({ kind: 'Committed' as const })),
    certificate: {
      phase: { kind: 'Commit' },
      height: 123_456,
      view: 0,
      epoch: 0,
      blockHash: h(),
      validatorSetHash: h(),
      signers: new Uint8Array([1]),
      signature: randomBytes(96),
    },
  };
}

function sizes(block: Block, json: unknown, records: Packr) {
  return {
    ours_bytes: encode(BlockCodec, block).length,
    msgpackr_bytes: pack(block).length,
    msgpackr_records_bytes: records.pack(block).length,
    json_bytes: Buffer.byteLength(JSON.stringify(json)),
  };
}

export const codecFigure: Figure = {
  id: 'codec_ratio_vs_msgpackr',
  async run(ctx): Promise<FigureResult> {
    const block = sampleBlock();
    const json = BlockCodec.toJson(block);
    const records = new Packr();
    const roundTrip = decode(BlockCodec, encode(BlockCodec, block), LIMITS);
    if (!roundTrip.ok) throw new Error(`BlockCodec does not round-trip: ${roundTrip.error.message}`);
    const timing = ctx.quick
      ? { warmupMs: 300, roundMs: 250, rounds: 6 }
      : { warmupMs: 1000, roundMs: 1000, rounds: 10 };
    const ops = compare(
      [
        { name: 'ours', op: () => decode(BlockCodec, encode(BlockCodec, block, SIZE_HINT), LIMITS) },
        { name: 'msgpackr', op: () => unpack(pack(block)) },
        { name: 'msgpackr_records', op: () => records.unpack(records.pack(block)) },
        { name: 'json', op: () => JSON.parse(JSON.stringify(json)) },
      ],
      timing,
    );
    // No reuse: the same contenders over cycled blocks of fresh accounts (each op is one block).
    const fresh = Array.from({ length: NO_REUSE_BLOCKS }, () => sampleBlock(true));
    let next = 0;
    const cycle = () => fresh[next++ % fresh.length]!;
    const noReuse = compare(
      [
        { name: 'ours', op: () => decode(BlockCodec, encode(BlockCodec, cycle(), SIZE_HINT), LIMITS) },
        { name: 'msgpackr', op: () => unpack(pack(cycle())) },
      ],
      timing,
    );
    const ours = ops.get('ours')!;
    const msgpackr = ops.get('msgpackr')!;
    const ratio = ratioOf(ours, msgpackr);
    const noRecurring = noReuse.get('ours')! / noReuse.get('msgpackr')!;
    return {
      id: 'codec_ratio_vs_msgpackr',
      value: ours,
      unit: 'blocks/s (encode+decode, 512 tx)',
      baseline: 'msgpackr pack+unpack',
      baseline_value: msgpackr,
      ratio,
      goal: `ratio >= ${RATIO_GOAL}; no account recurring >= ${NO_RECURRING_RATIO_GOAL} (extra)`,
      met: ratio !== null && ratio >= RATIO_GOAL && noRecurring >= NO_RECURRING_RATIO_GOAL,
      extra: {
        json_blocks_per_s: ops.get('json')!,
        ratio_vs_json: ours / ops.get('json')!,
        msgpackr_records_blocks_per_s: ops.get('msgpackr_records')!,
        ratio_vs_msgpackr_records: ours / ops.get('msgpackr_records')!,
        no_account_recurring_blocks_per_s: noReuse.get('ours')!,
        no_account_recurring_msgpackr_blocks_per_s: noReuse.get('msgpackr')!,
        no_account_recurring_ratio_vs_msgpackr: noRecurring,
        no_account_recurring_goal: `>= ${NO_RECURRING_RATIO_GOAL}`,
        ...sizes(block, json, records),
      },
    };
  },
};
