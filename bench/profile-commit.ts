// Profile of the commit path (≥ 10,000 committed tx/s, one peer, 2 cores). A node in a temporary
// directory gets accounts and an asset; pre-signed one-transfer transactions (signing not timed) go through
// `node.pipeline.submit` as fast as admission allows; commits are counted on the event bus. Stage times come
// from timers wrapped around pipeline methods for the run only, admission's CPU cost from a micro run over
// the same kind of frames, and an Ed25519 baseline (inline, 2-thread VerifyPool) is taken in the same run.
//
//   node --import tsx bench/profile-commit.ts [--txs 20000] [--accounts 1024] [--threads 1]
//        [--fsync both|on|off] [--in-flight 16384] [--concurrency 1024] [--json out.json]
//        [--profile <prefix>]   (V8 CPU and allocation profiles of each measured run)

import { availableParallelism, loadavg } from 'node:os';
import { DEFAULT_DECODE_LIMITS } from '../src/codec/limits.js';
import { SinglePeerEngine } from '../src/consensus/single-peer.js';
import { ed25519Verify } from '../src/crypto/ed25519.js';
import { hash } from '../src/crypto/hash.js';
import { Ed25519KeyPair } from '../src/crypto/signer.js';
import { type VerifyItem, VerifyPool } from '../src/crypto/verify-pool.js';
import type { Instruction } from '../src/model/instructions.js';
import { decodeSignedTransaction } from '../src/pipeline/admission.js';
import { EventBus } from '../src/pipeline/event-bus.js';
import { Ledger } from '../src/pipeline/ledger.js';
import { Pipeline } from '../src/pipeline/pipeline.js';
import { BlockExecution } from '../src/state/executor.js';
import { BlockLog } from '../src/storage/block-log.js';
import { StateStore } from '../src/storage/state-store.js';
import { run, startTestNode, type TestNode } from '../test/helpers/node.js';
import { buildTx, frameTx, newAccount, type TestAccount } from '../test/helpers/tx.js';

/** Instructions per setup transaction (well under the default 4,096 per transaction). */
const SETUP_CHUNK = 200;
const DOMAIN = 'bench';
const DEFINITION = `unit#${DOMAIN}`;

type Options = ReturnType<typeof parseArgs>;

function parseArgs(argv: string[]) {
  const get = (name: string, dflt: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1]! : dflt;
  };
  const fsync = get('fsync', 'both');
  return {
    txs: Number(get('txs', '20000')),
    accounts: Number(get('accounts', '1024')),
    threads: Number(get('threads', '1')),
    fsync: fsync === 'both' ? [true, false] : [fsync === 'on'],
    inFlight: Number(get('in-flight', '16384')),
    concurrency: Number(get('concurrency', '1024')),
    json: argv.includes('--json') ? get('json', 'profile.json') : undefined,
    /** Profiles go to `<prefix>-fsync-on|off.cpuprofile` and `.heapprofile`. */
    cpuProfile: argv.includes('--profile') ? get('profile', 'commit') : undefined,
  };
}

interface Stage {
  ms: number;
  calls: number;
}
type Stages = Record<string, Stage>;
// biome-ignore lint/suspicious/noExplicitAny: prototypes are patched by method name for the run only.
type Proto = any;

const addTime = (stage: Stage, t0: number) => {
  stage.ms += performance.now() - t0;
  stage.calls++;
};

/** Wraps `proto[method]` to add its time (sync, or until its promise settles) to `stages[name]`. */
function timeMethod(stages: Stages, name: string, proto: Proto, method: string): () => void {
  const original = proto[method];
  if (typeof original !== 'function') throw new Error(`no method ${method} to time`);
  const stage: Stage = stages[name] ?? { ms: 0, calls: 0 };
  stages[name] = stage;
  // A plain function forwarding `arguments` (no rest array, no closure per call): the wrapper must cost
  // little next to what it times, and the timed functions allocate little themselves.
  proto[method] = function (this: unknown) {
    const t0 = performance.now();
    // biome-ignore lint/complexity/noArguments: forwarding every argument as given, without a copy.
    const out = original.apply(this, arguments);
    if (out instanceof Promise) return out.finally(() => addTime(stage, t0));
    addTime(stage, t0);
    return out;
  };
  return () => {
    proto[method] = original;
  };
}

