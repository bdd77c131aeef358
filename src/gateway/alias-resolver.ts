// Aliases in place of ids (docs/data-model.md §Aliases): one resolver, used by every
// route that takes an account or asset definition id. The text is tried as an id first; an alias
// literal (`label@domain` for accounts, `label` for definitions) is looked up in the committed state,
// an asset alias only while its lease is live at the committed tip's block time. An id text that is
// neither form is 400 bad_request; a well-formed alias that names nothing is 404 not_found.

import { accountAliasProblem, assetAliasProblem, leaseLive, leaseStatus } from '../model/aliases.js';
import {
  AccountId,
  AssetDefinitionId,
  assetId,
  canonicalAccountId,
  parseAssetId,
  parseDefinitionId,
} from '../model/ids.js';
import { gatewayError } from './errors.js';
import type { ChainReader, StateReader } from './ports.js';
import { pathId } from './routes/app-params.js';

export type AliasState = Pick<StateReader, 'accountAlias' | 'assetAlias'>;
export type AliasChain = Pick<ChainReader, 'height' | 'block'>;

/** The block time of the committed tip (lease status is evaluated against it); 0 before block 1. */
export async function tipTimeMs(chain: AliasChain): Promise<number> {
  const h = chain.height();
  return h === 0 ? 0 : ((await chain.block(h))?.header.creationTimeMs ?? 0);
}

/** The account an id or alias names: its canonical id, or undefined (malformed or unbound). */
export function resolveAccount(state: AliasState, text: string): string | undefined {
  const id = canonicalAccountId(text);
  if (id !== undefined) return id;
  return accountAliasProblem(text) === undefined ? state.accountAlias(text)?.account : undefined;
}

/** The definition an id or live asset alias names, at block time `timeMs`; undefined otherwise. */
export function resolveDefinition(state: AliasState, text: string, timeMs: number): string | undefined {
  if (parseDefinitionId(text) !== undefined) return text;
  if (assetAliasProblem(text) !== undefined) return undefined;
  const row = state.assetAlias(text);
  return row !== undefined && leaseLive(leaseStatus(row.lease, timeMs)) ? row.definition : undefined;
}

/** A route's account parameter: the canonical id; 404 for an unbound alias, 400 for neither form. */
export function accountParam(state: AliasState, text: string): string {
  if (accountAliasProblem(text) !== undefined) return pathId(AccountId, text);
  const account = state.accountAlias(text)?.account;
  if (account === undefined) throw gatewayError('not_found', { account_alias: text });
  return account;
}

/**
 * A body field naming an account that must exist, by id or alias: 400 bad_request (naming `field`) for
 * neither form, 404 not_found for an unbound alias or an unknown account.
 */
export function existingAccount(
  state: AliasState & { accountExists(id: string): boolean },
  text: string,
  field = 'account_id',
): string {
  if (canonicalAccountId(text) === undefined && accountAliasProblem(text) !== undefined)
    throw gatewayError('bad_request', {
      location: 'body',
      field,
      expected: '<public key>@<domain> or an account alias <label>@<domain>',
    });
  const id = resolveAccount(state, text);
  if (id === undefined || !state.accountExists(id)) throw gatewayError('not_found', { account: text });
  return id;
}

/** A route's asset definition parameter, as accountParam; an expired asset alias is 404. */
export async function definitionParam(state: AliasState, chain: AliasChain, text: string): Promise<string> {
  if (assetAliasProblem(text) !== undefined) return pathId(AssetDefinitionId, text);
  const definition = resolveDefinition(state, text, await tipTimeMs(chain));
  if (definition === undefined) throw gatewayError('not_found', { asset_alias: text });
  return definition;
}

/**
 * What a parameter or filter field names: an account, an asset definition, an asset (a balance), or
 * either of the last two (the explorer's `asset_id` filters).
 */
export type IdKind = 'account' | 'definition' | 'asset' | 'asset_or_definition';

const isAccountAlias = (text: string) => accountAliasProblem(text) === undefined;
const isAssetAlias = (text: string) => assetAliasProblem(text) === undefined;

/**
 * `text` with an alias replaced by the id it names at block time `timeMs` (an asset id's definition and
 * account parts each: `<definition id | asset alias>#<account id | account alias>`; for
 * `asset_or_definition` a bare asset alias names its definition). Text that holds no
 * alias is returned as it is, for the caller's own id parser to accept or refuse (400); a well-formed
 * alias that names nothing (an asset alias also once its lease expired) is 404 not_found, as on paths.
 */
export function idText(state: AliasState, kind: IdKind, text: string, timeMs: number): string {
  if (kind === 'account') {
    if (!isAccountAlias(text)) return text;
    const account = state.accountAlias(text)?.account;
    if (account === undefined) throw gatewayError('not_found', { account_alias: text });
    return account;
  }
  if (kind === 'definition') {
    if (!isAssetAlias(text)) return text;
    const definition = resolveDefinition(state, text, timeMs);
    if (definition === undefined) throw gatewayError('not_found', { asset_alias: text });
    return definition;
  }
  if (parseAssetId(text) !== undefined || parseDefinitionId(text) !== undefined) return text;
  if (!text.includes('#')) return kind === 'asset' ? text : idText(state, 'definition', text, timeMs);
  const at = text.lastIndexOf('#');
  const account = text.slice(at + 1);
  if (at <= 0 || (canonicalAccountId(account) === undefined && !isAccountAlias(account))) return text;
  const definition = text.slice(0, at);
  return assetId(idText(state, 'definition', definition, timeMs), idText(state, 'account', account, timeMs));
}

/** Whether resolving `text` as `kind` may read an asset alias (and so needs the tip's block time). */
function needsTime(kind: IdKind, text: string): boolean {
  return kind !== 'account' && (isAssetAlias(text) || text.includes('#'));
}

/**
 * Query-string parameters naming entities (`fields`: parameter → kind), aliases replaced by ids at the
 * committed height (idText); the other parameters are kept as they are.
 */
export async function queryIds<Q extends Partial<Record<string, string>>>(
  state: AliasState,
  chain: AliasChain,
  query: Q,
  fields: Readonly<Record<string, IdKind>>,
): Promise<Q> {
  const named = Object.entries(fields).filter(([p]) => typeof query[p] === 'string');
  if (named.length === 0) return query;
  const timed = named.some(([p, kind]) => needsTime(kind, query[p]!));
  const timeMs = timed ? await tipTimeMs(chain) : 0;
  const out: Record<string, string | undefined> = { ...query };
  for (const [p, kind] of named) out[p] = idText(state, kind, query[p]!, timeMs);
  return out as Q;
}
