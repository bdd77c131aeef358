// `torana explorer …` (docs/explorer.md "SDK and CLI"): the explorer routes from the command line, as
// tables (or one JSON document with --json), and `watch` to follow a stream. Code in actions.ts.

import type { Command } from 'commander';
import { lazyAction } from '../../cli/lazy.js';

const actions = () => import('./actions.js');

function target(cmd: Command): Command {
  return cmd.option('--url <url>', 'gateway URL (default: the node running in --dir, else client.json)');
}

function paged(cmd: Command): Command {
  return target(cmd).option('--page <n>', 'page (from 1)').option('--per-page <n>', 'items per page (1-500)');
}

function txFilters(cmd: Command): Command {
  return cmd
    .option('--authority <account>', 'signer of the transaction')
    .option('--block <height>', 'one block')
    .option('--asset <id>', 'an asset id, or an asset definition id');
}

function insFilters(cmd: Command): Command {
  return txFilters(cmd)
    .option('--account <account>', 'an account the instruction names')
    .option('--tx <hash>', 'the instructions of one transaction')
    .option('--tx-status <status>', 'Committed or Rejected')
    .option('--kind <kind>', 'instruction kind, e.g. MintAsset');
}

/** `explorer <name> <id>` commands that read one item. */
const ONE: [string, string, string][] = [
  ['block <height-or-hash>', 'one block with its transactions', 'block'],
  ['tx <hash>', 'one transaction, with its rejection reason', 'tx'],
  ['account <account-id>', 'one account with owned counts', 'account'],
  ['qr <account-id>', 'the QR code of an account id (SVG on stdout; --json for all fields)', 'qr'],
  ['domain <domain-id>', 'one domain', 'domain'],
  ['definition <definition-id>', 'one asset definition', 'definition'],
  ['snapshot <definition-id>', 'holders, Gini and top holders of a definition', 'snapshot'],
  ['asset <asset-id>', 'one balance', 'asset'],
  ['nft <nft-id>', 'one NFT', 'nft'],
];

/** `explorer <name>` commands that list a page. */
const LISTS: [string, string, string][] = [
  ['blocks', 'blocks, newest first', 'blocks'],
  ['accounts', 'accounts with owned counts', 'accounts'],
  ['domains', 'domains', 'domains'],
  ['definitions', 'asset definitions', 'definitions'],
  ['nfts', 'NFTs', 'nfts'],
];

export function registerExplorerCommands(program: Command): void {
  const ex = program.command('explorer').description('the chain as an explorer shows it (docs/explorer.md)');
  for (const [name, what, action] of LISTS)
    paged(ex.command(name).description(what)).action(lazyAction(actions, action as 'blocks'));
  for (const [name, what, action] of ONE)
    target(ex.command(name).description(what)).action(lazyAction(actions, action as 'block'));
  txFilters(paged(ex.command('txs').description('committed transactions, newest first')))
    .option('--status <status>', 'Committed or Rejected')
    .option('--latest <n>', 'the newest n (1-100), unpaged')
    .addHelpText(
      'after',
      '\nExamples:\n  torana explorer txs --status rejected\n  torana explorer txs --latest 5\n',
    )
    .action(lazyAction(actions, 'txs'));
  insFilters(paged(ex.command('instructions').description('instructions, newest first')))
    .option('--latest <n>', 'the newest n (1-100), unpaged')
    .addHelpText(
      'after',
      '\nExample:\n  torana explorer instructions --kind MintAsset --asset rose#wonderland\n',
    )
    .action(lazyAction(actions, 'instructions'));
  target(
    ex.command('instruction <hash> <index>').description('one instruction: codec bytes (hex) and JSON'),
  ).action(lazyAction(actions, 'instruction'));
  paged(ex.command('assets').description('balances'))
    .option('--owned-by <account>', 'balances of one account')
    .option('--definition <id>', 'balances of one asset definition')
    .action(lazyAction(actions, 'assets'));
  target(ex.command('econometrics <definition-id>').description('minted, burned, transferred over a window'))
    .option('--from <height>', 'first height of the window')
    .option('--to <height>', 'last height of the window')
    .option('--buckets <n>', 'equal height ranges (1-100)')
    .action(lazyAction(actions, 'econometrics'));
  target(ex.command('health').description('the tip: height, hash, time')).action(
    lazyAction(actions, 'health'),
  );
  target(ex.command('metrics').description('network totals (telemetry profile extended or full)')).action(
    lazyAction(actions, 'metrics'),
  );
  insFilters(target(ex.command('watch <stream>').description('follow blocks, transactions or instructions')))
    .option('--status <status>', 'transactions: Committed or Rejected')
    .option('--since <id>', 'resume after this id (height, height:tx or height:tx:instruction)')
    .addHelpText('after', '\nExample:\n  torana explorer watch instructions --kind TransferAsset --json\n')
    .action(lazyAction(actions, 'watch'));
}
