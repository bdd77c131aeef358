// The code of the client commands declared in client-commands.ts (imported only when one runs).

import type { Json } from '../codec/codec.js';
import { CodecError } from '../codec/errors.js';
import { formatNumeric } from '../model/numeric.js';
import type { IterableQuery } from '../model/queries.js';
import type { ToranaClient } from '../sdk/client.js';
import { instructions as ix } from '../sdk/instructions.js';
import { CliError } from './errors.js';
import { printJson, printRecord, printTable, progress } from './output.js';
import { RESOURCE_NAMES, RESOURCES } from './resources.js';
import { type ClientFlags, resolveClient } from './settings.js';

export type Flags = ClientFlags & { json?: boolean };
type Built = ReturnType<typeof ix.log>;

/**
 * Signs and submits the instructions `build` gives, waits for the outcome and prints it. `created`: the
 * ids of what the transaction creates or names (`--json` answers carry them beside the transaction).
 */
export async function submit(
  flags: Flags,
  build: (account: string) => Built[],
  created: Record<string, Json> = {},
): Promise<void> {
  const { client, account } = await resolveClient(flags, true);
  let tx: Awaited<ReturnType<ToranaClient['build']>>;
  try {
    tx = await client.build(build(account!));
  } catch (e) {
    // Ids and amounts are checked when the transaction is encoded: report them as bad arguments.
    if (e instanceof CodecError || e instanceof RangeError)
      throw new CliError('invalid_argument', e.message, 2);
    throw e;
  }
  const done = progress(`waiting for transaction ${tx.hash.slice(0, 12)}… to commit`);
  try {
    const r = await client.submitAndWait(tx);
    done();
    if (flags.json)
      printJson({ tx_hash: r.hash, status: 'Committed', block_height: r.blockHeight, ...created });
    else process.stdout.write(`committed in block ${r.blockHeight} (transaction ${r.hash})\n`);
  } finally {
    done();
  }
}

export function parseJsonFlag(text: string | undefined, name: string): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new CliError('invalid_argument', `--${name} must be JSON, e.g. '{"eq":["id","wonderland"]}'`, 2);
  }
}

export async function whoami(flags: Flags): Promise<void> {
  const { account, key, url } = await resolveClient(flags, true);
  const out = { account: account!, public_key: key!.publicKeyText(), url };
  if (flags.json) printJson(out);
  else printRecord(out);
}

/** `torana policy`: the limits the node's admission enforces, one `section.key` per line (or the JSON). */
export async function policy(flags: Flags): Promise<void> {
  const { client } = await resolveClient(flags, false);
  const doc = await client.policy();
  if (flags.json) return printJson(doc);
  const rows: Record<string, Json> = {};
  for (const [section, values] of Object.entries(doc))
    for (const [key, value] of Object.entries(values)) rows[`${section}.${key}`] = value;
  printRecord(rows);
}

export const domainRegister = (domain: string, flags: Flags) =>
  submit(flags, () => [ix.registerDomain(domain)], { domain });
export const accountRegister = (id: string, flags: Flags) =>
  submit(flags, () => [ix.registerAccount(id)], { account: id });

/** The numeric chain parameters `torana parameter set` takes, by their SetParameter kind. */
const NUMERIC_PARAMETERS = [
  'BlockMaxTransactions',
  'BlockTimeMs',
  'CommitTimeMs',
  'MaxClockDriftMs',
  'TransactionMaxInstructions',
  'TransactionMaxBytes',
  'TransactionMaxWeight',
  'BlockMaxWeight',
] as const;

export function parameterSet(name: string, value: string, flags: Flags) {
  const kind = NUMERIC_PARAMETERS.find((k) => k === name);
  if (kind === undefined)
    throw new CliError('invalid_argument', `parameter must be one of ${NUMERIC_PARAMETERS.join(', ')}`, 2);
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1)
    throw new CliError('invalid_argument', `${name} must be a positive integer`, 2);
  return submit(flags, () => [{ kind: 'SetParameter', parameter: { kind, value: n } }]);
}
/** `peer register`: the BLS key and proof as `torana keys validator` prints them (checked by the SDK and the ledger). */
export const peerRegister = (peer: string, flags: Flags & { address: string; blsKey: string; pop: string }) =>
  submit(flags, () => [ix.registerPeer(peer, flags.address, flags.blsKey, flags.pop)], { peer });
