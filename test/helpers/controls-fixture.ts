// Test support for transfer controls (docs/controls.md), shared by test/controls/ and by any test that
// must show that another value-moving instruction cannot bypass the rules (multisig execution,
// subscription charges): a served node on a fast block clock, a `wonderland` domain with alice, bob
// and carol, the definition USD (scale 2, owned by the genesis admin) with 1000 for alice and bob,
// and builders of the four control instructions. Usage:
//
//   const f = await controlsFixture();
//   assert.equal(await f.tx(f.t.admin, [f.ins.freeze(f.alice.id)]), 'Committed');
//   assert.equal(await f.tx(f.alice, [someMover]), 'transfer_frozen');
//   f.clock.jump(86_400_000); // the next block is a day later (caps roll over)
//   await f.t.stopAll();

import type { Instruction } from '../../src/model/instructions.js';
import { numeric } from '../../src/model/numeric.js';
import type { ControlWindowKind } from '../../src/modules/controls/model.js';
import { JumpClock } from './jump-clock.js';
import { submitAndWait } from './node.js';
import { type ServedTestNode, startServedNode } from './served.js';
import { buildTx, newAccount, type TestAccount } from './tx.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers are checked field by field.
type J = any;

export const CONTROLS_DOMAIN = 'wonderland';
export const USD = `usd#${CONTROLS_DOMAIN}`;

/** Builders of the transfer control instructions on `definition` (default USD); no account = definition-wide. */
export function controlInstructions(definition = USD) {
  const who = (account: string | undefined) => (account === undefined ? {} : { account });
  return {
    freeze: (account?: string, frozen = true): Instruction => ({
      kind: 'SetTransferFreeze',
      definition,
      frozen,
      ...who(account),
    }),
    blacklist: (account?: string, blacklisted = true): Instruction => ({
      kind: 'SetTransferBlacklist',
      definition,
      blacklisted,
      ...who(account),
    }),
    list: (list: 'Allow' | 'Deny', account: string, listed = true): Instruction => ({
      kind: 'SetTransferListEntry',
      definition,
      list: { kind: list },
      account,
      listed,
    }),
    /** `amount` undefined removes the cap. */
    cap: (account: string | undefined, window: ControlWindowKind, amount?: string): Instruction => ({
      kind: 'SetTransferCap',
      definition,
      window: { kind: window },
      ...who(account),
      ...(amount === undefined ? {} : { cap: numeric(amount) }),
    }),
    transfer: (from: string, to: string, amount: string): Instruction => ({
      kind: 'TransferAsset',
      source: `${definition}#${from}`,
      destination: to,
      amount: numeric(amount),
    }),
  };
}

export interface ControlsFixture {
  t: ServedTestNode;
  /** The node's clock: `jump(ms)` makes the next block's time jump (caps roll over). */
  clock: JumpClock;
  alice: TestAccount;
  bob: TestAccount;
  carol: TestAccount;
  ins: ReturnType<typeof controlInstructions>;
  /** One transaction created at the node's clock: 'Committed' or the rejection code. */
  tx(signer: TestAccount, instructions: Instruction[]): Promise<string>;
  post(path: string, body: unknown): Promise<{ status: number; body: J }>;
  /** The USD balance of an account as a decimal mantissa at scale 2 ('0' when none). */
  balance(account: TestAccount, definition?: string): bigint;
}

/** `overrides`: config keys of the served node. */
export async function controlsFixture(overrides: Record<string, unknown> = {}): Promise<ControlsFixture> {
  const clock = new JumpClock();
  const t = await startServedNode(overrides, { clock });
  const [alice, bob, carol] = [
    newAccount(CONTROLS_DOMAIN, 41),
    newAccount(CONTROLS_DOMAIN, 42),
    newAccount(CONTROLS_DOMAIN, 43),
  ];
  const tx = async (signer: TestAccount, instructions: Instruction[]) => {
    const built = buildTx(signer, instructions, { chainId: t.chainId, creationTimeMs: clock.nowMs() });
    const r = await submitAndWait(t.node, built);
    return r.status.kind === 'Rejected' ? r.status.reason.code : r.status.kind;
  };
  const none = () => new Map();
  const setup = await tx(t.admin, [
    { kind: 'RegisterDomain', id: CONTROLS_DOMAIN, metadata: none() },
    ...[alice, bob, carol].map((a) => ({ kind: 'RegisterAccount' as const, id: a.id, metadata: none() })),
    {
      kind: 'RegisterAssetDefinition',
      id: USD,
      scale: 2,
      mintable: { kind: 'Infinitely' },
      metadata: none(),
    },
    { kind: 'MintAsset', asset: `${USD}#${alice.id}`, amount: numeric('1000') },
    { kind: 'MintAsset', asset: `${USD}#${bob.id}`, amount: numeric('1000') },
  ]);
  if (setup !== 'Committed') {
    await t.stopAll();
    throw new Error(`controls fixture setup: ${setup}`);
  }
  const post = async (path: string, body: unknown) => {
    const res = await fetch(t.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as J };
  };
  const balance = (account: TestAccount, definition = USD) =>
    t.node.ledger.state.asset(`${definition}#${account.id}`)?.value.mantissa ?? 0n;
  return { t, clock, alice, bob, carol, ins: controlInstructions(), tx, post, balance };
}
