// Shared fixtures for this folder's tests: deterministic keys and accounts, transactions, and a tiny
// chain driver that executes and commits blocks. Not used by production code.

import assert from 'node:assert/strict';
import type { TransactionResult } from '../model/block.js';
import type { DataEvent } from '../model/events.js';
import type { Instruction } from '../model/instructions.js';
import { numeric } from '../model/numeric.js';
import type { Permission } from '../model/permissions.js';
import { type SignedTransaction, transactionHash } from '../model/transaction.js';
import { toHex } from '../util/hex.js';
import { BlockExecution } from './executor.js';
import { addLeaf, leafValue, publishRoot } from './root.js';
import { WorldState } from './world-state.js';

export const CHAIN_ID = 'test-chain';
export const GENESIS_DOMAIN = 'wonderland';

/** A deterministic Ed25519 public key text (any 32 bytes are a well-formed key text). */
export function key(n: number): string {
  return `ed0120${n.toString(16).toUpperCase().padStart(64, '0')}`;
}

export function acc(n: number, domain = GENESIS_DOMAIN): string {
  return `${key(n)}@${domain}`;
}

export function tx(authority: string, instructions: Instruction[], nonce = 0): SignedTransaction {
  return {
    payload: {
      chainId: CHAIN_ID,
      authority,
      creationTimeMs: 1_000,
      instructions,
      nonce,
      metadata: new Map(),
    },
    signature: new Uint8Array(64),
  };
}

export const ADMIN = acc(1);

export function perm(name: string, payload: Permission['payload'] = null): Permission {
  return { name, payload };
}

export const amount = numeric;

/** Instructions of a typical genesis: the first domain, the admin account, Admin for it. */
export function genesisInstructions(admin = ADMIN): Instruction[] {
  return [
    { kind: 'RegisterDomain', id: GENESIS_DOMAIN, metadata: new Map() },
    { kind: 'RegisterAccount', id: admin, metadata: new Map() },
    { kind: 'GrantPermission', account: admin, permission: perm('Admin') },
  ];
}

export interface BlockOutcome {
  results: TransactionResult[];
  events: DataEvent[][];
  root: Uint8Array;
  changes: { key: Uint8Array; value: Uint8Array | undefined }[];
}

/** The transaction hash, or a stand-in when the transaction cannot be encoded (invalid ids built in tests). */
function safeHash(t: SignedTransaction, index: number): Uint8Array {
  try {
    return transactionHash(t);
  } catch {
    return new Uint8Array(32).fill(index);
  }
}

/** Drives a WorldState through blocks; height 1 is genesis. */
export class Chain {
  height = 0;
  constructor(readonly state: WorldState = new WorldState()) {}

  block(txs: SignedTransaction[]): BlockOutcome {
    this.height++;
    const exec = new BlockExecution(this.state, {
      height: this.height,
      blockTimeMs: 1_000 * this.height,
      chainId: CHAIN_ID,
      genesis: this.height === 1,
    });
    const results: TransactionResult[] = [];
    const events: DataEvent[][] = [];
    for (const t of txs) {
      const out = exec.apply(t, safeHash(t, results.length));
      results.push(out.result);
      events.push(out.events);
    }
    const root = exec.stateRoot();
    const changes = exec.changes();
    exec.commit();
    return { results, events, root, changes };
  }

  /** One transaction in its own block; returns its result and events. */
  run(authority: string, instructions: Instruction[]): { result: TransactionResult; events: DataEvent[] } {
    const out = this.block([tx(authority, instructions, this.height)]);
    return { result: out.results[0]!, events: out.events[0]! };
  }

  static genesis(admin = ADMIN): Chain {
    const c = new Chain();
    const out = c.block([tx(admin, genesisInstructions(admin))]);
    if (out.results[0]!.kind !== 'Committed')
      throw new Error(`genesis rejected: ${JSON.stringify(out.results[0])}`);
    return c;
  }
}

/** The rejection code of a result, or 'Committed'. */
export function outcome(r: TransactionResult): string {
  return r.kind === 'Committed' ? 'Committed' : r.reason.code;
}

/** The root recomputed from scratch over `entries` (checks the incremental maintenance). */
export function recomputeRoot(entries: Iterable<{ key: Uint8Array; value: Uint8Array }>): Uint8Array {
  let sum = 0n;
  for (const e of entries) sum = addLeaf(sum, leafValue(e.key, e.value));
  return publishRoot(sum);
}

/** A stand-in for StateStore: applies each block's changes() to a key/value map. */
export class Disk {
  readonly rows = new Map<string, { key: Uint8Array; value: Uint8Array }>();

