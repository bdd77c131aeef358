// The commit load of `state_commit_tx_per_s`, run inside a `state_1m_*` node's process (scale-server.ts):
// one round is `count` transfers of 1 `coin#scale` between accounts of the scale domain drawn uniformly
// from the whole state (so each one writes two asset rows at random places of the state's rows, index
// ranges and tree), signed by accounts holding Admin (which may move any balance), all signed before the clock starts,
// then fed through `node.pipeline.submit` (admission, the queue, block building, execution, the state
// store's write) and counted on the commit events. No transfer empties its source (the balances are
// read from the committed state and followed through the round), so none is rejected for funds.
// The scale accounts have no keys, and one signer fills only its share of a block (the per-account
// weight share), so before the first round the admin registers COMMIT_SIGNERS accounts holding Admin
// (in a domain of their own, a few hundred rows: nothing next to the state) that sign the transfers.

import type { Instruction } from '../../src/model/instructions.js';
import type { Node } from '../../src/node/node.js';
import { buildTx, frameTx, newAccount, type TestAccount } from '../../test/helpers/tx.js';
import { BENCH_CHAIN_ID } from './chain.js';
import { runLoad } from './inprocess-load.js';
import { SCALE_DEFINITION, scaleAccountId } from './scale-state.js';

/** Transfers in flight at once. */
const IN_FLIGHT_MAX = 2_048;
/** Accounts signing the transfers, round-robin (as many as the other load figures use). */
export const COMMIT_SIGNERS = 256;
const SIGNER_DOMAIN = 'signers';
/** Signers registered (and granted Admin) per setup transaction. */
const SIGNERS_PER_SETUP_TX = 32;

/** A small deterministic generator (xorshift32): the same round draws the same pairs on both nodes. */
function xorshift(seed: number): () => number {
  let x = seed >>> 0 || 0x9e3779b9;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 2 ** 32;
  };
}

/** Registers COMMIT_SIGNERS accounts holding Admin, signed by `admin`; resolves once committed. */
export async function registerSigners(node: Node, admin: TestAccount): Promise<TestAccount[]> {
  const signers = Array.from({ length: COMMIT_SIGNERS }, () => newAccount(SIGNER_DOMAIN));
  const empty = new Map();
  const txs: Instruction[][] = [[{ kind: 'RegisterDomain', id: SIGNER_DOMAIN, metadata: empty }]];
  for (let i = 0; i < signers.length; i += SIGNERS_PER_SETUP_TX)
    txs.push(
      signers.slice(i, i + SIGNERS_PER_SETUP_TX).flatMap((a): Instruction[] => [
        { kind: 'RegisterAccount', id: a.id, metadata: empty },
        { kind: 'GrantPermission', account: a.id, permission: { name: 'Admin', payload: null } },
      ]),
    );
  // One at a time: each must commit before the next (the domain before its accounts).
  for (const [n, instructions] of txs.entries()) {
    const frame = frameTx(buildTx(admin, instructions, { chainId: BENCH_CHAIN_ID, nonce: n }));
    const r = await runLoad(node, { next: () => frame, total: 1, inFlightMax: 1 });
    if (r.committed !== 1) throw new Error(`signer setup transaction ${n} did not commit`);
  }
  return signers;
}

/** The signed transfers of round `round`: `count` pairs of distinct accounts among the first `accounts`. */
export function commitTransfers(
  node: Node,
  signers: readonly TestAccount[],
  accounts: number,
  count: number,
  round: number,
): Uint8Array[] {
  const random = xorshift(0x5eed + round * 7919);
  const state = node.ledger.state;
  const balances = new Map<string, bigint>();
  const balance = (id: string) => {
    let b = balances.get(id);
    if (b === undefined) {
      b = state.asset(`${SCALE_DEFINITION}#${id}`)?.value.mantissa ?? 0n;
      balances.set(id, b);
    }
    return b;
  };
  const out: Uint8Array[] = [];
  // Nonces (u32) unique within the process: a round's transfers follow the previous rounds'.
  const nonce = round * count;
  while (out.length < count) {
    const from = scaleAccountId(Math.floor(random() * accounts));
    const to = scaleAccountId(Math.floor(random() * accounts));
    if (from === to || balance(from) < 2n) continue;
    balances.set(from, balance(from) - 1n);
    balances.set(to, balance(to) + 1n);
    const instruction: Instruction = {
      kind: 'TransferAsset',
      source: `${SCALE_DEFINITION}#${from}`,
      destination: to,
      amount: { mantissa: 1n, scale: 0 },
    };
    const signer = signers[out.length % signers.length]!;
    out.push(frameTx(buildTx(signer, [instruction], { chainId: BENCH_CHAIN_ID, nonce: nonce + out.length })));
  }
  return out;
}

/** What one timed round cost: its wall time, and the process's CPU and page faults over it. */
export interface CommitRoundResult {
  committed: number;
  rejected: number;
  ms: number;
  /** User + system CPU of every thread of the process (getrusage RUSAGE_SELF: LMDB's writer included). */
  cpuUs: number;
  majorFaults: number;
  minorFaults: number;
}

/** One round: signs `count` transfers, then times their submission until every one is final. */
export async function commitRound(
  node: Node,
  signers: readonly TestAccount[],
  accounts: number,
  count: number,
  round: number,
): Promise<CommitRoundResult> {
  const frames = commitTransfers(node, signers, accounts, count, round);
  let i = 0;
  const u0 = process.resourceUsage();
  const t0 = performance.now();
  const r = await runLoad(node, {
    next: () => frames[i++]!,
    total: frames.length,
    inFlightMax: IN_FLIGHT_MAX,
  });
  const ms = performance.now() - t0;
  const u1 = process.resourceUsage();
  return {
    committed: r.committed,
    rejected: r.rejected + r.refused,
    ms,
    cpuUs: u1.userCPUTime + u1.systemCPUTime - u0.userCPUTime - u0.systemCPUTime,
    majorFaults: u1.majorPageFault - u0.majorPageFault,
    minorFaults: u1.minorPageFault - u0.minorPageFault,
  };
}
