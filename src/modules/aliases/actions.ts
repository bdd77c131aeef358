// The code of `torana alias …` (commands.ts), and the resolution of aliases given where the CLI takes
// an account or asset definition id (cli/id-args.ts asks `aliasIdArg` through the installed names of
// commands.ts): an alias is resolved by the node at its committed height.

import { type Flags, submit } from '../../cli/client-actions.js';
import { CliError } from '../../cli/errors.js';
import { accountArg, definitionArg } from '../../cli/id-args.js';
import type { IdArgKind } from '../../cli/id-names.js';
import { printJson, printRecord, printTable } from '../../cli/output.js';
import { resolveClient } from '../../cli/settings.js';
import type { Json } from '../../codec/codec.js';
import type { ToranaClient } from '../../sdk/client.js';
import { instructions as ix } from '../../sdk/instructions.js';
import { accountAliasProblem, assetAliasProblem } from './literal.js';
import { aliasesOfAccount, resolveAccountAlias, resolveAliasIndex, resolveAssetAlias } from './sdk.js';
import { AccountAliasView, AliasIndexView, AssetAliasView } from './views.js';

/**
 * The id an alias names at the node (an asset alias only while its lease is live); undefined when `text`
 * is no alias literal of `kind`.
 */
export async function aliasIdArg(
  client: ToranaClient,
  kind: IdArgKind,
  text: string,
): Promise<string | undefined> {
  if (kind === 'account') {
    if (accountAliasProblem(text) !== undefined) return undefined;
    return (await resolveAccountAlias(client, text)).accountId;
  }
  if (assetAliasProblem(text) !== undefined) return undefined;
  const r = await resolveAssetAlias(client, text);
  if (r.leaseStatus === 'expired_pending_cleanup')
    throw new CliError('alias_lease_expired', `asset alias ${text} has expired`, 1);
  return r.assetDefinitionId;
}

function millis(text: string, name: string): bigint {
  if (!/^[0-9]{1,16}$/.test(text)) throw new CliError('invalid_argument', `${name} must be milliseconds`, 2);
  return BigInt(text);
}

async function submitResolved(
  flags: Flags,
  build: (c: ToranaClient, me: string) => Promise<ReturnType<typeof ix.log>[]>,
) {
  const { client, account } = await resolveClient(flags, true);
  const built = await build(client, account!);
  return submit(flags, () => built);
}

export const aliasRegister = (alias: string, account: string | undefined, flags: Flags) =>
  submitResolved(flags, async (c, me) => [
    ix.registerAccountAlias(alias, account === undefined ? me : await accountArg(c, account)),
  ]);
export const aliasTransfer = (alias: string, account: string, flags: Flags) =>
  submitResolved(flags, async (c) => [ix.transferAccountAlias(alias, await accountArg(c, account))]);
export const aliasRemove = (alias: string, flags: Flags) =>
  submit(flags, () => [ix.removeAccountAlias(alias)]);
export const aliasPrimary = (alias: string, flags: Flags) =>
  submit(flags, () => [ix.setPrimaryAccountAlias(alias)]);

export async function aliasResolve(text: string, flags: Flags): Promise<void> {
  const { client } = await resolveClient(flags, false);
  const json = /^[0-9]+$/.test(text)
    ? AliasIndexView.toJson(await resolveAliasIndex(client, Number(text)))
    : AccountAliasView.toJson(await resolveAccountAlias(client, text));
  if (flags.json) printJson(json);
  else printRecord(json as Record<string, Json>);
}

export async function aliasList(
  account: string | undefined,
  flags: Flags & { domain?: string },
): Promise<void> {
  const { client, account: me } = await resolveClient(flags, account === undefined);
  const id = account === undefined ? me! : await accountArg(client, account);
  const out = await aliasesOfAccount(client, id, flags.domain === undefined ? {} : { domain: flags.domain });
  if (flags.json)
    printJson({
      account_id: out.accountId,
      total: out.total,
      items: out.items.map((i) => ({
        alias: i.alias,
        domain: i.domain,
        index: i.index,
        is_primary: i.isPrimary,
      })),
    });
  else
    printTable(
      out.items.map((i) => ({
        alias: i.alias,
        domain: i.domain,
        index: i.index,
        primary: i.isPrimary ? 'yes' : '',
      })),
    );
}

export const assetAliasSet = (
  alias: string,
  definition: string,
  flags: Flags & { expiresAtMs?: string; graceMs: string },
) =>
  submitResolved(flags, async (c) => {
    const lease =
      flags.expiresAtMs === undefined
        ? undefined
        : {
            expiresAtMs: millis(flags.expiresAtMs, '--expires-at-ms'),
            graceMs: millis(flags.graceMs, '--grace-ms'),
          };
    return [ix.setAssetAlias(alias, await definitionArg(c, definition), lease)];
  });
export const assetAliasRenew = (alias: string, expiresAtMs: string, flags: Flags) =>
  submit(flags, () => [ix.renewAssetAlias(alias, millis(expiresAtMs, 'expires-at-ms'))]);
export const assetAliasRemove = (alias: string, flags: Flags) =>
  submit(flags, () => [ix.removeAssetAlias(alias)]);

export async function assetAliasResolve(alias: string, flags: Flags): Promise<void> {
  const { client } = await resolveClient(flags, false);
  const json = AssetAliasView.toJson(await resolveAssetAlias(client, alias)) as Record<string, Json>;
  if (flags.json) printJson(json);
  else printRecord(json);
}
