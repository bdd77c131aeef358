// `torana repo …` (docs/repo.md): repo agreements. Declarations only; the code is in actions.ts,
// imported when a command runs (cli/lazy.ts), so `torana --help` stays light. Every command takes
// `--json` (cli/main.ts gives it to all).

import type { Command } from 'commander';
import { clientOptions } from '../../cli/client-options.js';
import { lazyAction } from '../../cli/lazy.js';

const actions = () => import('./actions.js');

export function registerRepoCommands(program: Command): void {
  const c = program
    .command('repo')
    .description('repo agreements: initiate, accept, price, margin, substitute, unwind');
  const cmd = (usage: string, what: string) => clientOptions(c.command(usage).description(what));
  cmd(
    'initiate <reference> <counterparty>',
    'propose an agreement: the signer borrows the cash against the collateral (prints its id)',
  )
    .requiredOption('--cash <quantity@definition>', 'the cash leg, e.g. 1000.00@usd#wonderland')
    .requiredOption('--collateral <quantity@definition>', 'the collateral leg, e.g. 12@bond#wonderland')
    .requiredOption('--price <decimal>', 'cash units one unit of collateral is worth')
    .requiredOption('--maturity <ms>', 'the maturity, a block time in ms since the epoch')
    .option('--rate-bps <n>', 'yearly interest in basis points', '0')
    .option('--haircut-bps <n>', 'the haircut in basis points', '0')
    .option('--margin-window <ms>', 'how long a margin call stands', '86400000')
    .option('--custodian <account>', 'sets the prices in place of the counterparty')
    .addHelpText(
      'after',
      '\nExample:\n  torana repo initiate REPO-1 bob --cash 1000.00@usd#wonderland --collateral 12@bond#wonderland --price 100 --maturity 1798761600000 --rate-bps 500 --haircut-bps 200\n',
    )
    .action(lazyAction(actions, 'repoInitiate'));
  cmd(
    'accept <id>',
    'accept a proposed agreement: collateral to escrow, cash to the initiator (counterparty)',
  ).action(lazyAction(actions, 'repoAccept'));
  cmd(
    'price <id> <definition> <price>',
    'price a collateral definition in cash units (price authority)',
  ).action(lazyAction(actions, 'repoPrice'));
  cmd('check <id>', 'recompute the margin requirement (anyone)').action(lazyAction(actions, 'repoCheck'));
  cmd('top-up <id> <quantity>', 'add collateral to escrow (initiator)').action(
    lazyAction(actions, 'repoTopUp'),
  );
  cmd(
    'substitute <id> <quantity@definition>',
    'put new collateral in escrow, take the old back (initiator)',
  ).action(lazyAction(actions, 'repoSubstitute'));
  cmd('unwind <id>', "ask to unwind early; the other party's call settles (either party)").action(
    lazyAction(actions, 'repoUnwind'),
  );
  cmd('list', 'agreements, by id')
    .option('--limit <n>', 'page size')
    .option('--offset <n>', 'agreements to skip')
    .option('--status <status>', 'only agreements in this status')
    .action(lazyAction(actions, 'repoList'));
  cmd('get <id>', 'one agreement').action(lazyAction(actions, 'repoGet'));
}
