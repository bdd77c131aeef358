// `torana genesis entry | collect | verify | adopt`: the genesis ceremony of independent operators
// (docs/operations.md "Genesis ceremony"). Only declarations here; genesis-actions.ts holds the code.

import type { Command } from 'commander';
import { lazyAction } from './lazy.js';

const actions = () => import('./genesis-actions.js');

export function registerGenesisCommands(program: Command): void {
  const genesis = program
    .command('genesis')
    .description('build one genesis from validators whose keys never leave their machines');
  genesis
    .command('entry')
    .description("write this node's signed validator entry (public keys only); makes its keys if absent")
    .requiredOption('--chain-id <id>', 'chain id of the network being built')
    .requiredOption('--address <host:port>', 'p2p address the other peers reach this node at')
    .option('--out <file>', 'where to write the entry (default <dir>/genesis-entry.json)')
    .addHelpText(
      'after',
      '\nSend the entry file to the coordinator; the private keys stay in --dir.\n\n' +
        'Example:\n  torana genesis entry --dir /var/lib/torana --chain-id acme-net --address node1.acme.example:9200\n',
    )
    .action(lazyAction(actions, 'genesisEntry'));
  genesis
    .command('collect')
    .description('check every entry and write genesis.json signed by the admin key of --admin-dir')
    .requiredOption('--chain-id <id>', 'chain id of the network')
    .requiredOption('--admin-dir <dir>', 'the genesis admin and bridge keys (made there when absent)')
    .requiredOption('--out <file>', 'where to write genesis.json')
    .option(
      '--params <file>',
      'JSON object of chain parameters as dotted config keys (block.max_transactions, …)',
    )
    .argument('<entries...>', 'entry files written by `torana genesis entry`')
    .addHelpText(
      'after',
      '\nPrints the genesis hash: give it to every operator beside the file.\n\n' +
        'Example:\n  torana genesis collect --chain-id acme-net --admin-dir ./admin --out genesis.json a.json b.json c.json d.json\n',
    )
    .action(lazyAction(actions, 'genesisCollect'));
  genesis
    .command('verify')
    .description('check a genesis file against the hash you were given, its signature and every validator')
    .argument('<genesis>', 'the genesis file received')
    .requiredOption('--hash <hash>', 'the genesis hash the coordinator announced')
    .action(lazyAction(actions, 'genesisVerify'));
  genesis
    .command('adopt')
    .description('verify a genesis and install it in --dir (writing config.toml when there is none)')
    .argument('<genesis>', 'the genesis file received')
    .requiredOption('--hash <hash>', 'the genesis hash the coordinator announced')
    .option('--listen <host:port>', 'p2p listen address (default: the address this node is registered at)')
    .action(lazyAction(actions, 'genesisAdopt'));
  genesis
    .command('import')
    .description(
      'write a genesis state file (NDJSON: domains, definitions, accounts and balances) into --dir before its first start',
    )
    .argument('<file>', 'the genesis state file, one JSON object per line')
    .addHelpText(
      'after',
      '\nThe genesis authority owns every domain and definition imported; block 1 runs on top.\n' +
        'Lines: {"domain":"d"} {"definition":"coin#d","scale":2} {"account":"<key>@d","balances":{"coin#d":"12.50"}}\n\n' +
        'Example:\n  torana genesis import --dir /var/lib/torana accounts.ndjson\n',
    )
    .action(lazyAction(actions, 'genesisImport'));
}
