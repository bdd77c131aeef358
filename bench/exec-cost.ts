// Per-transaction CPU of executing and committing a block, as every peer of a network pays it: two
// pipelines over LMDB ledgers in temporary directories (fsync as the node does), the same genesis, 1,024
// accounts holding one asset. Per round, 512 signed one-transfer transactions are admitted by both
// (untimed: admission has figures of its own; the follower's verified cache then holds them, as gossip
// leaves it), then timed with `process.cpuUsage()` (every thread of the process: LMDB's writer and the
// fsyncs included):
//   - leader execute: `Pipeline.execute` (Ledger.execute: apply, roots, header);
//   - leader commit: `Pipeline.commit` (block log append + fsync, state apply, history indexes, events)
//     and the state store's write of the block (`Ledger.flushState`);
//   - follower check: `Pipeline.executeProposed` of the leader's proposal bytes (decode, checks,
//     re-execution);
//   - follower commit: as the leader's.
// The baseline is the same round's Ed25519 verify of the 512 signatures on the main thread. The certificate
// (a BLS signature) is made outside the timed spans. Medians and spreads over the rounds are printed.
//
//   node --conditions=torana-source --import tsx bench/exec-cost.ts [--rounds 20] [--warm 4]
//        [--accounts 1024] [--txs 512] [--fsync on|off] [--json out.json]

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_DECODE_LIMITS } from '../src/codec/limits.js';
import { ed25519Verify } from '../src/crypto/ed25519.js';
import { encodeProposedBlock } from '../src/model/block.js';
import type { Instruction } from '../src/model/instructions.js';
import { payloadHash, type SignedTransaction, transactionHash } from '../src/model/transaction.js';
import { loadProofPins } from '../src/node/proof-pins.js';
import { Ledger } from '../src/pipeline/ledger.js';
import type { Pipeline } from '../src/pipeline/pipeline.js';
import {
  admin,
  certify,
  commitGenesis,
  GENESIS_TIME_MS,
  ManualClock,
  MEMORY_CHAIN_ID,
  memoryPipeline,
} from '../test/helpers/memory-chain.js';
import { buildTx, frameTx, newAccount, type TestAccount } from '../test/helpers/tx.js';

const DOMAIN = 'bench';
const DEFINITION = `unit#${DOMAIN}`;

function parseArgs(argv: string[]) {
  const get = (name: string, dflt: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1]! : dflt;
  };
  return {
    rounds: Number(get('rounds', '20')),
    warm: Number(get('warm', '4')),
    accounts: Number(get('accounts', '1024')),
    txs: Number(get('txs', '512')),
    fsync: get('fsync', 'on') === 'on',
    json: argv.includes('--json') ? get('json', 'exec-cost.json') : undefined,
  };
}

interface Peer {
  pipeline: Pipeline<string>;
  ledger: Ledger;
  clock: ManualClock;
  dir: string;
}

async function openPeer(fsync: boolean): Promise<Peer> {
  const dir = await mkdtemp(join(tmpdir(), 'torana-exec-cost-'));
  const { ledger } = await Ledger.open({
    dir,
    chainId: MEMORY_CHAIN_ID,
    fsync,
    decodeLimits: DEFAULT_DECODE_LIMITS,
    // The node's defaults (config/schema.ts storage.*).
    segmentBytesMax: 128 * 1024 * 1024,
    lmdbMapBytes: 16 * 1024 * 1024 * 1024,
    stateTreeCacheNodes: 200_000,
    stateRowCacheRows: 100_000,
    stateTreeVersionsKept: 128,
    proofRetention: await loadProofPins(dir),
  });
  await commitGenesis(ledger);
  const clock = new ManualClock();
  const pipeline = memoryPipeline<string>(ledger, clock, {
    queue: { capacity: 100_000, perAccountMax: 100_000, expiryMs: 3_600_000 },
  });
  return { pipeline, ledger, clock, dir };
}

const cpuUs = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

/** Commits a block of `txs` on every peer (set-up blocks: untimed). */
async function commitEverywhere(peers: Peer[], txs: SignedTransaction[], timeMs: number): Promise<void> {
  const hashes = txs.map((t) => transactionHash(t));
  for (const p of peers) {
    const executed = p.ledger.execute({ view: 0, creationTimeMs: timeMs, transactions: txs, hashes });
    const bad = executed.results.find((r) => r.kind === 'Rejected');
    if (bad !== undefined) throw new Error(`set-up rejected: ${JSON.stringify(bad)}`);
    await p.pipeline.commit(executed, certify(executed.header.height, executed.hash));
  }
}