export const peerUnregister = (peer: string, flags: Flags) => submit(flags, () => [ix.unregisterPeer(peer)]);
// Definitions and accounts may be given by a name standing for their id (id-args.ts resolves it at the node).
export async function assetMint(def: string, account: string, amount: string, flags: Flags) {
  const { accountArg, definitionArg } = await import('./id-args.js');
  const { client } = await resolveClient(flags, true);
  const [d, a] = [await definitionArg(client, def), await accountArg(client, account)];
  return submit(flags, () => [ix.mintAsset(d, a, amount)]);
}
export async function assetTransfer(def: string, from: string, to: string, amount: string, flags: Flags) {
  const { accountArg, definitionArg } = await import('./id-args.js');
  const { client } = await resolveClient(flags, true);
  const d = await definitionArg(client, def);
  const [f, t] = [await accountArg(client, from), await accountArg(client, to)];
  return submit(flags, () => [ix.transferAsset(d, f, t, amount)]);
}

export function assetDefine(id: string, flags: Flags & { scale: string; mintable: string }): Promise<void> {
  const scale = Number(flags.scale);
  if (!Number.isInteger(scale) || scale < 0 || scale > 28)
    throw new CliError('invalid_argument', '--scale must be an integer 0..28', 2);
  if (!['infinitely', 'once', 'not'].includes(flags.mintable))
    throw new CliError('invalid_argument', '--mintable must be infinitely, once or not', 2);
  return submit(
    flags,
    () => [ix.registerAssetDefinition(id, { scale, mintable: flags.mintable as 'once' })],
    {
      asset_definition: id,
    },
  );
}

export async function assetBalance(defText: string, accountText: string, flags: Flags): Promise<void> {
  const { client } = await resolveClient(flags, true);
  const { accountArg, definitionArg } = await import('./id-args.js');
  const def = await definitionArg(client, defText);
  const account = await accountArg(client, accountText);
  let balance = '0';
  try {
    const out = await client.find({ kind: 'FindAssetById', id: `${def}#${account}` });
    if (out.kind === 'Asset') balance = formatNumeric(out.value.value);
  } catch (e) {
    if ((e as { code?: string }).code !== 'not_found') throw e;
    const d = await client.find({ kind: 'FindAssetDefinitionById', id: def });
    if (d.kind === 'AssetDefinition') balance = formatNumeric({ mantissa: 0n, scale: d.value.scale });
  }
  if (flags.json) printJson({ asset_definition: def, account, balance });
  else process.stdout.write(`${balance}\n`);
}

export async function query(
  resource: string,
  flags: Flags & { filter?: string; sort?: string; limit?: string },
): Promise<void> {
  const kind = RESOURCES[resource];
  if (kind === undefined)
    throw new CliError(
      'invalid_argument',
      `unknown resource "${resource}"; one of ${RESOURCE_NAMES.join(', ')}`,
      2,
    );
  const limit = flags.limit === undefined ? undefined : Number(flags.limit);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1))
    throw new CliError('invalid_argument', '--limit must be a positive integer', 2);
  const { client } = await resolveClient(flags, true);
  const filter = parseJsonFlag(flags.filter, 'filter');
  const rows: Record<string, Json>[] = [];
  const { QueryOutputCodec } = await import('../model/queries.js');
  for await (const item of client.iterate({ kind } as IterableQuery, {
    ...(filter === undefined ? {} : { filter: filter as Json }),
    ...(flags.sort === undefined ? {} : { sort: flags.sort }),
    ...(limit === undefined ? {} : { limit }),
  })) {
    rows.push((QueryOutputCodec.toJson(item) as { value: Record<string, Json> }).value);
  }
  if (flags.json) printJson(rows);
  else printTable(rows);
}

export async function txStatus(hash: string, flags: Flags): Promise<void> {
  if (!/^[0-9a-fA-F]{64}$/.test(hash))
    throw new CliError('invalid_argument', 'a transaction hash is 64 hex digits', 2);
  const { client } = await resolveClient(flags, false);
  const s = await client.transactionStatus(hash);
  const { TransactionStatusView } = await import('../gateway/views/transactions.js');
  const json = TransactionStatusView.toJson(s) as Record<string, Json>;
  if (flags.json) printJson(json);
  else printRecord(json);
}
