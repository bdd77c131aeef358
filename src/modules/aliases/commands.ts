// `torana alias …` (docs/data-model.md §Aliases): account aliases (`label@domain`) and asset aliases
// (`label`), and aliases given where other commands take an account or definition id (ALIAS_ID_NAMES).
// Declarations only; the code is in actions.ts, imported when a command runs (cli/lazy.ts).

import type { Command } from 'commander';
import { clientOptions } from '../../cli/client-options.js';
import type { CliIdNames } from '../../cli/id-names.js';
import { lazyAction } from '../../cli/lazy.js';

const actions = () => import('./actions.js');

/** Aliases in place of ids on the command line, resolved at the node (actions.ts aliasIdArg). */
export const ALIAS_ID_NAMES: CliIdNames = {
  resolve: async (client, kind, text) => (await actions()).aliasIdArg(client, kind, text),
  syntax: { account: 'an alias <label>@<domain>', definition: 'an asset alias' },
};

export function registerAliasCommands(program: Command): void {
  const alias = program.command('alias').description('account aliases (label@domain) and asset aliases');
  clientOptions(
    alias.command('register <alias> [account]').description('bind an alias to an account (default: yours)'),
  )
    .addHelpText('after', '\nExample:\n  torana alias register alice@wonderland\n')
    .action(lazyAction(actions, 'aliasRegister'));
  clientOptions(alias.command('resolve <alias-or-index>').description('the account an alias or index names'))
    .addHelpText('after', '\nExamples:\n  torana alias resolve alice@wonderland\n  torana alias resolve 7\n')
    .action(lazyAction(actions, 'aliasResolve'));
  clientOptions(alias.command('ls [account]').description("an account's aliases (default: yours)"))
    .option('--domain <domain>', 'only aliases in this domain')
    .action(lazyAction(actions, 'aliasList'));
  clientOptions(
    alias.command('transfer <alias> <account>').description('bind an alias to another account'),
  ).action(lazyAction(actions, 'aliasTransfer'));
  clientOptions(alias.command('rm <alias>').description('unbind an alias')).action(
    lazyAction(actions, 'aliasRemove'),
  );
  clientOptions(alias.command('primary <alias>').description("make an alias its account's primary")).action(
    lazyAction(actions, 'aliasPrimary'),
  );
  const asset = alias.command('asset').description('asset definition aliases with leases');
  clientOptions(
    asset.command('set <alias> <definition>').description('alias a definition (permanent by default)'),
  )
    .option('--expires-at-ms <ms>', 'lease end, block time in ms since the epoch')
    .option('--grace-ms <ms>', 'grace period after the lease end', '0')
    .addHelpText('after', '\nExample:\n  torana alias asset set usd usd#wonderland\n')
    .action(lazyAction(actions, 'assetAliasSet'));
  clientOptions(
    asset.command('renew <alias> <expires-at-ms>').description('extend a lease (active or in grace)'),
  ).action(lazyAction(actions, 'assetAliasRenew'));
  clientOptions(asset.command('rm <alias>').description('remove an asset alias')).action(
    lazyAction(actions, 'assetAliasRemove'),
  );
  clientOptions(
    asset.command('resolve <alias>').description('definition and lease status of an asset alias'),
  ).action(lazyAction(actions, 'assetAliasResolve'));
}
