// Test helpers: a node in a temporary directory, and submitting transactions the way the gateway does.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadKeyFile } from '../../src/crypto/keyfile.js';
import type { TransactionStatus } from '../../src/model/events.js';
import { accountId } from '../../src/model/ids.js';
import type { Instruction } from '../../src/model/instructions.js';
import type { SignedTransaction } from '../../src/model/transaction.js';
import { nodeFiles } from '../../src/node/files.js';
import { initNodeDir } from '../../src/node/init.js';
import { loadNodeConfig } from '../../src/node/load-config.js';
import { Node } from '../../src/node/node.js';
import type { Clock } from '../../src/util/clock.js';
import { toHex } from '../../src/util/hex.js';
import { buildTx, frameTx, type TestAccount } from './tx.js';

export interface TestNode {
  dir: string;
  node: Node;
  admin: TestAccount;
  chainId: string;
  restart(overrides?: Record<string, unknown>): Promise<Node>;
  cleanup(): Promise<void>;
}

/**
 * The chain's clock drift of test nodes (`transaction.max_clock_drift_ms`, 1 s by default): signed app
 * requests are refused beyond it in either direction, and a machine running many tests at once can stall
 * an event loop for longer than a second between signing a request and reading it.
 */
export const TEST_CLOCK_DRIFT_MS = 30_000;

/** `opts.clock`: the node's clock (a fast block clock: test/helpers/jump-clock.ts), kept on restart. */
export async function startTestNode(
  overrides: Record<string, unknown> = {},
  opts: { clock?: Clock } = {},
): Promise<TestNode> {
  const dir = await mkdtemp(join(tmpdir(), 'torana-test-'));
  const init = await initNodeDir({
    dir,
    overrides: {
      'gateway.port': 0,
      'node.chain_id': 'torana-test',
      'transaction.max_clock_drift_ms': TEST_CLOCK_DRIFT_MS,
      ...overrides,
    },
  });
  const key = await loadKeyFile(nodeFiles(dir).adminKey);
  const admin = { key, id: init.adminAccount };
  const start = async (o: Record<string, unknown>) => {
    const config = await loadNodeConfig({ dir, overrides: { 'verify.threads': 0, ...overrides, ...o } });
    return Node.start({ dir, config, ...(opts.clock === undefined ? {} : { clock: opts.clock }) });
  };
  const t: TestNode = {
    dir,
    node: await start({}),
    admin,
    chainId: 'torana-test',
    async restart(o = {}) {
      await t.node.stop();
      t.node = await start(o);
      return t.node;
    },
    async cleanup() {
      await t.node.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
  return t;
}

/** Submits and resolves with the final status (Committed or Rejected) announced on the event bus. */
export async function submitAndWait(
  node: Node,
  tx: SignedTransaction,
): Promise<{ hash: string; status: TransactionStatus; height?: number }> {
  const bus = node.pipeline.events;
  let hashHex: string | undefined;
  const early: { hash: string; status: TransactionStatus; height?: number }[] = [];
  let resolveFn: ((v: { hash: string; status: TransactionStatus; height?: number }) => void) | undefined;
  const off = bus.subscribe((env) => {
    const e = env.event;
    if (e.kind !== 'Transaction') return;
    if (e.status.kind !== 'Committed' && e.status.kind !== 'Rejected' && e.status.kind !== 'Expired') return;
    const v = {
      hash: toHex(e.hash),
      status: e.status,
      ...(e.blockHeight === undefined ? {} : { height: e.blockHeight }),
    };
    if (hashHex === undefined) early.push(v);
    else if (v.hash === hashHex) resolveFn?.(v);
  });
  try {
    const r = await node.pipeline.submit(frameTx(tx));
    if (!r.ok)
      throw new Error(
        `submission refused: ${JSON.stringify(r, (_k, x) => (typeof x === 'bigint' ? x.toString() : x))}`,
      );
    hashHex = r.hashHex;
    const seen = early.find((v) => v.hash === hashHex);
    if (seen) return seen;
    return await new Promise((resolve) => {
      resolveFn = resolve;
    });
  } finally {
    off();
  }
}

export async function run(t: TestNode, signer: TestAccount, instructions: Instruction[]) {
  return submitAndWait(t.node, buildTx(signer, instructions, { chainId: t.chainId }));
}

export function account(domain: string, key: TestAccount['key']): string {
  return accountId(key.publicKeyText(), domain);
}

/**
 * Registers `accounts` (and their domains, when not registered yet) with the admin: signed app requests
 * are taken only from registered accounts (gateway/signed-request.ts).
 */
export async function registerAccounts(t: TestNode, accounts: readonly TestAccount[]): Promise<void> {
  const state = t.node.ledger.state;
  const domains = [...new Set(accounts.map((a) => a.id.slice(a.id.lastIndexOf('@') + 1)))];
  const r = await run(t, t.admin, [
    ...domains
      .filter((d) => state.domain(d) === undefined)
      .map((id) => ({ kind: 'RegisterDomain' as const, id, metadata: new Map() })),
    ...accounts
      .filter((a) => state.account(a.id) === undefined)
      .map((a) => ({ kind: 'RegisterAccount' as const, id: a.id, metadata: new Map() })),
  ]);
  if (r.status.kind !== 'Committed') throw new Error(`registering accounts: ${JSON.stringify(r.status)}`);
}
