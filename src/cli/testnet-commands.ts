// `torana testnet init` and `torana testnet up` (README "A local network"). Only
// declarations here; testnet-actions.ts holds the code and is imported when one runs (lazy.ts).

import type { Command } from 'commander';
import { lazyAction } from './lazy.js';

const actions = () => import('./testnet-actions.js');

export function registerTestnetCommands(program: Command): void {
  const testnet = program.command('testnet').description('a local network of peers on loopback');
  testnet
    .command('init')
    .description('write one node directory per peer, a shared genesis and testnet.json into --dir')
    .requiredOption('--validators <n>', 'number of validators (>= 1)')
    .option('--observers <n>', 'number of observers (they follow and serve reads, never vote)', '0')
    .requiredOption('--dir <dir>', 'new (or empty) directory for the network')
    .option('--base-port <port>', 'gateway of peer i on port + i, its p2p listener on port + 100 + i', '9100')
    .option('--chain-id <id>', 'chain id of the network', 'torana-testnet')
    .addHelpText(
      'after',
      '\nEach peer directory works alone with `torana start --dir <dir>/peer-<i>`.\n\n' +
        'Example:\n  torana testnet init --validators 4 --dir ./net\n',
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
