// `torana connect status | wallet` (docs/connect.md "CLI"): the relay's counters and limits, and the CLI
// as the wallet of a Connect session — it pairs with the app's URI and signs the transactions the app
// asks for, as the configured account. Declarations only; the code is in actions.ts, imported when a
// command runs (cli/lazy.ts), so `torana --help` stays light.

import type { Command } from 'commander';
import { clientOptions } from '../../cli/client-options.js';
import { lazyAction } from '../../cli/lazy.js';

const actions = () => import('./actions.js');

export function registerConnectCommands(program: Command): void {
  const c = program.command('connect').description('the Connect relay: its status, and this CLI as a wallet');
  clientOptions(c.command('status').description("the relay's counters since start and its limits")).action(
    lazyAction(actions, 'connectStatus'),
  );
  clientOptions(
    c
      .command('wallet <pairing-uri>')
      .description(
        "pair with an app's URI and sign its transactions as the configured account (asks before each, or --yes)",
      ),
  )
    .option('--yes', 'sign every transaction of this account without asking')
    .option('--max <n>', 'end the session after signing n transactions')
    .addHelpText(
      'after',
      '\nExample:\n  torana connect wallet "torana-connect:…?node=http://127.0.0.1:8080&token=…&pk=…" --as alice\n',
    )
    .action(lazyAction(actions, 'connectWallet'));
}