function transfers(accounts: TestAccount[], n: number, round: number, timeMs: number): SignedTransaction[] {
  let state = (round * 7919 + 1) >>> 0;
  const next = () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0; // LCG (Numerical Recipes)
    return state;
  };
  const out: SignedTransaction[] = [];
  for (let i = 0; i < n; i++) {
    const f = (round * n + i) % accounts.length;
    const from = accounts[f]!;
    const to = accounts[(f + 1 + (next() % (accounts.length - 1))) % accounts.length]!;
    const ins: Instruction = {
      kind: 'TransferAsset',
      source: `${DEFINITION}#${from.id}`,
      destination: to.id,
      amount: { mantissa: BigInt(1 + (next() % 9)), scale: 0 },
    };
    out.push(
      buildTx(from, [ins], { chainId: MEMORY_CHAIN_ID, creationTimeMs: timeMs, nonce: round * 1e6 + i }),
    );
  }
  return out;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const spread = (xs: number[]) => `${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)}`;

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  const load0 = loadavg()[0]!;
  const leader = await openPeer(opts.fsync);
  const follower = await openPeer(opts.fsync);
  const peers = [leader, follower];
  let timeMs = GENESIS_TIME_MS + 1000;
  const accounts = Array.from({ length: opts.accounts }, () => newAccount(DOMAIN));
  const metadata = new Map();
  const setup: Instruction[] = [
    { kind: 'RegisterDomain', id: DOMAIN, metadata },
    { kind: 'RegisterAssetDefinition', id: DEFINITION, scale: 0, mintable: { kind: 'Infinitely' }, metadata },
  ];
  for (const a of accounts) {
    setup.push({ kind: 'RegisterAccount', id: a.id, metadata });
    setup.push({
      kind: 'MintAsset',
      asset: `${DEFINITION}#${a.id}`,
      amount: { mantissa: 10n ** 12n, scale: 0 },
    });
  }
  const setupTxs: SignedTransaction[] = [];
  for (let i = 0; i < setup.length; i += 200)
    setupTxs.push(
      buildTx(admin, setup.slice(i, i + 200), { chainId: MEMORY_CHAIN_ID, creationTimeMs: timeMs, nonce: i }),
    );
  await commitEverywhere(peers, setupTxs, timeMs);

  const rows: Record<string, number[]> = {
    'leader execute': [],
    'leader commit': [],
    'follower check': [],
    'follower commit': [],
    'ed25519 verify (baseline)': [],
  };
  for (let round = 0; round < opts.warm + opts.rounds; round++) {
    timeMs += 1000;
    for (const p of peers) p.clock.advance(timeMs - p.clock.nowMs());
    const txs = transfers(accounts, opts.txs, round, timeMs);
    const senders = txs.map((_, i) => accounts[(round * opts.txs + i) % accounts.length]!);
    const frames = txs.map((t) => frameTx(t));
    for (const p of peers) {
      const admitted = await p.pipeline.admitMany(frames);
      const refused = admitted.find((r) => !r.ok);
      if (refused !== undefined) throw new Error(`admission refused: ${JSON.stringify(refused)}`);
    }
    const taken = leader.pipeline.takeTransactions(opts.txs);
    if (taken.length !== opts.txs) throw new Error(`took ${taken.length} of ${opts.txs}`);

    // Baseline: the same block's signatures, verified on this thread.
    const messages = txs.map((t) => payloadHash(t.payload));
    let c0 = cpuUs();
    for (let i = 0; i < txs.length; i++) {
      const from = senders[i]!;
      if (!ed25519Verify(from.key.publicKey.bytes, messages[i]!, txs[i]!.signature))
        throw new Error('a bad signature');
    }
    const verify = cpuUs() - c0;

    c0 = cpuUs();
    const executed = leader.pipeline.execute(0, timeMs, taken);
    const exec = cpuUs() - c0;
    const bytes = encodeProposedBlock(
      { header: executed.header, transactions: executed.transactions },
      executed.encodedTransactions,
    );
    const cert = certify(executed.header.height, executed.hash);
    c0 = cpuUs();
    await leader.pipeline.commit(executed, cert);
    await leader.ledger.flushState();
    const commit = cpuUs() - c0;

    c0 = cpuUs();
    const verdict = await follower.pipeline.executeProposed(bytes);
    const check = cpuUs() - c0;
    if (!verdict.ok) throw new Error(`follower refused: ${verdict.reason} ${verdict.detail}`);
    const rejected = verdict.executed.results.find((r) => r.kind === 'Rejected');
    if (rejected !== undefined) throw new Error(`a transfer was rejected: ${JSON.stringify(rejected)}`);
    c0 = cpuUs();
    await follower.pipeline.commit(verdict.executed, cert);
    await follower.ledger.flushState();
    const fcommit = cpuUs() - c0;

    if (round < opts.warm) continue;
    const n = opts.txs;
    rows['leader execute']!.push(exec / n);
    rows['leader commit']!.push(commit / n);
    rows['follower check']!.push(check / n);
    rows['follower commit']!.push(fcommit / n);
    rows['ed25519 verify (baseline)']!.push(verify / n);
  }
  const total = rows['leader execute']!.map((v, i) => v + rows['leader commit']![i]!);
  const ftotal = rows['follower check']!.map((v, i) => v + rows['follower commit']![i]!);
  rows['leader execute + commit'] = total;
  rows['follower check + commit'] = ftotal;
  const load1 = loadavg()[0]!;
  console.log(
    `exec-cost: ${opts.rounds} rounds of ${opts.txs} transfers (after ${opts.warm} warm-up), ${opts.accounts} accounts, fsync ${opts.fsync ? 'on' : 'off'}, ${availableParallelism()} cores, load ${load0.toFixed(1)} → ${load1.toFixed(1)}`,
  );
  const out: Record<string, { median: number; min: number; max: number }> = {};
  for (const [k, v] of Object.entries(rows)) {
    out[k] = { median: median(v), min: Math.min(...v), max: Math.max(...v) };
    console.log(`  ${k.padEnd(28)} ${median(v).toFixed(1).padStart(7)} µs/tx CPU  (${spread(v)})`);
  }
  const ratios = total.map((v, i) => v / rows['ed25519 verify (baseline)']![i]!);
  console.log(`  leader execute + commit ÷ verify: median ${median(ratios).toFixed(2)} (${spread(ratios)})`);
  if (opts.json !== undefined)
    await writeFile(opts.json, JSON.stringify({ load: [load0, load1], rows: out, raw: rows }, null, 2));
  for (const p of peers) {
    await p.ledger.close();
    await rm(p.dir, { recursive: true, force: true });
  }
}

await main();
