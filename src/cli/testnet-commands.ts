// `torana testnet init` and `torana testnet up` (README "A local network"). Only
// declarations here; testnet-actions.ts holds the code and is imported when one runs (lazy.ts).

import type { Command } from 'commander';
import { lazyAction } from './lazy.js';

const actions = () => import('./testnet-actions.js');

export function registerTestnetCommands(program: Command): void {
  const testnet = program
    .command('testnet')
    .description('a network of peers: on loopback, or on the hosts given');
  testnet
    .command('init')
    .description(
      'write one node directory per peer, a shared genesis, an admin directory and testnet.json into --dir',
    )
    .option('--validators <n>', 'number of validators (>= 1); required unless --manifest')
    .option('--observers <n>', 'number of observers (they follow and serve reads, never vote)', '0')
    .requiredOption('--dir <dir>', 'new (or empty) directory for the network')
    .option(
      '--base-port <port>',
      'gateway of the k-th peer on a host on port + k, its p2p listener on port + 100 + k',
      '9100',
    )
    .option('--chain-id <id>', 'chain id of the network', 'torana-testnet')
    .option('--hosts <h1,h2,...>', 'one host per peer (validators first): where it listens and is reached')
    .option('--manifest <file>', 'JSON {peers: [{role, host, gateway_port, p2p_port, listen_host?}]}')
    .option('--admin-dir <dir>', 'new directory for the genesis admin and bridge keys (default <dir>/admin)')
    .addHelpText(
      'after',
      '\nEach peer directory holds only its own keys and works alone with `torana start --dir <dir>/peer-<i>`;\n' +
        'the admin key never goes into a peer directory.\n\n' +
        'Examples:\n  torana testnet init --validators 4 --dir ./net\n' +
        '  torana testnet init --validators 3 --hosts 10.0.0.1,10.0.0.2,10.0.0.3 --dir ./net --admin-dir ./admin\n',
    )
    .action(lazyAction(actions, 'testnetInit'));
  testnet
    .command('up')
    .description('start every peer of the network in --dir; one status line per second; Ctrl-C stops all')
    .requiredOption('--dir <dir>', 'directory written by `torana testnet init`')
    .option('--grace-ms <ms>', 'after Ctrl-C, time a peer gets to stop before it is killed', '10000')
    .addHelpText('after', '\nExample:\n  torana testnet up --dir ./net\n')
    .action(lazyAction(actions, 'testnetUp'));
}
