// Names in place of ids (docs/design/modules.md "Names in place of ids"; users' view in docs/app-api.md):
// one resolver, used by every route that takes an account or asset definition id. The text is tried as
// an id first; text that has the form of a ledger module's name (model/id-names.ts, read through
// StateReader.idName) is looked up in the committed state, at the committed tip's block time when what
// it names depends on it. An id text that is neither form is 400 bad_request; a well-formed name that
// names nothing is 404 not_found (its detail field is the module's).

import type { NamedIdKind } from '../model/id-names.js';
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

export type IdNameState = Pick<StateReader, 'idName' | 'idNameForms'>;
export type IdChain = Pick<ChainReader, 'height' | 'block'>;

/** The block time of the committed tip (what a timed name names is judged at it); 0 before block 1. */
export async function tipTimeMs(chain: IdChain): Promise<number> {
  const h = chain.height();
  return h === 0 ? 0 : ((await chain.block(h))?.header.creationTimeMs ?? 0);
}

/** The id a well-formed name names at `timeMs`, or 404 not_found under the name's own detail field. */
function named(state: IdNameState, kind: NamedIdKind, text: string, timeMs: number): string | undefined {
  return state.idName(kind, text)?.id(timeMs);
}

function missing(state: IdNameState, kind: NamedIdKind, text: string): never {
  const field = state.idName(kind, text)?.field ?? kind;
  throw gatewayError('not_found', { [field]: text });
}

/** The account an id or name names: its canonical id, or undefined (malformed or unbound). */
export function resolveAccount(state: IdNameState, text: string): string | undefined {
  return canonicalAccountId(text) ?? named(state, 'account', text, 0);
}

/** The definition an id or name names, at block time `timeMs`; undefined otherwise. */
export function resolveDefinition(state: IdNameState, text: string, timeMs: number): string | undefined {
  if (parseDefinitionId(text) !== undefined) return text;
  return named(state, 'definition', text, timeMs);
}

/** A route's account parameter: the canonical id; 404 for an unbound name, 400 for neither form. */
export function accountParam(state: IdNameState, text: string): string {
  const name = state.idName('account', text);
  if (name === undefined) return pathId(AccountId, text);
  return name.id(0) ?? missing(state, 'account', text);
}

/**
 * A body field naming an account that must exist, by id or name: 400 bad_request (naming `field`) for
 * neither form, 404 not_found for an unbound name or an unknown account.
 */
export function existingAccount(
  state: IdNameState & { accountExists(id: string): boolean },
  text: string,
  field = 'account_id',
): string {
  if (canonicalAccountId(text) === undefined && state.idName('account', text) === undefined)
    throw gatewayError('bad_request', {
      location: 'body',
      field,
      expected: ['<public key>@<domain>', ...state.idNameForms('account')].join(' or '),
    });
  const id = resolveAccount(state, text);
  if (id === undefined || !state.accountExists(id)) throw gatewayError('not_found', { account: text });
  return id;
}

/** A route's asset definition parameter, as accountParam; a name that has lapsed is 404. */
export async function definitionParam(state: IdNameState, chain: IdChain, text: string): Promise<string> {
  const name = state.idName('definition', text);
  if (name === undefined) return pathId(AssetDefinitionId, text);
  return name.id(name.timed ? await tipTimeMs(chain) : 0) ?? missing(state, 'definition', text);
}

/**
 * What a parameter or filter field names: an account, an asset definition, an asset (a balance), or
 * either of the last two (the `asset_id` filters of the transaction and instruction lists).
 */
export type IdKind = 'account' | 'definition' | 'asset' | 'asset_or_definition';

/**
 * `text` with a name replaced by the id it names at block time `timeMs` (an asset id's definition and
 * account parts each: `<definition id | name>#<account id | name>`; for `asset_or_definition` a bare
 * definition name names its definition). Text that holds no name is returned as it is, for the caller's
 * own id parser to accept or refuse (400); a well-formed name that names nothing (or no longer) is 404
 * not_found, as on paths.
 */
export function idText(state: IdNameState, kind: IdKind, text: string, timeMs: number): string {
  if (kind === 'account' || kind === 'definition') {
    const name = state.idName(kind, text);
    if (name === undefined) return text;
    return name.id(timeMs) ?? missing(state, kind, text);
  }
  if (parseAssetId(text) !== undefined || parseDefinitionId(text) !== undefined) return text;
  if (!text.includes('#')) return kind === 'asset' ? text : idText(state, 'definition', text, timeMs);
  const at = text.lastIndexOf('#');
  const account = text.slice(at + 1);
  if (
    at <= 0 ||
    (canonicalAccountId(account) === undefined && state.idName('account', account) === undefined)
  )
    return text;
  const definition = text.slice(0, at);
  return assetId(idText(state, 'definition', definition, timeMs), idText(state, 'account', account, timeMs));
}

/** Whether resolving `text` as `kind` may read a timed name (and so needs the tip's block time). */
function needsTime(state: IdNameState, kind: IdKind, text: string): boolean {
  if (kind === 'account') return false;
  return state.idName('definition', text)?.timed === true || text.includes('#');
}

/**
 * Query-string parameters naming entities (`fields`: parameter → kind), names replaced by ids at the
 * committed height (idText); the other parameters are kept as they are.
 */
export async function queryIds<Q extends Partial<Record<string, string>>>(
  state: IdNameState,
  chain: IdChain,
  query: Q,
  fields: Readonly<Record<string, IdKind>>,
): Promise<Q> {
  const named = Object.entries(fields).filter(([p]) => typeof query[p] === 'string');
  if (named.length === 0) return query;
  const timed = named.some(([p, kind]) => needsTime(state, kind, query[p]!));
  const timeMs = timed ? await tipTimeMs(chain) : 0;
  const out: Record<string, string | undefined> = { ...query };
  for (const [p, kind] of named) out[p] = idText(state, kind, query[p]!, timeMs);
  return out as Q;
}
