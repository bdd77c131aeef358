// Client commands (README "Command line"): everything a user does against a node, without HTTP by hand.
// Right after `npm start` they work with no flags: settings come from <dir>/client.json.

import type { Command } from 'commander';
import type { Json } from '../codec/codec.js';
import { CodecError } from '../codec/errors.js';
import { Ed25519KeyPair } from '../crypto/signer.js';
import { formatNumeric } from '../model/numeric.js';
import type { IterableQuery } from '../model/queries.js';
import { DEFAULT_NODE_DIR } from '../node/files.js';
import type { ToranaClient } from '../sdk/client.js';
import { instructions as ix } from '../sdk/instructions.js';
import { printJson, printRecord, printTable, progress } from './output.js';
import { CliError, type ClientFlags, resolveClient } from './settings.js';

type Flags = ClientFlags & { json?: boolean };

function clientOptions(cmd: Command): Command {
  return cmd
    .option('--dir <dir>', 'node directory holding client.json', DEFAULT_NODE_DIR)
    .option('--url <url>', 'gateway URL (default from client.json, else http://127.0.0.1:8080)')
    .option('--account <id>', 'account to sign as (default from client.json)')
    .option('--key-file <file>', 'key file of that account (default from client.json)')
    .option('--json', 'machine-readable output: one JSON document (one per line when following)');
}

async function submit(
  flags: Flags,
  build: (
    client: ToranaClient,
    account: string,
  ) => Promise<ReturnType<typeof ix.log>[]> | ReturnType<typeof ix.log>[],
): Promise<void> {
  const { client, account } = await resolveClient(flags, true);
  let tx: Awaited<ReturnType<ToranaClient['build']>>;
  try {
    tx = await client.build(await build(client, account!));
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
    if (flags.json) printJson({ tx_hash: r.hash, status: 'Committed', block_height: r.blockHeight });
    else process.stdout.write(`committed in block ${r.blockHeight} (transaction ${r.hash})\n`);
  } finally {
    done();
  }
}

const RESOURCES: Record<string, IterableQuery['kind']> = {
  domains: 'FindDomains',
  accounts: 'FindAccounts',
  'asset-definitions': 'FindAssetDefinitions',
  assets: 'FindAssets',
  nfts: 'FindNfts',
  roles: 'FindRoles',
  peers: 'FindPeers',
  transactions: 'FindTransactions',
  blocks: 'FindBlocks',
  upgrades: 'FindUpgrades',
};

function parseJsonFlag(text: string | undefined, name: string): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new CliError('invalid_argument', `--${name} must be JSON, e.g. '{"eq":["id","wonderland"]}'`, 2);
  }
}

