// The code of `torana permission …` (permission-commands.ts). The payload of a core token is built from
// the option naming its object (`--domain`, `--definition`, `--of`), so a grant matches what the ledger
// checks; `--payload` gives any payload (a module's token). The ledger judges the rest.

import type { Json } from '../codec/codec.js';
import { modulePermissionTokens, type PERMISSIONS } from '../model/permissions.js';
import { type Flags, parseJsonFlag, submit } from './client-actions.js';
import { CliError, EXIT } from './errors.js';
import { printJson, printTable } from './output.js';

type CoreToken = keyof typeof PERMISSIONS;

/** The payload field of each core token (null: the token names no object). */
export const CORE_TOKEN_FIELDS: Record<
  CoreToken,
  'domain' | 'asset_definition' | 'account' | 'target' | null
> = {
  Admin: null,
  CanRegisterDomain: null,
  CanUnregisterDomain: 'domain',
  CanRegisterAccountInDomain: 'domain',
  CanRegisterAssetDefinitionInDomain: 'domain',
  CanMintAssetWithDefinition: 'asset_definition',
  CanBurnAssetWithDefinition: 'asset_definition',
  CanTransferAssetWithDefinition: 'asset_definition',
  CanModifyMetadata: 'target',
  CanManageRoles: null,
  CanManagePermissions: null,
  CanManagePeers: null,
  CanSetParameters: null,
  CanManageRuntimeUpgrades: null,
  CanTransferFrom: 'account',
  TransferDelegate: null,
};

type PermissionFlags = Flags & { domain?: string; definition?: string; of?: string; payload?: string };

const OPTION_OF: Record<string, string> = {
  domain: '--domain',
  asset_definition: '--definition',
  account: '--of',
};

/** The payload a token takes from the flags, or a usage error saying which flag it needs. */
export function permissionPayload(token: string, flags: PermissionFlags): Json {
  const given: Record<string, string | undefined> = {
    domain: flags.domain,
    asset_definition: flags.definition,
    account: flags.of,
  };
  const named = Object.entries(given).filter(([, v]) => v !== undefined);
  if (flags.payload !== undefined) {
    if (named.length > 0)
      throw new CliError(
        'invalid_argument',
        '--payload replaces --domain, --definition and --of',
        EXIT.usage,
      );
    return parseJsonFlag(flags.payload, 'payload') as Json;
  }
  if (!Object.hasOwn(CORE_TOKEN_FIELDS, token)) {
    if (named.length > 1)
      throw new CliError('invalid_argument', 'give one of --domain, --definition, --of', EXIT.usage);
    return named.length === 0 ? null : { [named[0]![0]]: named[0]![1]! };
  }
  const field = CORE_TOKEN_FIELDS[token as CoreToken];
  if (field === null) {
    if (named.length > 0) throw new CliError('invalid_argument', `${token} applies to no object`, EXIT.usage);
    return null;
  }
  if (field === 'target')
    throw new CliError('invalid_argument', `${token} takes --payload '{"target":{…}}'`, EXIT.usage);
  const value = given[field];
  if (value === undefined || named.length > 1)
    throw new CliError(
      'invalid_argument',
      `${token} takes ${OPTION_OF[field]} (and nothing else)`,
      EXIT.usage,
    );
  return { [field]: value };
}

function change(kind: 'GrantPermission' | 'RevokePermission') {
  return (account: string, token: string, flags: PermissionFlags) => {
    const permission = { name: token, payload: permissionPayload(token, flags) };
    return submit(flags, () => [{ kind, account, permission }], { account, permission });
  };
}

export const permissionGrant = change('GrantPermission');
export const permissionRevoke = change('RevokePermission');

/** The core tokens, then every token the installed modules declare (the module registry is loaded first). */
export function permissionTokens(flags: { json?: boolean }): void {
  const all: Array<{ token: string; field: string | null; source: 'core' | 'module' }> = [
    ...Object.entries(CORE_TOKEN_FIELDS).map(([token, field]) => ({ token, field, source: 'core' as const })),
    ...modulePermissionTokens().map(([token, field]) => ({ token, field, source: 'module' as const })),
  ];
  if (flags.json) {
    printJson(all.map(({ token, field, source }) => ({ token, payload_field: field, source })));
    return;
  }
  const payload = (field: string | null) =>
    field === null
      ? ''
      : field === 'target'
        ? '--payload {"target":…}'
        : OPTION_OF[field] === undefined
          ? `--payload {"${field}":…}`
          : `${OPTION_OF[field]} ${field}`;
  printTable(all.map(({ token, field, source }) => ({ token, payload: payload(field), source })));
}
