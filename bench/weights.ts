// `node --conditions=torana-source --import tsx bench/weights.ts`: measures what instructions cost to execute on this machine, for the cost
// model's table (docs/cost-model.md, src/model/weights.ts). Each case runs blocks of transactions through
// the real executor and commit path (an in-memory ledger: Ledger.execute then Ledger.commit, which
// includes the state root, the row diff and the block store), subtracts a block of as many one-Log
// transactions, and divides by the instructions measured. Groth16 is timed as the executor calls it
// (verifyGroth16 on a real roster proof). It prints, per kind, the measured µs, the model's weight for
// the same instruction and their ratio: a ratio below 1 means the weight understates the cost.

import { readFileSync } from 'node:fs';
import type { Json } from '../src/codec/codec.js';
import { ed25519Generate, ed25519Sign, ed25519Verify } from '../src/crypto/ed25519.js';
import type { Instruction } from '../src/model/instructions.js';
import { numeric } from '../src/model/numeric.js';
import { type SignedTransaction, transactionHash } from '../src/model/transaction.js';
import { GROTH16_VERIFY_WEIGHT, instructionWeight } from '../src/model/weights.js';
import {
  proveRoster,
  ROSTER_DEPTH,
  releaseProver,
  rosterCommitment,
} from '../src/modules/conference/sdk-zk.js';
import { multisigAccountId } from '../src/modules/multisig/model.js';
import { devPoolAccount, zkParameterInstructions } from '../src/node/zk-dev-genesis.js';
import type { Ledger } from '../src/pipeline/ledger.js';
import { callField, ROSTER_JOIN, senderField } from '../src/zk/bind.js';
import { fieldToHex } from '../src/zk/field.js';
import { verifyGroth16 } from '../src/zk/groth16-verify.js';
import { merkleRoot } from '../src/zk/poseidon-tree.js';
import { parseVerifyingKey } from '../src/zk/verifying-key.js';
import {
  admin,
  certify,
  commitGenesis,
  MEMORY_CHAIN_ID,
  newDisk,
  openMemoryLedger,
} from '../test/helpers/memory-chain.js';
import { buildTx } from '../test/helpers/tx.js';

export const COIN = 'coin#system';
export const NATIVE = 'gas#system';
const empty = new Map();

/** The measured cases' set-up: a coin, the native asset and the dev shielded pool on a memory ledger. */
export function setupInstructions(): Instruction[] {
  const pool = devPoolAccount('system');
  return [
    {
      kind: 'RegisterAssetDefinition',
      id: COIN,
      scale: 2,
      mintable: { kind: 'Infinitely' },
      metadata: empty,
    },
    {
      kind: 'RegisterAssetDefinition',
      id: NATIVE,
      scale: 6,
      mintable: { kind: 'Infinitely' },
      metadata: empty,
    },
    { kind: 'MintAsset', asset: `${NATIVE}#${admin.id}`, amount: numeric('1000000000') },
    { kind: 'MintAsset', asset: `${COIN}#${admin.id}`, amount: numeric('1000000000') },
    { kind: 'SetParameter', parameter: { kind: 'Custom', id: 'native_asset', payload: NATIVE } },
    { kind: 'RegisterAccount', id: pool, metadata: empty },
    ...zkParameterInstructions(pool, '1', admin.id),
    {
      kind: 'RegisterMultisig',
      account: multisigAccountId('system', 'bench'),
      seed: 'bench',
      spec: { signatories: new Map([[admin.id, 1]]), quorum: 1, transactionTtlMs: 3_600_000 },
    },
  ];
}

let timeMs = 1_700_000_010_000;

/** Executes and commits one block of `txs`; returns its duration in ms and every rejection. */
export async function runBlock(
  ledger: Ledger,
  txs: SignedTransaction[],
): Promise<{ ms: number; rejected: string[] }> {
  timeMs += 1000;
  const hashes = txs.map((t) => transactionHash(t));
  const t0 = performance.now();
  const executed = ledger.execute({ view: 0, creationTimeMs: timeMs, transactions: txs, hashes });
  await ledger.commit(executed, certify(executed.header.height, executed.hash));
  const ms = performance.now() - t0;
  const rejected = executed.results.flatMap((r) =>
    r.kind === 'Rejected' ? [`${r.reason.code}: ${r.reason.message ?? ''}`] : [],
  );
  return { ms, rejected };
}

export async function benchLedger(): Promise<Ledger> {
  const { ledger } = await openMemoryLedger(newDisk());
  await commitGenesis(ledger);
  const r = await runBlock(ledger, [tx(setupInstructions())]);
  if (r.rejected.length > 0) throw new Error(`set-up rejected: ${r.rejected[0]}`);
  return ledger;
}

