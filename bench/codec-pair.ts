// Paired before/after driver for `codec_ratio_vs_msgpackr` (bench/README.md, codec section). Two
// checkouts' codecs are measured in child processes of their own, alternating before/after, so each pair
// runs under the same machine load; one process per codec, because two copies of the codec in one
// process share V8's compiled code for their generated field functions and disturb each other. Each
// child times encode + decode of the figure's blocks against msgpackr's pack + unpack in interleaved
// rounds, in CPU time per block (process.cpuUsage: a busy machine steals wall time, not CPU time), for
// both variants (recurring accounts, no account recurring), and prints the medians and the ratios.
//
//   node --conditions=torana-source --import tsx bench/codec-pair.ts <before checkout> [pairs]
//
// The checkouts need `src/`, `bench/` and `test/helpers/` and their dependencies reachable (a
// `node_modules` in or above them).

import { execFileSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { pack, unpack } from 'msgpackr';
import { median } from './lib/timing.js';

const LIMITS = { bytesMax: 16 * 1024 * 1024, itemsMax: 100_000, depthMax: 32 };
const SIZE_HINT = 1024 + 512 * 256;
/** As the figure: 9 cycled blocks of fresh accounts outrun the memos. */
const NO_REUSE_BLOCKS = 9;
const ROUNDS = 9;
const ROUND_MS = 150;

type Op = (block: unknown) => unknown;
interface Sample {
  variant: string;
  ours_us: number;
  msgpackr_us: number;
  ratio: number;
}

/** CPU µs per op over about `ms` of CPU time. */
function cpuPerOp(op: Op, next: () => unknown, ms: number): number {
  const t0 = process.cpuUsage();
  let n = 0;
  let used = 0;
  let sink: unknown;
  while (used < ms * 1000) {
    sink = op(next());
    n++;
    const d = process.cpuUsage(t0);
    used = d.user + d.system;
  }
  if (sink === Symbol.for('never')) console.log(sink);
  return used / n;
}

async function child(root: string): Promise<void> {
  // Everything from the checkout measured, the blocks too (its own bench/figures/codec.ts).
  const at = (p: string) => pathToFileURL(`${root}/${p}`).href;
  await import(at('src/modules/registry.ts'));
  const frame = await import(at('src/codec/frame.ts'));
  const { BlockCodec } = await import(at('src/model/block.ts'));
  const { sampleBlock } = await import(at('bench/figures/codec.ts'));
  const ours: Op = (block) => {
    const r = frame.decode(BlockCodec, frame.encode(BlockCodec, block, SIZE_HINT), LIMITS);
    if (!r.ok) throw new Error(`${root}: ${r.error.message}`);
    return r.value;
  };
  const msgpackr: Op = (b) => unpack(pack(b));
  const out: Sample[] = [];
  for (const [variant, blocks] of [
    ['recurring', [sampleBlock()]],
    ['no account recurring', Array.from({ length: NO_REUSE_BLOCKS }, () => sampleBlock(true))],
  ] as const) {
    let i = 0;
    const next = () => blocks[i++ % blocks.length];
    cpuPerOp(ours, next, 400);
    cpuPerOp(msgpackr, next, 400);
    const a: number[] = [];
    const b: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      if (r % 2 === 0) a.push(cpuPerOp(ours, next, ROUND_MS));
      b.push(cpuPerOp(msgpackr, next, ROUND_MS));
      if (r % 2 === 1) a.push(cpuPerOp(ours, next, ROUND_MS));
    }
    out.push({ variant, ours_us: median(a), msgpackr_us: median(b), ratio: median(b) / median(a) });
  }
  console.log(JSON.stringify(out));
}

function spread(v: number[]): string {
  const s = [...v].sort((x, y) => x - y);
  return `${s[0]!.toFixed(2)}–${s[s.length - 1]!.toFixed(2)}`;
}

async function main(): Promise<void> {
  if (process.argv[2] === '--child') return child(process.argv[3]!);
  const before = process.argv[2];
  if (before === undefined) throw new Error('usage: codec-pair.ts <before checkout> [pairs]');
  const after = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
  const pairs = Number(process.argv[3] ?? 3);
  const self = fileURLToPath(import.meta.url);
  const run = (root: string): Sample[] =>
    JSON.parse(
      execFileSync(process.execPath, [...process.execArgv, self, '--child', root], { encoding: 'utf8' })
        .trim()
        .split('\n')
        .at(-1)!,
    );
  const ratios = new Map<string, number[]>();
  for (let p = 0; p < pairs; p++) {
    // Alternate which goes first, so neither always runs after the same one.
    const order = p % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const);
    for (const which of order) {
      for (const s of run(which === 'before' ? before : after)) {
        const key = `${s.variant} ${which}`;
        ratios.set(key, [...(ratios.get(key) ?? []), s.ratio]);
        console.log(
          `pair ${p + 1} ${which.padEnd(6)} ${s.variant.padEnd(20)} ours ${s.ours_us.toFixed(0)} µs, msgpackr ${s.msgpackr_us.toFixed(0)} µs, ratio ${s.ratio.toFixed(2)}`,
        );
      }
    }
  }
  for (const [key, v] of ratios)
    console.log(`${key.padEnd(28)} ratio median ${median(v).toFixed(2)}  spread ${spread(v)}`);
}

await main();
