// The state key a state-proof request names: `?key=<hex>` as it is, or an entity id turned into its key
// with the world state's key scheme (state/keys.ts): `account`, `asset` (a holding: definition#account),
// `definition` (an asset definition) or `domain`. Exactly one form per request; 400 otherwise.

import { gatewayError } from '../gateway/errors.js';
import { canonicalAccountId, parseAssetId, parseDefinitionId } from '../model/ids.js';
import { TABLE_TAGS, type TableName } from '../model/tags.js';
import { parseStateKey, stateKey } from '../state/keys.js';
import { fromHex } from '../util/hex.js';
import { STATE_KEY_BYTES_MAX } from './views.js';

export interface StateKeyQuery {
  key?: string;
  account?: string;
  asset?: string;
  definition?: string;
  domain?: string;
}

export const STATE_KEY_FORMS = ['key', 'account', 'asset', 'definition', 'domain'] as const;

function bad(parameter: string, expected: string): never {
  throw gatewayError('bad_request', { location: 'querystring', parameter, expected });
}

function keyed(table: TableName, id: string | undefined, parameter: string, what: string): Uint8Array {
  if (id === undefined) bad(parameter, what);
  return stateKey(TABLE_TAGS[table], id);
}

/** The state key `q` names; 400 bad_request when it names none, several, or a malformed one. */
export function stateKeyOf(q: StateKeyQuery): Uint8Array {
  const given = STATE_KEY_FORMS.filter((f) => q[f] !== undefined);
  if (given.length !== 1)
    throw gatewayError('bad_request', {
      location: 'querystring',
      expected: `exactly one of ${STATE_KEY_FORMS.join(', ')}`,
      given,
    });
  const form = given[0]!;
  const text = q[form]!;
  switch (form) {
    case 'key': {
      const bytes = text.length % 2 === 0 && text.length > 0 ? fromHex(text) : undefined;
      if (bytes === undefined || bytes.length > STATE_KEY_BYTES_MAX)
        bad('key', `a state key: 2 to ${2 * STATE_KEY_BYTES_MAX} hex digits`);
      return bytes;
    }
    case 'account':
      return keyed('account', canonicalAccountId(text), 'account', 'an account id (<public key>@<domain>)');
    case 'asset': {
      const a = parseAssetId(text);
      return keyed(
        'asset',
        a && `${a.definition}#${a.account}`,
        'asset',
        'an asset id (<name>#<domain>#<account id>)',
      );
    }
    case 'definition':
      return keyed(
        'assetDefinition',
        parseDefinitionId(text) && text,
        'definition',
        'an asset definition id (<name>#<domain>)',
      );
    case 'domain':
      return keyed(
        'domain',
        text.length > 0 && text.length <= 256 ? text : undefined,
        'domain',
        'a domain id',
      );
  }
}

const TABLE_OF_TAG = new Map<number, TableName>(
  (Object.entries(TABLE_TAGS) as [TableName, number][]).map(([name, tag]) => [tag, name]),
);

/** The table and row id a state key names, when its tag is a table's. */
export function tableOfKey(key: Uint8Array): { table: TableName; id: string } | undefined {
  const parts = parseStateKey(key);
  const table = parts === undefined ? undefined : TABLE_OF_TAG.get(parts.tag);
  return table === undefined ? undefined : { table, id: parts!.id };
}
