// `torana subscription …` (docs/subscriptions.md). Declarations
// only; the code is in subscription-actions.ts, imported when a command runs (lazy.ts).

import type { Command } from 'commander';
import { clientOptions } from '../../cli/client-options.js';
import { lazyAction } from '../../cli/lazy.js';

const actions = () => import('./actions.js');

function registerSubscription(program: Command): void {
  const sub = program.command('subscription').description('subscription plans and subscriptions');
  clientOptions(
    sub.command('plan <id> <asset-definition> <price>').description('register a plan (you are its provider)'),
  )
    .option('--monthly <day>', 'monthly on this day (1..31, clamped to the month), UTC')
    .option('--anchor-time-ms <ms>', 'with --monthly: time of day in ms', '0')
    .option('--period-ms <ms>', 'fixed period in ms (instead of --monthly)')
    .option('--usage <unit-key>', 'price is per unit of this usage key, billed in arrears')
    .option('--bill-for <when>', 'current (in advance) or previous (in arrears)', 'current')
    .option('--retry-backoff-ms <ms>', 'delay before retrying a failed charge', '3600000')
    .option('--max-failures <n>', 'failed charges before suspension', '3')
    .option('--grace-ms <ms>', 'grace after the due time before suspension', '0')
    .option('--trial-ms <ms>', 'trial before the first period', '0')
    .addHelpText('after', '\nExample:\n  torana subscription plan pro usd#acme 9.99 --monthly 1\n')
    .action(lazyAction(actions, 'planRegister'));
  clientOptions(
    sub.command('subscribe <id> <plan>').description('subscribe to a plan (grants its charges)'),
  ).action(lazyAction(actions, 'subscribe'));
  clientOptions(sub.command('cancel <id>').description('cancel now, or at the end of the period'))
    .option('--at-period-end', 'keep it until the current period ends')
    .action(lazyAction(actions, 'cancel'));
  clientOptions(sub.command('keep <id>').description('undo a cancel at period end')).action(
    lazyAction(actions, 'keep'),
  );
  clientOptions(sub.command('pause <id>').description('stop charging until resumed')).action(
    lazyAction(actions, 'pause'),
  );
  clientOptions(sub.command('resume <id>').description('resume charging')).action(
    lazyAction(actions, 'resume'),
  );
  clientOptions(sub.command('charge <id>').description('run the due charge now')).action(
    lazyAction(actions, 'chargeNow'),
  );
  clientOptions(
    sub.command('usage <id> <unit-key> <units>').description('record usage (provider only)'),
  ).action(lazyAction(actions, 'usage'));
  clientOptions(sub.command('ls').description('subscriptions, with their latest invoice'))
    .option('--owned-by <account>', 'only this subscriber')
    .option('--provider <account>', 'only this provider')
    .option('--status <status>', 'active | paused | past_due | canceled | suspended')
    .option('--plans', 'list plans instead')
    .action(lazyAction(actions, 'list'));
  clientOptions(
    sub.command('get <id>').description('one subscription with its latest invoice and plan'),
  ).action(lazyAction(actions, 'get'));
}

export function registerSubscriptionCommands(program: Command): void {
  registerSubscription(program);
}
