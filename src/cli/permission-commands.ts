// `torana permission grant | revoke | tokens` (docs/data-model.md §Permissions): GrantPermission and
// RevokePermission of a token with the payload naming what it applies to. Declarations only; the code is
// permission-actions.ts (lazy.ts).

import type { Command } from 'commander';
import { clientOptions } from './client-options.js';
import { lazyAction } from './lazy.js';

const actions = () => import('./permission-actions.js');

function payloadOptions(cmd: Command): Command {
  return cmd
    .option('--domain <domain>', 'the domain the token applies to (payload {domain})')
    .option('--definition <id>', 'the asset definition it applies to (payload {asset_definition})')
    .option('--of <account>', 'the account it applies to (payload {account}, e.g. CanTransferFrom)')
    .option('--payload <json>', 'the whole payload as JSON, for any other token');
}

export function registerPermissionCommands(program: Command): void {
  const permission = program.command('permission').description('permission tokens of accounts');
  payloadOptions(
    clientOptions(
      permission
        .command('grant <account> <token>')
        .description('grant a permission token to an account (GrantPermission)'),
    ),
  )
    .addHelpText(
      'after',
      '\nExamples:\n  torana permission grant ed0120…@wonderland CanMintAssetWithDefinition --definition rose#wonderland\n  torana permission grant ed0120B…@wonderland CanTransferFrom --of ed0120A…@wonderland --json\n',
    )
    .action(lazyAction(actions, 'permissionGrant'));
  payloadOptions(
    clientOptions(
      permission
        .command('revoke <account> <token>')
        .description('revoke a permission token from an account (RevokePermission)'),
    ),
  )
    .addHelpText('after', '\nExample:\n  torana permission revoke ed0120…@wonderland CanRegisterDomain\n')
    .action(lazyAction(actions, 'permissionRevoke'));
  permission
    .command('tokens')
    .description('the permission tokens of the ledger and its modules, and the payload each takes')
    .action(lazyAction(actions, 'permissionTokens'));
}