function installTimers(stages: Stages): () => void {
  const undo = [
    timeMethod(stages, 'pipeline.execute', Pipeline.prototype, 'execute'),
    timeMethod(stages, 'exec.apply', BlockExecution.prototype, 'apply'),
    timeMethod(stages, 'exec.stateRoot', BlockExecution.prototype, 'stateRoot'),
    timeMethod(stages, 'exec.changes', BlockExecution.prototype, 'changes'),
    timeMethod(stages, 'exec.commit', BlockExecution.prototype, 'commit'),
    timeMethod(stages, 'engine.certify', SinglePeerEngine.prototype, 'certify'),
    timeMethod(stages, 'pipeline.commit', Pipeline.prototype, 'commit'),
    timeMethod(stages, 'ledger.commit', Ledger.prototype, 'commit'),
    timeMethod(stages, 'ledger.applyCommitted', Ledger.prototype, 'applyCommitted'),
    timeMethod(stages, 'log.append', BlockLog.prototype, 'append'),
    timeMethod(stages, 'store.commit', StateStore.prototype, 'commit'),
    // `publish` became `publishBlock` (a committed block's events) + `publishPending` (queued, expired):
    // both add to one stage, all events as before.
    timeMethod(stages, 'events.publish', EventBus.prototype, 'publishBlock'),
    timeMethod(stages, 'events.publish', EventBus.prototype, 'publishPending'),
  ];
  return () => {
    for (const u of undo.reverse()) u();
  };
}

const ms = (s: Stages, k: string) => s[k]?.ms ?? 0;

/** Per-stage µs per committed transaction, with derived stages (a parent minus its timed children). */
function perTx(s: Stages, committed: number): Record<string, number> {
  const us = (v: number) => (v * 1000) / committed;
  return {
    'execution (apply, all txs)': us(ms(s, 'exec.apply')),
    'state root (diff + accumulator)': us(ms(s, 'exec.stateRoot')),
    'header (merkle roots, block hash)': us(
      ms(s, 'pipeline.execute') - ms(s, 'exec.apply') - ms(s, 'exec.stateRoot'),
    ),
    'certify (BLS sign)': us(ms(s, 'engine.certify')),
    'seal + block encode': us(ms(s, 'ledger.commit') - ms(s, 'log.append') - ms(s, 'ledger.applyCommitted')),
    'log append + fsync (wall)': us(ms(s, 'log.append')),
    'changes()': us(ms(s, 'exec.changes')),
    'merge into base (commit)': us(ms(s, 'exec.commit')),
    'index + changes bookkeeping': us(
      ms(s, 'ledger.applyCommitted') - ms(s, 'exec.changes') - ms(s, 'exec.commit'),
    ),
    'event publication (commit side)': us(ms(s, 'pipeline.commit') - ms(s, 'ledger.commit')),
    'event bus publish (all events)': us(ms(s, 'events.publish')),
    'state store commit (wall, background)': us(ms(s, 'store.commit')),
  };
}

async function setup(t: TestNode, accounts: TestAccount[]): Promise<void> {
  const metadata = new Map();
  const mintable = { kind: 'Infinitely' } as const;
  const all: Instruction[] = [
    { kind: 'RegisterDomain', id: DOMAIN, metadata },
    { kind: 'RegisterAssetDefinition', id: DEFINITION, scale: 0, mintable, metadata },
  ];
  const amount = { mantissa: 10n ** 12n, scale: 0 };
  for (const a of accounts) {
    all.push({ kind: 'RegisterAccount', id: a.id, metadata });
    all.push({ kind: 'MintAsset', asset: `${DEFINITION}#${a.id}`, amount });
  }
  for (let i = 0; i < all.length; i += SETUP_CHUNK) {
    const r = await run(t, t.admin, all.slice(i, i + SETUP_CHUNK));
    if (r.status.kind !== 'Committed') throw new Error(`setup failed: ${JSON.stringify(r.status)}`);
  }
}

/**
 * `n` signed one-transfer transactions: senders round-robin (so the per-account queue cap never binds),
 * destinations and amounts from a seeded generator, so a block's transfers do not cancel out and each
 * changes about two balance rows, as real traffic would (a fixed ring would leave most rows unchanged).
 */
function signTransfers(accounts: TestAccount[], chainId: string, n: number, seed: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  let state = seed >>> 0;
  const next = () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0; // LCG (Numerical Recipes)
    return state;
  };
  for (let i = 0; i < n; i++) {
    const from = accounts[i % accounts.length]!;
    const to = accounts[(i + 1 + (next() % (accounts.length - 1))) % accounts.length]!;
    const ins: Instruction = {
      kind: 'TransferAsset',
      source: `${DEFINITION}#${from.id}`,
      destination: to.id,
      amount: { mantissa: BigInt(1 + (next() % 9)), scale: 0 },
    };
    // Nonces differ between the sets too, so no two transactions of one run can be identical.
    out.push(frameTx(buildTx(from, [ins], { chainId, nonce: seed * 10_000_000 + i })));
  }
  return out;
}

/**
 * Submits every frame the way many concurrent clients would: up to `concurrency` submissions in admission
 * at once and at most `inFlight` admitted but not yet final; resolves when each one's final event is seen.
 */