export function registerClientCommands(program: Command): void {
  registerBlocksCommand(program);
  clientOptions(program.command('status').description('the node status summary'))
    .addHelpText('after', '\nExample:\n  torana status --json\n')
    .action(async (flags: Flags) => {
      const { client } = await resolveClient(flags, false);
      const s = await client.status();
      const { StatusView } = await import('../gateway/views/common.js');
      const json = StatusView.toJson(s) as Record<string, Json>;
      if (flags.json) printJson(json);
      else
        printRecord({
          ...json,
          uptime: `${s.uptime.secs}s`,
          consensus: `${s.consensus.mode}, view ${s.consensus.view}`,
        });
    });

  clientOptions(
    program.command('whoami').description('the account and public key the CLI signs with'),
  ).action(async (flags: Flags) => {
    const { account, key, url } = await resolveClient(flags, true);
    const out = { account: account!, public_key: key!.publicKeyText(), url };
    if (flags.json) printJson(out);
    else printRecord(out);
  });

  const keys = program.command('keys').description('key pairs');
  keys
    .command('generate')
    .description('generate an Ed25519 key pair')
    .option('--json', 'print {"public_key", "private_key"}')
    .addHelpText('after', '\nExample:\n  torana keys generate --json > alice.key.json\n')
    .action((flags: { json?: boolean }) => {
      const kp = Ed25519KeyPair.generate();
      const out = { public_key: kp.publicKeyText(), private_key: kp.privateKeyText() };
      if (flags.json) printJson(out);
      else printRecord(out);
    });

  clientOptions(
    program
      .command('domain')
      .description('domains')
      .command('register <domain>')
      .description('register a domain'),
  )
    .addHelpText('after', '\nExample:\n  torana domain register wonderland\n')
    .action((domain: string, flags: Flags) => submit(flags, () => [ix.registerDomain(domain)]));

  clientOptions(
    program
      .command('account')
      .description('accounts')
      .command('register <account-id>')
      .description('register an account (<public key>@<domain>)'),
  )
    .addHelpText('after', '\nExample:\n  torana account register ed0120…@wonderland\n')
    .action((id: string, flags: Flags) => submit(flags, () => [ix.registerAccount(id)]));

  const asset = program.command('asset').description('asset definitions and balances');
  clientOptions(asset.command('define <definition-id>').description('define an asset (<name>#<domain>)'))
    .option('--scale <n>', 'fraction digits (0-28)', '0')
    .option('--mintable <mode>', 'infinitely, once or not', 'infinitely')
    .addHelpText('after', '\nExample:\n  torana asset define rose#wonderland --scale 2\n')
    .action((id: string, flags: Flags & { scale: string; mintable: string }) => {
      const scale = Number(flags.scale);
      if (!Number.isInteger(scale) || scale < 0 || scale > 28)
        throw new CliError('invalid_argument', '--scale must be an integer 0..28', 2);
      if (!['infinitely', 'once', 'not'].includes(flags.mintable))
        throw new CliError('invalid_argument', '--mintable must be infinitely, once or not', 2);
      return submit(flags, () => [
        ix.registerAssetDefinition(id, { scale, mintable: flags.mintable as 'once' }),
      ]);
    });
  clientOptions(
    asset.command('mint <definition-id> <account> <amount>').description('mint an amount into an account'),
  )
    .addHelpText('after', '\nExample:\n  torana asset mint rose#wonderland ed0120…@wonderland 100.50\n')
    .action((def: string, account: string, amount: string, flags: Flags) =>
      submit(flags, () => [ix.mintAsset(def, account, amount)]),
    );
  clientOptions(
    asset
      .command('transfer <definition-id> <from> <to> <amount>')
      .description('transfer an amount between accounts'),
  )
    .addHelpText(
      'after',
      '\nExample:\n  torana asset transfer rose#wonderland ed0120A…@wonderland ed0120B…@wonderland 10\n',
    )
    .action((def: string, from: string, to: string, amount: string, flags: Flags) =>
      submit(flags, () => [ix.transferAsset(def, from, to, amount)]),
    );
  clientOptions(asset.command('balance <definition-id> <account>').description('the balance of an account'))
    .addHelpText('after', '\nExample:\n  torana asset balance rose#wonderland ed0120…@wonderland\n')
    .action(async (def: string, account: string, flags: Flags) => {
      const { client } = await resolveClient(flags, true);
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
    });

  clientOptions(
    program.command('query <resource>').description(`list a resource: ${Object.keys(RESOURCES).join(', ')}`),
  )
    .option('--filter <json>', 'filter expression, e.g. \'{"eq":["id","wonderland"]}\'')
    .option('--sort <spec>', 'sort, e.g. id:asc,total_quantity:desc')
    .option('--limit <n>', 'at most n items')
    .addHelpText(
      'after',
      '\nExamples:\n  torana query domains\n  torana query assets --filter \'{"gt":["value","10"]}\' --sort value:desc --limit 5\n',
    )
    .action(async (resource: string, flags: Flags & { filter?: string; sort?: string; limit?: string }) => {
      const kind = RESOURCES[resource];
      if (kind === undefined)
        throw new CliError(
          'invalid_argument',
          `unknown resource "${resource}"; one of ${Object.keys(RESOURCES).join(', ')}`,
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
      else
        printTable(
          rows.map((r) =>
            Object.fromEntries(
              Object.entries(r).map(([k, v]) => [
                k,
                typeof v === 'object' && v !== null ? JSON.stringify(v) : v,
              ]),
            ),
          ),
        );
    });

  clientOptions(
    program
      .command('tx')
      .description('transactions')
      .command('status <hash>')
      .description('status of a transaction by hash'),
  )
    .addHelpText('after', '\nExample:\n  torana tx status 3f2a…\n')
    .action(async (hash: string, flags: Flags) => {
      if (!/^[0-9a-fA-F]{64}$/.test(hash))
        throw new CliError('invalid_argument', 'a transaction hash is 64 hex digits', 2);
      const { client } = await resolveClient(flags, false);
      const s = await client.transactionStatus(hash);
      const { TransactionStatusView } = await import('../gateway/views/transactions.js');
      const json = TransactionStatusView.toJson(s) as Record<string, Json>;
      if (flags.json) printJson(json);
      else printRecord(json);
    });

  clientOptions(program.command('events').description('events of the node (pipeline and data)'))
    .option('--filter <json>', 'filter over tx_status, tx_hash, block_status, block_height, kind')
    .option('--follow', 'keep following new events')
    .option('--since <id>', 'start after this event id')
    .addHelpText(
      'after',
      '\nExamples:\n  torana events --follow\n  torana events --follow --json --filter \'{"eq":["tx_status","Committed"]}\'\n',
    )
    .action(async (flags: Flags & { filter?: string; follow?: boolean; since?: string }) => {
      const { client } = await resolveClient(flags, false);
      const abort = new AbortController();
      const { EventCodec } = await import('../model/events.js');
      let idle: NodeJS.Timeout | undefined;
      const arm = () => {
        if (flags.follow) return;
        clearTimeout(idle);
        idle = setTimeout(() => abort.abort(), 500); // without --follow: print what the node holds, then stop
      };
      arm();
      const since = flags.since === undefined ? 0 : Number(flags.since);
      for await (const { id, event } of client.events({
        filter: parseJsonFlag(flags.filter, 'filter'),
        since,
        signal: abort.signal,
      })) {
        const json = EventCodec.toJson(event) as Record<string, Json>;
        if (flags.json) printJson({ id, event: json });
        else process.stdout.write(`${String(id).padStart(6)}  ${describeEvent(json)}\n`);
        arm();
      }
      clearTimeout(idle);
    });
}

/** Registers `torana blocks`: committed blocks from a height, over the block stream. */
function registerBlocksCommand(program: Command): void {
  clientOptions(program.command('blocks').description('committed blocks from a height'))
    .option('--from <height>', 'first block height (default 1)', '1')
    .option('--follow', 'keep following new blocks')
    .addHelpText('after', '\nExamples:\n  torana blocks --from 10\n  torana blocks --follow --json\n')
    .action(async (flags: Flags & { from: string; follow?: boolean }) => {
      const from = Number(flags.from);
      if (!Number.isSafeInteger(from) || from < 1)
        throw new CliError('invalid_argument', '--from must be an integer >= 1', 2);
      const { client } = await resolveClient(flags, false);
      const newest = await client.get<{ items: { height: number }[] }>('/v1/explorer/blocks');
      const top = newest.items[0]?.height ?? 0;
      if (!flags.follow && from > top) return;
      const { BlockCodec } = await import('../model/block.js');
      const abort = new AbortController();
      for await (const block of client.blocks({ from, signal: abort.signal })) {
        const h = block.header;
        if (flags.json) printJson(BlockCodec.toJson(block));
        else {
          const rejected = block.results.filter((r) => r.kind === 'Rejected').length;
          process.stdout.write(
            `${String(h.height).padStart(8)}  ${new Date(h.creationTimeMs).toISOString()}  ${String(h.transactionCount).padStart(4)} tx  ${rejected} rejected\n`,
          );
        }
        if (!flags.follow && h.height >= top) abort.abort();
      }
    });
}

function describeEvent(e: Record<string, Json>): string {
  const status = (e.status as { kind?: string } | undefined)?.kind ?? '';
  if (e.kind === 'Transaction')
    return `transaction ${e.hash} ${status}${e.block_height ? ` in block ${e.block_height}` : ''}`;
  if (e.kind === 'Block') return `block ${e.height} ${status}`;
  const data = e.data as Record<string, Json>;
  const { kind, ...rest } = data;
  return `${kind} ${Object.values(rest)
    .map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v)))
    .join(' ')}`;
}
