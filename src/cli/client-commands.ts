// Client commands (README "Command line"): everything a user does against a node, without HTTP by hand.
// Right after `npm start` they work with no flags: the node's address comes from <dir>/node.json while
// it runs, the account and key from <dir>/client.json. Only declarations here: the code of each
// command is in client-actions.ts / stream-actions.ts, imported when the command runs (lazy.ts).

import type { Command } from 'commander';
import { clientOptions } from './client-options.js';
import { lazyAction } from './lazy.js';
import { RESOURCE_NAMES } from './resources.js';

const actions = () => import('./client-actions.js');
const streams = () => import('./stream-actions.js');
const keyActions = () => import('./keys-actions.js');
const statusAction = () => import('./status-action.js');
const validatorActions = () => import('./validator-actions.js');
const txSubmitAction = () => import('./tx-submit.js');

export function registerClientCommands(program: Command): void {
  clientOptions(program.command('blocks').description('committed blocks from a height'))
    .option('--from <height>', 'first block height (default 1)', '1')
    .option('--follow', 'keep following new blocks')
    .addHelpText('after', '\nExamples:\n  torana blocks --from 10\n  torana blocks --follow --json\n')
    .action(lazyAction(streams, 'blocks'));
  clientOptions(program.command('status').description('the node status summary'))
    .addHelpText('after', '\nExample:\n  torana status --json\n')
    .action(lazyAction(statusAction, 'status', { wire: false }));
  clientOptions(
    program.command('policy').description('the admission limits the node enforces (GET /v1/policy)'),
  )
    .addHelpText('after', '\nExample:\n  torana policy --json\n')
    .action(lazyAction(actions, 'policy'));
  clientOptions(
    program.command('whoami').description('the account and public key the CLI signs with'),
  ).action(lazyAction(actions, 'whoami'));
  const keys = program.command('keys').description('key pairs');
  keys
    .command('generate')
    .description('generate an Ed25519 key pair (the private key only with --show-private)')
    .option('--show-private', 'print the private key too')
    .addHelpText('after', '\nExample:\n  torana keys generate --json --show-private > alice.key.json\n')
    .action(lazyAction(keyActions, 'keysGenerate'));
  keys
    .command('add <name>')
    .description('a named identity: a new key pair (or --import), and the account it signs as (--as NAME)')
    .option('--import <key-file>', 'take this key file instead of generating a key')
    .option('--account <id>', 'its account (default: <its public key>@<--domain>)')
    .option('--domain <domain>', "its account's domain (default: that of client.json's account)")
    .addHelpText(
      'after',
      '\nStored with mode 0600 in <dir>/keys/. Examples:\n  torana keys add alice --domain wonderland\n  torana --as alice asset transfer rose#wonderland alice@wonderland bob@wonderland 5\n',
    )
    .action(lazyAction(keyActions, 'keysAdd', { wire: false }));
  keys
    .command('list')
    .description('the named identities')
    .action(lazyAction(keyActions, 'keysList', { wire: false }));
  keys
    .command('show <name>')
    .description('a named identity (the private key only with --show-private)')
    .option('--show-private', 'print the private key too')
    .action(lazyAction(keyActions, 'keysShow', { wire: false }));
  keys
    .command('remove <name>')
    .description('delete a named identity and its key file')
    .action(lazyAction(keyActions, 'keysRemove', { wire: false }));
  keys
    .command('validator')
    .description("this node's validator entry: peer id, BLS consensus key and its proof of possession")
    .addHelpText(
      'after',
      '\nPrints what a genesis validator entry or `torana peer register` needs.\nExample:\n  torana keys validator --dir ./.torana --json\n',
    )
    .action(lazyAction(validatorActions, 'keysValidator'));

  clientOptions(
    program
      .command('domain')
      .description('domains')
      .command('register <domain>')
      .description('register a domain'),
  )
    .addHelpText('after', '\nExample:\n  torana domain register wonderland\n')
    .action(lazyAction(actions, 'domainRegister'));
  clientOptions(
    program
      .command('account')
      .description('accounts')
      .command('register <account-id>')
      .description('register an account (<public key>@<domain>)'),
  )
    .addHelpText('after', '\nExample:\n  torana account register ed0120…@wonderland\n')
    .action(lazyAction(actions, 'accountRegister'));
  clientOptions(
    program
      .command('parameter')
      .description('chain parameters')
      .command('set <name> <value>')
      .description('set a numeric chain parameter (SetParameter; needs CanSetParameters)'),
  )
    .addHelpText('after', '\nExample:\n  torana parameter set BlockMaxWeight 400000\n')
    .action(lazyAction(actions, 'parameterSet'));
  registerAssetCommands(program);
  registerPeerCommands(program);

  clientOptions(
    program.command('query <resource>').description(`list a resource: ${RESOURCE_NAMES.join(', ')}`),
  )
    .option('--filter <json>', 'filter expression, e.g. \'{"eq":["id","wonderland"]}\'')
    .option('--sort <spec>', 'sort, e.g. id:asc,total_quantity:desc')
    .option('--limit <n>', 'at most n items')
    .addHelpText(
      'after',
      '\nExamples:\n  torana query domains\n  torana query assets --filter \'{"gt":["value","10"]}\' --sort value:desc --limit 5\n',
    )
    .action(lazyAction(actions, 'query'));
  const tx = program.command('tx').description('transactions');
  clientOptions(tx.command('status <hash>').description('status of a transaction by hash'))
    .addHelpText('after', '\nExample:\n  torana tx status 3f2a…\n')
    .action(lazyAction(actions, 'txStatus'));
  clientOptions(
    tx
      .command('submit')
      .description(
        'submit instructions given as JSON, any kind (docs/instructions.md; checked before signing)',
      ),
  )
    .option('--file <file>', 'a JSON array of instructions (default: standard input)')
    .addHelpText(
      'after',
      '\nThe schema of every kind: docs/schema/instructions.schema.json.\nExamples:\n  torana tx submit --file batch.json\n  echo \'[{"kind":"Log","level":{"kind":"Info"},"message":"hi"}]\' | torana tx submit --json\n',
    )
    .action(lazyAction(txSubmitAction, 'txSubmit'));
  clientOptions(program.command('events').description('events of the node (pipeline and data)'))
    .option('--filter <json>', 'filter over tx_status, tx_hash, block_status, block_height, kind')
    .option('--follow', 'keep following new events, from now unless --since says otherwise')
    .option('--since <id>', "start after this event id, or 'genesis' for every event the node holds")
    .addHelpText(
      'after',
      '\nExamples:\n  torana events --follow\n  torana events --follow --since genesis\n  torana events --follow --json --filter \'{"eq":["tx_status","Committed"]}\'\n',
    )
    .action(lazyAction(streams, 'events'));
}