  apply(changes: readonly { key: Uint8Array; value: Uint8Array | undefined }[]): void {
    for (const c of changes) {
      const k = toHex(c.key);
      if (c.value === undefined) this.rows.delete(k);
      else this.rows.set(k, { key: c.key, value: c.value });
    }
  }

  entries(): { key: Uint8Array; value: Uint8Array }[] {
    return [...this.rows.keys()].sort().map((k) => this.rows.get(k)!);
  }
}

export const ROSE = 'rose#wonderland';
export const ALICE = acc(2);
export const BOB = acc(3);
export const CAROL = acc(4);
export const asset = (definition: string, account: string): string => `${definition}#${account}`;

/** Blocks after genesis that exercise most instructions (each inner array is one block). */
export function scenarioBlocks(): SignedTransaction[][] {
  const none = new Map();
  return [
    [
      tx(ADMIN, [
        { kind: 'RegisterAccount', id: ALICE, metadata: new Map([['name', 'alice']]) },
        { kind: 'RegisterAccount', id: BOB, metadata: none },
        {
          kind: 'RegisterAssetDefinition',
          id: ROSE,
          scale: 2,
          mintable: { kind: 'Infinitely' },
          metadata: none,
        },
        { kind: 'RegisterDomain', id: 'garden', metadata: none },
      ]),
      tx(ADMIN, [{ kind: 'MintAsset', asset: asset(ROSE, ALICE), amount: amount('100') }], 1),
    ],
    [
      tx(ALICE, [
        { kind: 'TransferAsset', source: asset(ROSE, ALICE), destination: BOB, amount: amount('25.5') },
      ]),
      tx(
        ALICE,
        [{ kind: 'TransferAsset', source: asset(ROSE, ALICE), destination: BOB, amount: amount('1000') }],
        1,
      ),
      tx(ADMIN, [
        { kind: 'RegisterNft', id: 'deed$garden', content: new Map([['plot', 7]]) },
        {
          kind: 'RegisterRole',
          id: 'minter',
          permissions: [perm('CanMintAssetWithDefinition', { asset_definition: ROSE })],
        },
        { kind: 'GrantRole', account: BOB, role: 'minter' },
        { kind: 'SetKeyValue', target: { kind: 'Account', id: BOB }, key: 'tier', value: { level: 2 } },
        { kind: 'SetParameter', parameter: { kind: 'BlockTimeMs', value: 500 } },
      ]),
    ],
    [
      tx(BOB, [{ kind: 'MintAsset', asset: asset(ROSE, BOB), amount: amount('0.25') }]),
      tx(ADMIN, [
        { kind: 'TransferNft', id: 'deed$garden', source: ADMIN, destination: ALICE },
        { kind: 'BurnAsset', asset: asset(ROSE, BOB), amount: amount('25.75') },
        { kind: 'RemoveKeyValue', target: { kind: 'Account', id: ALICE }, key: 'name' },
        { kind: 'Log', level: { kind: 'Info' }, message: 'hello' },
      ]),
    ],
  ];
}

/** Runs `instructions` as `authority` in a new block and checks the outcome code; returns the events. */
export function expectCode(
  chain: Chain,
  authority: string,
  instructions: Instruction[],
  code: string,
): DataEvent[] {
  const { result, events } = chain.run(authority, instructions);
  const detail = result.kind === 'Rejected' ? `${result.reason.code}: ${result.reason.message}` : 'Committed';
  assert.equal(outcome(result), code, detail);
  return events;
}

/**
 * Genesis plus: ALICE, BOB, CAROL in wonderland; ROSE (scale 2, Infinitely) owned by ADMIN; the domain
 * 'garden' owned by ALICE.
 */
export function world(): Chain {
  const chain = Chain.genesis();
  const none = () => new Map();
  expectCode(
    chain,
    ADMIN,
    [
      { kind: 'RegisterAccount', id: ALICE, metadata: none() },
      { kind: 'RegisterAccount', id: BOB, metadata: none() },
      { kind: 'RegisterAccount', id: CAROL, metadata: none() },
      {
        kind: 'RegisterAssetDefinition',
        id: ROSE,
        scale: 2,
        mintable: { kind: 'Infinitely' },
        metadata: none(),
      },
      { kind: 'RegisterDomain', id: 'garden', metadata: none() },
      { kind: 'TransferDomain', id: 'garden', source: ADMIN, destination: ALICE },
    ],
    'Committed',
  );
  return chain;
}
