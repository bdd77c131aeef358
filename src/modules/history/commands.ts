// `torana tx history` (docs/history.md "SDK and CLI"): the caller's signed history, or an account's or asset
// definition's public one, page by page along the cursor. Code in actions.ts. The `tx` group is the core
// CLI's (cli/client-commands.ts, registered before the modules' groups); this adds its last command.

import type { Command } from 'commander';
import { clientOptions } from '../../cli/client-options.js';
import { lazyAction } from '../../cli/lazy.js';

const actions = () => import('./actions.js');

export function registerHistoryCommands(program: Command): void {
  const tx =
    program.commands.find((c) => c.name() === 'tx') ?? program.command('tx').description('transactions');
  clientOptions(
    tx
      .command('history')
      .description('your committed transactions, newest first (a request signed with your key)'),
  )
    .option('--of <account>', "an account's public history instead (no key needed)")
    .option('--definition <id>', "an asset definition's history instead (<name>#<domain>)")
    .option('--status <s>', 'ok, rejected or all (default)')
    .option('--kind <kind>', 'only transactions with this instruction kind, e.g. TransferAsset')
    .option('--asset <asset-id>', 'only transactions touching this asset (your history only)')
    .option('--from-ms <ms>', 'earliest block time, ms since the epoch')
    .option('--to-ms <ms>', 'latest block time, ms since the epoch')
    .option('--limit <n>', 'page size')
    .option('--cursor <c>', 'the page after this cursor (printed after each page)')
    .option('--all', 'every page, along the cursor')
    .addHelpText(
      'after',
      '\nExamples:\n  torana tx history --status rejected\n  torana tx history --definition rose#wonderland --kind TransferAsset --all --json\n',
    )
    .action(lazyAction(actions, 'txHistory'));
}