function registerAssetCommands(program: Command): void {
  const asset = program.command('asset').description('asset definitions and balances');
  clientOptions(asset.command('define <definition-id>').description('define an asset (<name>#<domain>)'))
    .option('--scale <n>', 'fraction digits (0-28)', '0')
    .option('--mintable <mode>', 'infinitely, once or not', 'infinitely')
    .addHelpText('after', '\nExample:\n  torana asset define rose#wonderland --scale 2\n')
    .action(lazyAction(actions, 'assetDefine'));
  clientOptions(
    asset.command('mint <definition-id> <account> <amount>').description('mint an amount into an account'),
  )
    .addHelpText('after', '\nExample:\n  torana asset mint rose#wonderland ed0120…@wonderland 100.50\n')
    .action(lazyAction(actions, 'assetMint'));
  clientOptions(
    asset
      .command('transfer <definition-id> <from> <to> <amount>')
      .description('transfer an amount between accounts'),
  )
    .addHelpText(
      'after',
      '\nExample:\n  torana asset transfer rose#wonderland ed0120A…@wonderland ed0120B…@wonderland 10\n',
    )
    .action(lazyAction(actions, 'assetTransfer'));
  clientOptions(asset.command('balance <definition-id> <account>').description('the balance of an account'))
    .addHelpText('after', '\nExample:\n  torana asset balance rose#wonderland ed0120…@wonderland\n')
    .action(lazyAction(actions, 'assetBalance'));
}

function registerPeerCommands(program: Command): void {
  const peer = program.command('peer').description('validators (membership)');
  clientOptions(
    peer
      .command('register <peer-key>')
      .description('register a validator; its key is active from the next block'),
  )
    .requiredOption('--address <host:port>', 'the address other peers reach it at')
    .requiredOption('--bls-key <key>', "its BLS12-381 consensus key ('ea0130…')")
    .requiredOption('--pop <hex>', 'proof of possession of that key (192 hex digits)')
    .addHelpText(
      'after',
      '\nThe new validator prints its key and proof with `torana keys validator`.\nExample:\n  torana peer register ed0120… --address 10.0.0.5:1337 --bls-key ea0130… --pop 8f3c…\n',
    )
    .action(lazyAction(actions, 'peerRegister'));
  clientOptions(
    peer.command('unregister <peer-key>').description('disable a validator at once (its history stays)'),
  )
    .addHelpText('after', '\nExample:\n  torana peer unregister ed0120…\n')
    .action(lazyAction(actions, 'peerUnregister'));
}