let nonce = 0;
export function tx(instructions: Instruction[]): SignedTransaction {
  return buildTx(admin, instructions, { chainId: MEMORY_CHAIN_ID, creationTimeMs: timeMs, nonce: nonce++ });
}

interface Case {
  label: string;
  /** The instructions of transaction `t` of a block (each case makes unique ids from `seq`). */
  make: (seq: () => number) => Instruction[];
  txs: number;
}

let counter = 0;
const seq = () => counter++;
const logs = (n: number): Instruction[] =>
  Array.from(
    { length: n },
    () => ({ kind: 'Log', level: { kind: 'Info' }, message: 'x'.repeat(100) }) as Instruction,
  );

export const CASES: Case[] = [
  { label: 'Log (100 B)', make: () => logs(50), txs: 20 },
  {
    label: 'MintAsset',
    make: () =>
      Array.from(
        { length: 50 },
        () => ({ kind: 'MintAsset', asset: `${COIN}#${admin.id}`, amount: numeric('1') }) as Instruction,
      ),
    txs: 20,
  },
  {
    label: 'TransferAsset',
    make: () =>
      Array.from(
        { length: 50 },
        () =>
          ({
            kind: 'TransferAsset',
            source: `${COIN}#${admin.id}`,
            destination: devPoolAccount('system'),
            amount: numeric('1'),
          }) as Instruction,
      ),
    txs: 20,
  },
  {
    label: 'RegisterAccount',
    make: (s) =>
      Array.from({ length: 50 }, () => {
        const n = s();
        return {
          kind: 'RegisterAccount',
          id: `ed0120${n.toString(16).toUpperCase().padStart(64, '0')}@system`,
          metadata: empty,
        } as Instruction;
      }),
    txs: 20,
  },
  {
    label: 'SetKeyValue (1 KB)',
    make: (s) =>
      Array.from(
        { length: 50 },
        () =>
          ({
            kind: 'SetKeyValue',
            target: { kind: 'Account', id: admin.id },
            key: `k${s() % 64}`,
            value: 'v'.repeat(1000),
          }) as Instruction,
      ),
    txs: 20,
  },
  {
    label: 'GrantPermission',
    make: (s) =>
      Array.from(
        { length: 50 },
        () =>
          ({
            kind: 'GrantPermission',
            account: devPoolAccount('system'),
            permission: { name: 'CanRegisterAccountInDomain', payload: { domain: `d${s()}` } },
          }) as Instruction,
      ),
    txs: 20,
  },
  {
    label: 'ShieldAsset',
    make: (s) => [
      { kind: 'ShieldAsset', amount: numeric('0.000001'), ownerHash: fieldToHex(BigInt(s() + 1)) },
    ],
    txs: 8,
  },
  {
    label: 'ProposeMultisig (1 Log, runs at once)',
    make: (s) => [
      {
        kind: 'ProposeMultisig',
        multisig: multisigAccountId('system', 'bench'),
        instructions: [{ kind: 'Log', level: { kind: 'Info' }, message: `m${s()}` }],
      },
    ],
    txs: 200,
  },
  {
    label: 'RegisterTrigger (64 MintAsset, registration)',
    make: (s) => [
      {
        kind: 'RegisterTrigger',
        id: `t${s()}`,
        due: { kind: 'Height', height: 1_000_000 },
        instructions: Array.from({ length: 64 }, () => ({
          kind: 'MintAsset',
          asset: `${COIN}#${admin.id}`,
          amount: numeric('1'),
        })),
      },
    ],
    txs: 64,
  },
];

async function measureCase(ledger: Ledger, c: Case): Promise<{ us: number; weight: number }> {
  const rounds = 5;
  let best = Number.POSITIVE_INFINITY;
  let weight = 0;
  for (let r = 0; r < rounds; r++) {
    const bodies = Array.from({ length: c.txs }, () => c.make(seq));
    weight = instructionWeight(bodies[0]![0]!);
    const n = bodies.reduce((a, b) => a + b.length, 0);
    const base = await runBlock(
      ledger,
      bodies.map(() => tx(logs(1))),
    );
    const run = await runBlock(
      ledger,
      bodies.map((b) => tx(b)),
    );
    if (run.rejected.length > 0) throw new Error(`${c.label}: ${run.rejected[0]}`);
    best = Math.min(best, ((run.ms - base.ms) * 1000) / n);
  }
  return { us: best, weight };
}

/** The µs of one transaction of one Log (the transaction base and a Log). */
async function measureTransaction(ledger: Ledger): Promise<number> {
  let best = Number.POSITIVE_INFINITY;
  for (let r = 0; r < 3; r++) {
    const empty0 = await runBlock(ledger, []);
    const run = await runBlock(
      ledger,
      Array.from({ length: 200 }, () => tx(logs(1))),
    );
    best = Math.min(best, ((run.ms - empty0.ms) * 1000) / 200);
  }
  return best;
}

