// The genesis of a network of several validators: the dev genesis of `torana init` (init.ts) with every
// validator registered (BLS key and proof of possession, as genesis.ts requires) where it registers its
// one peer, then any further instructions, signed by the genesis admin key. Used by `torana testnet
// init` and by `torana genesis collect` (genesis-ceremony.ts).

import type { Config } from '../config/schema.js';
import type { Ed25519KeyPair } from '../crypto/signer.js';
import { accountId } from '../model/ids.js';
import type { Instruction } from '../model/instructions.js';
import { signTransaction } from '../model/transaction.js';
import type { Genesis, GenesisValidator } from './genesis.js';
import { devGenesisInstructions, GENESIS_DOMAIN } from './init.js';

export interface NetworkValidator {
  entry: GenesisValidator;
  /** Its p2p address (`host:port`), registered on chain: every peer's transport dials it there. */
  address: string;
}

export function networkGenesis(a: {
  chainId: string;
  admin: Ed25519KeyPair;
  bridge: Ed25519KeyPair;
  validators: readonly NetworkValidator[];
  /** Chain parameters are taken from it (block.max_transactions, transaction.*). */
  config: Config;
  nowMs: number;
  extra?: readonly Instruction[];
}): Genesis {
  const adminId = accountId(a.admin.publicKeyText(), GENESIS_DOMAIN);
  const first = a.validators[0]!;
  const base = devGenesisInstructions(
    adminId,
    first.entry,
    first.address,
    a.config,
    accountId(a.bridge.publicKeyText(), GENESIS_DOMAIN),
  );
  const instructions: Instruction[] = [
    ...base.flatMap((ins) =>
      ins.kind === 'RegisterPeer'
        ? a.validators.map((v): Instruction => ({ kind: 'RegisterPeer', address: v.address, ...v.entry }))
        : [ins],
    ),
    ...(a.extra ?? []),
  ];
  const payload = {
    chainId: a.chainId,
    authority: adminId,
    creationTimeMs: a.nowMs,
    instructions,
    metadata: new Map(),
  };
  return {
    chainId: a.chainId,
    validators: a.validators.map((v) => v.entry),
    transaction: signTransaction(payload, a.admin),
  };
}