async function push(t: TestNode, frames: Uint8Array[], inFlight: number, concurrency: number) {
  const c = { submitted: 0, refused: 0, committed: 0, rejected: 0 };
  let admitting = 0;
  let next = 0;
  let pump = () => {};
  const off = t.node.pipeline.events.subscribe((env) => {
    const e = env.event;
    if (e.kind !== 'Transaction') return;
    if (e.status.kind === 'Committed') c.committed++;
    else if (e.status.kind === 'Rejected' || e.status.kind === 'Expired') c.rejected++;
    else return;
    pump();
  });
  try {
    await new Promise<void>((done, fail) => {
      pump = () => {
        const open = () => c.submitted + admitting - c.committed - c.rejected;
        while (next < frames.length && admitting < concurrency && open() < inFlight) {
          const frame = frames[next++]!;
          admitting++;
          // Counted as each submission resolves (a microtask), before any block holding it is announced.
          t.node.pipeline.submit(frame).then((r) => {
            admitting--;
            if (r.ok) c.submitted++;
            else c.refused++;
            pump();
          }, fail);
        }
        if (next >= frames.length && admitting === 0 && open() === 0) done();
      };
      pump();
    });
  } finally {
    off();
  }
  return c;
}

/** Starts V8's CPU and allocation samplers; the returned function stops them and writes both profiles. */
async function startProfiler(): Promise<(path: string) => Promise<void>> {
  const { Session } = await import('node:inspector/promises');
  const { writeFile } = await import('node:fs/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  await session.post('HeapProfiler.enable'); // counting collected objects too: GC time comes from them
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 16_384,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  return async (path) => {
    const { profile } = await session.post('Profiler.stop');
    await writeFile(path, JSON.stringify(profile));
    const heap = await session.post('HeapProfiler.stopSampling');
    await writeFile(path.replace(/\.cpuprofile$/, '.heapprofile'), JSON.stringify(heap.profile));
    session.disconnect();
  };
}

async function runOnce(opts: Options, fsync: boolean) {
  const t = await startTestNode({ 'storage.fsync': fsync, 'verify.threads': opts.threads });
  try {
    const accounts = Array.from({ length: opts.accounts }, () => newAccount(DOMAIN));
    await setup(t, accounts);
    // Warm-up (JIT, worker threads), then the measured run over fresh transactions.
    const warm = signTransfers(accounts, t.chainId, Math.min(2000, opts.txs), 1);
    await push(t, warm, opts.inFlight, opts.concurrency);
    const frames = signTransfers(accounts, t.chainId, opts.txs, 2);
    const stages: Stages = {};
    const restore = installTimers(stages);
    const height0 = t.node.ledger.height();
    const elu0 = performance.eventLoopUtilization();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const profiler = opts.cpuProfile === undefined ? undefined : await startProfiler();
    const c = await push(t, frames, opts.inFlight, opts.concurrency);
    const seconds = (performance.now() - t0) / 1000;
    const elu = performance.eventLoopUtilization(elu0);
    const cpu = process.cpuUsage(cpu0);
    await profiler?.(`${opts.cpuProfile}-fsync-${fsync ? 'on' : 'off'}.cpuprofile`);
    restore();
    await t.node.ledger.flushState();
    const n = Math.max(1, c.committed);
    return {
      fsync,
      ...c,
      seconds,
      txPerS: c.committed / seconds,
      blocks: t.node.ledger.height() - height0,
      mainThreadUtilisation: elu.utilization,
      // Process CPU (main thread, verify worker, LMDB, libuv) per committed transaction: less sensitive
      // than wall time to other load on the machine.
      cpuUsPerTx: (cpu.user + cpu.system) / n,
      heapUsedMb: process.memoryUsage().heapUsed / 2 ** 20,
      stagesUsPerTx: perTx(stages, n),
    };
  } finally {
    await t.cleanup();
  }
}

/** µs per call of `op` over every item, repeated for about `budgetMs`. */
function usPer<T>(items: readonly T[], budgetMs: number, op: (item: T) => unknown): number {
  let n = 0;
  let sink: unknown;
  const t0 = performance.now();
  do {
    for (const item of items) sink = op(item);
    n += items.length;
  } while (performance.now() - t0 < budgetMs);
  if (sink === Symbol.for('never')) console.log(sink);
  return ((performance.now() - t0) * 1000) / n;
}

function admissionMicro(frames: Uint8Array[]): Record<string, number> {
  const limits = DEFAULT_DECODE_LIMITS;
  const decoded = frames.map((f) => {
    const d = decodeSignedTransaction(f, limits);
    if (!d.ok) throw new Error('bench frame does not decode');
    return d;
  });
  const keys = decoded.map((d) => Buffer.from(d.tx.payload.authority.slice(6, 70), 'hex'));
  const payloadHashes = decoded.map((d) => hash(d.payloadBytes));
  let i = 0;
  return {
    'decode (unframe + decode + payload bounds)': usPer(frames, 400, (f) =>
      decodeSignedTransaction(f, limits),
    ),
    'hash tx + hash payload': usPer(frames, 300, (f) => {
      const d = decoded[i++ % decoded.length]!;
      return [hash(d.txBytes), hash(d.payloadBytes), f];
    }),
    'Ed25519 verify (inline)': usPer(frames, 400, () => {
      const k = i++ % decoded.length;
      return ed25519Verify(keys[k]!, payloadHashes[k]!, decoded[k]!.tx.signature);
    }),
  };
}

/** Verifications per second: inline, through a 2-thread pool in big batches, and single-item calls. */
async function ed25519Baseline(): Promise<Record<string, number>> {
  const keys = Array.from({ length: 16 }, () => Ed25519KeyPair.generate());
  const items: VerifyItem[] = Array.from({ length: 1024 }, (_, i) => {
    const message = hash(new Uint8Array(4).fill(i));
    return { publicKey: keys[i % 16]!.publicKey.bytes, message, signature: keys[i % 16]!.sign(message) };
  });
  const inline = 1e6 / usPer(items, 1000, (it) => ed25519Verify(it.publicKey, it.message, it.signature));
  const pool = new VerifyPool({ threads: 2 });
  try {
    if (!(await pool.verify(items)).every((ok) => ok)) throw new Error('baseline signature did not verify');
    /** Verifications per second with `width` callers each calling `call` in a loop for `ms`. */
    const lanes = async (ms: number, call: () => Promise<boolean[]>, width: number) => {
      let done = 0;
      const t0 = performance.now();
      const lane = async () => {
        while (performance.now() < t0 + ms) {
          const answers = await call(); // not `done += await …`: that reads `done` before the wait
          done += answers.length;
        }
      };
      await Promise.all(Array.from({ length: width }, lane));
      return (done * 1000) / (performance.now() - t0);
    };
    const batched = await lanes(1500, () => pool.verify(items), 4);
    // How the node calls it: one item per call, many calls outstanding.
    let j = 0;
    const single = await lanes(1500, () => pool.verify([items[j++ % items.length]!]), 2048);
    return {
      'inline (main thread)': inline,
      'VerifyPool 2 threads, 1024-item calls': batched,
      'VerifyPool 2 threads, 1-item calls x2048 concurrent': single,
    };
  } finally {
    await pool.close();
  }
}

function table(title: string, rows: Record<string, number>, unit: string, digits = 1): void {
  console.log(`\n${title}`);
  const width = Math.max(...Object.keys(rows).map((k) => k.length));
  for (const [k, v] of Object.entries(rows))
    console.log(`  ${k.padEnd(width)}  ${v.toFixed(digits).padStart(10)} ${unit}`);
}

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  console.log(
    `profile-commit: ${opts.txs} transfers over ${opts.accounts} accounts, verify.threads ${opts.threads}, ` +
      `${availableParallelism()} cores, node ${process.version}, load ${loadavg()[0]!.toFixed(2)}`,
  );
  const baseline = await ed25519Baseline();
  table('Ed25519 verifications/s (same run)', baseline, '/s', 0);
  const accounts = Array.from({ length: 64 }, () => newAccount(DOMAIN));
  const admission = admissionMicro(signTransfers(accounts, 'torana-test', 2000, 3));
  table('Admission CPU per tx (main thread, micro run)', admission, 'µs');
  const runs: Awaited<ReturnType<typeof runOnce>>[] = [];
  for (const fsync of opts.fsync) {
    const r = await runOnce(opts, fsync);
    runs.push(r);
    console.log(
      `\nfsync ${fsync ? 'on' : 'off'}: ${r.committed} committed, ${r.rejected} rejected, ${r.refused} refused in ` +
        `${r.seconds.toFixed(2)} s over ${r.blocks} blocks → ${r.txPerS.toFixed(0)} committed tx/s ` +
        `(main thread busy ${(r.mainThreadUtilisation * 100).toFixed(0)} %, process CPU ${r.cpuUsPerTx.toFixed(0)} µs/tx, heap ${r.heapUsedMb.toFixed(0)} MB)`,
    );
    table('  per-stage µs per committed tx', r.stagesUsPerTx, 'µs');
  }
  if (opts.json !== undefined) {
    const { writeFile } = await import('node:fs/promises');
    await writeFile(opts.json, `${JSON.stringify({ opts, baseline, admission, runs }, null, 2)}\n`);
  }
}

await main();
