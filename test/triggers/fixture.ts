// A served node on a fast block clock (jump-clock.ts) with a small world: domain `acme`, accounts
// alice, bob, carol, the definition `usd#acme` (scale 2) with 1,000.00 minted to alice; and helpers to
// run transactions at the node's (jumped) time.

import assert from 'node:assert/strict';
import type { Instruction } from '../../src/model/instructions.js';
import { numeric } from '../../src/model/numeric.js';
import { JumpClock } from '../helpers/jump-clock.js';
import { submitAndWait } from '../helpers/node.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';
import { buildTx, newAccount, type TestAccount } from '../helpers/tx.js';

export const USD = 'usd#acme';
export const alice = newAccount('acme', 41);
export const bob = newAccount('acme', 42);
export const carol = newAccount('acme', 43);
export const usd = (account: TestAccount | string) =>
  `${USD}#${typeof account === 'string' ? account : account.id}`;

// biome-ignore lint/suspicious/noExplicitAny: JSON answers are checked field by field.
export type J = any;

export interface ClockFixture {
  t: ServedTestNode;
  clock: JumpClock;
  /** Runs one transaction at the node's time; its status kind or rejection code, and its height. */
  tx(signer: TestAccount, instructions: Instruction[]): Promise<{ code: string; height: number }>;
  balance(account: TestAccount | string): string;
  get(path: string): Promise<{ status: number; body: J }>;
  /** Waits until the chain reaches `height` (an idle chain's trigger blocks). */
  waitHeight(height: number, timeoutMs?: number): Promise<void>;
}

let nonce = 0;

export async function startClockFixture(overrides: Record<string, unknown> = {}): Promise<ClockFixture> {
  const clock = new JumpClock();
  const t = await startServedNode(overrides, { clock });
  const tx: ClockFixture['tx'] = async (signer, instructions) => {
    const signed = buildTx(signer, instructions, {
      chainId: t.chainId,
      creationTimeMs: clock.nowMs(),
      nonce: nonce++,
    });
    const r = await submitAndWait(t.node, signed);
    const code = r.status.kind === 'Rejected' ? r.status.reason.code : r.status.kind;
    return { code, height: r.height ?? 0 };
  };
  const none = () => new Map();
  const setup = await tx(t.admin, [
    { kind: 'RegisterDomain', id: 'acme', metadata: none() },
    ...[alice, bob, carol].map((a): Instruction => ({ kind: 'RegisterAccount', id: a.id, metadata: none() })),
    {
      kind: 'RegisterAssetDefinition',
      id: USD,
      scale: 2,
      mintable: { kind: 'Infinitely' },
      metadata: none(),
    },
    { kind: 'MintAsset', asset: usd(alice), amount: numeric('1000.00') },
  ]);
  assert.equal(setup.code, 'Committed');
  return {
    t,
    clock,
    tx,
    balance(account) {
      const a = t.node.ledger.state.asset(usd(account));
      return a === undefined ? '0' : (Number(a.value.mantissa) / 100).toFixed(2);
    },
    async get(path) {
      const res = await fetch(t.url + path);
      return { status: res.status, body: await res.json() };
    },
    async waitHeight(height, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (t.node.ledger.height() < height) {
        if (Date.now() > deadline)
          throw new Error(`height ${height} not reached (at ${t.node.ledger.height()})`);
        await new Promise((r) => setTimeout(r, 5));
      }
    },
  };
}