/** The µs of a block that runs 16 due triggers of 64 MintAsset each, per mint. */
async function measureTriggerRun(ledger: Ledger): Promise<{ us: number; weight: number }> {
  let best = Number.POSITIVE_INFINITY;
  const mint: Instruction = { kind: 'MintAsset', asset: `${COIN}#${admin.id}`, amount: numeric('1') };
  for (let r = 0; r < 3; r++) {
    const h = ledger.height() + 2;
    const reg = Array.from({ length: 16 }, () =>
      tx([
        {
          kind: 'RegisterTrigger',
          id: `run${seq()}`,
          due: { kind: 'Height', height: h },
          instructions: Array(64).fill(mint),
        },
      ]),
    );
    await runBlock(ledger, reg);
    const run = await runBlock(ledger, []);
    const idle = await runBlock(ledger, []);
    best = Math.min(best, ((run.ms - idle.ms) * 1000) / (16 * 64));
  }
  return { us: best, weight: instructionWeight(mint) };
}

async function prepareGroth16() {
  const vk = parseVerifyingKey(
    JSON.parse(readFileSync(new URL('../zk/artifacts/roster.vkey.json', import.meta.url), 'utf8')) as Json,
  );
  if (vk === undefined) throw new Error('the roster verifying key does not parse');
  const secrets = [11n, 12n, 13n, 14n];
  const roster = secrets.map(rosterCommitment);
  const call = 'bench:room';
  const sender = 'alice@bench';
  const proof = await proveRoster({ callId: call, secret: secrets[1]!, roster, action: 'join', sender });
  await releaseProver();
  const signals = [
    proof.nullifier,
    proof.nullifier,
    merkleRoot(ROSTER_DEPTH, roster),
    callField(call),
    ROSTER_JOIN,
    senderField(sender),
  ];
  return { vk, proof, signals };
}

function timeGroth16({ vk, proof, signals }: Awaited<ReturnType<typeof prepareGroth16>>): number {
  let best = Number.POSITIVE_INFINITY;
  for (let r = 0; r < 5; r++) {
    const t0 = performance.now();
    if (!verifyGroth16(vk, proof.proof, signals)) throw new Error('the roster proof does not verify');
    best = Math.min(best, (performance.now() - t0) * 1000);
  }
  return best;
}

/**
 * The machine's load factor: the quiet reference machine verifies one Ed25519 signature (libsodium) in
 * about ED25519_QUIET_US µs (bench/README.md, conference_zk_verify_per_s baseline); measured figures are
 * divided by (measured Ed25519 µs / ED25519_QUIET_US) so a run on a busy machine still reads in units.
 */
const ED25519_QUIET_US = 50;
function loadFactor(): number {
  const key = ed25519Generate();
  const message = new Uint8Array(32).fill(7);
  const signature = ed25519Sign(key.seed, message);
  let best = Number.POSITIVE_INFINITY;
  for (let r = 0; r < 5; r++) {
    const t0 = performance.now();
    for (let i = 0; i < 200; i++) ed25519Verify(key.publicKey, message, signature);
    best = Math.min(best, ((performance.now() - t0) * 1000) / 200);
  }
  return Math.max(1, best / ED25519_QUIET_US);
}

async function main(): Promise<void> {
  const ledger = await benchLedger();
  // Measured again before every case: the load of a shared machine changes within a run.
  let factor = loadFactor();
  const rows: string[] = [];
  const line = (label: string, raw: number, weight: number) => {
    const us = raw / factor;
    rows.push(
      `${label.padEnd(48)} ${raw.toFixed(1).padStart(10)} µs raw  load ×${factor.toFixed(2)} ${us.toFixed(1).padStart(10)} µs ${String(weight).padStart(8)} w  ratio ${(weight / us).toFixed(2)}`,
    );
  };
  const base = await measureTransaction(ledger);
  line('transaction of one Log', base, 20 + instructionWeight(logs(1)[0]!));
  for (const c of CASES) {
    factor = loadFactor();
    const m = await measureCase(ledger, c);
    line(c.label, m.us, m.weight);
  }
  factor = loadFactor();
  const t = await measureTriggerRun(ledger);
  line('MintAsset run by a due trigger', t.us, t.weight);
  const proofs = await prepareGroth16();
  factor = loadFactor();
  line('Groth16 verify (roster proof)', timeGroth16(proofs), GROTH16_VERIFY_WEIGHT);
  process.stdout.write(
    `kind | raw µs | load factor | µs (raw / factor) | weight | weight/µs\n${rows.join('\n')}\n`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
