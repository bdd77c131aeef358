// `torana webhook add | ls | get | rm | deliveries | replay | test | rotate-secret | event-types`
// (docs/webhooks.md "CLI"): signed
// requests of the configured account (client.json, or --account / --key-file). Webhooks are node-local:
// the commands talk to one node, the one in --dir or --url.

import type { Command } from 'commander';
import { lazyAction } from '../../cli/lazy.js';

const actions = () => import('./actions.js');

function options(cmd: Command): Command {
  return cmd
    .option('--url <url>', 'gateway URL (default: the node running in --dir, else client.json)')
    .option('--account <id>', 'account to sign requests as (the owner of its webhooks)')
    .option('--key-file <file>', 'key file of that account');
}

export function registerWebhookCommands(program: Command): void {
  const hook = program.command('webhook').description('webhooks of this node (node-local)');
  options(hook.command('add <target-url>').description('register a webhook'))
    .option('--secret <secret>', 'HMAC secret: deliveries carry x-ledger-webhook-signature')
    .option('--filter <json>', 'event filter expression, as for `torana events --filter`')
    .option('--inactive', 'register without delivering')
    .addHelpText(
      'after',
      '\nExample:\n  torana webhook add https://example.com/hook --secret s3cret --filter \'{"eq":["kind","data"]}\'\n',
    )
    .action(lazyAction(actions, 'add'));
  options(hook.command('ls').description("list the account's webhooks"))
    .option('--limit <n>', 'page size')
    .option('--offset <n>', 'items to skip')
    .action(lazyAction(actions, 'ls'));
  options(hook.command('get <id>').description('one webhook: cursor, queue depth, last error')).action(
    lazyAction(actions, 'get'),
  );
  options(hook.command('rm <id>').description('remove a webhook')).action(lazyAction(actions, 'rm'));
  options(hook.command('deliveries <id>').description('pending and recent deliveries of a webhook'))
    .option('--dead', 'the dead letters instead')
    .action(lazyAction(actions, 'deliveries'));
  options(hook.command('replay <id> <delivery-id>').description('queue a dead letter again')).action(
    lazyAction(actions, 'replay'),
  );
  options(hook.command('test <id>').description('queue a signed webhook.test delivery to the webhook now'))
    .option('--wait', 'wait until it is delivered or dead, and say which')
    .action(lazyAction(actions, 'test'));
  options(
    hook
      .command('rotate-secret <id>')
      .description('a new secret; the old one keeps signing deliveries during the overlap'),
  )
    .option('--secret <secret>', 'the new secret (default: the node makes one and prints it once)')
    .option('--overlap-ms <ms>', 'how long the old secret still signs (default webhooks.secret_overlap_ms)')
    .action(lazyAction(actions, 'rotateSecret'));
  options(
    hook.command('event-types').description('the event types a webhook can filter on, with their filters'),
  )
    .option('--kind <kind>', 'only transaction, block or data')
    .action(lazyAction(actions, 'eventTypes'));
}
