import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { NamedIdKind } from '../model/id-names.js';
import { filterIds } from './id-filter.js';
import { accountParam, existingAccount, type IdNameState, idText } from './id-resolver.js';

const ALICE = 'ed0120AAAA@wonderland';
// A ledger module's names in place of ids, as the gateway sees them (StateReader.idName): a fake naming
// in which `<lower>@<lower>` names an account and `<lower>` a definition.
const NAMES: Record<NamedIdKind, Record<string, string>> = {
  account: { 'alice@wonderland': ALICE },
  definition: { rose: 'rose#wonderland' },
};
const FORMS: Record<NamedIdKind, RegExp> = { account: /^[a-z]+@[a-z]+$/, definition: /^[a-z]+$/ };
const state: IdNameState = {
  idName: (kind, text) =>
    FORMS[kind].test(text)
      ? { field: `${kind}_name`, timed: kind === 'definition', id: () => NAMES[kind][text] }
      : undefined,
  idNameForms: (kind) => [`a ${kind} name`],
};
const chain = { height: () => 0, block: async () => undefined };
const fields = { id: 'account', definition: 'definition', asset: 'asset' } as const;
const notFound = (e: unknown) => (e as { code?: string }).code === 'not_found';

describe('names in place of ids in filters and query parameters', () => {
  it('idText: names become ids, ids and other text stay as given, unbound names are 404', () => {
    assert.equal(idText(state, 'account', 'alice@wonderland', 0), ALICE);
    assert.equal(idText(state, 'account', 'not an id', 0), 'not an id');
    assert.equal(idText(state, 'definition', 'rose', 0), 'rose#wonderland');
    assert.equal(idText(state, 'definition', 'rose#wonderland', 0), 'rose#wonderland');
    assert.equal(idText(state, 'asset', 'rose#alice@wonderland', 0), `rose#wonderland#${ALICE}`);
    assert.equal(idText(state, 'asset', 'rose', 0), 'rose'); // an asset is never a bare name
    assert.equal(idText(state, 'asset_or_definition', 'rose', 0), 'rose#wonderland');
    assert.throws(() => idText(state, 'account', 'bob@wonderland', 0), notFound);
    assert.throws(() => idText(state, 'asset', 'tulip#alice@wonderland', 0), notFound);
    // The 404 names the text under the naming module's own detail field.
    assert.throws(
      () => idText(state, 'account', 'bob@wonderland', 0),
      (e: { details?: Record<string, unknown> }) => e.details?.account_name === 'bob@wonderland',
    );
  });

  it('accountParam and existingAccount: ids as given, names resolved, neither form 400 listing the forms', () => {
    assert.equal(accountParam(state, 'alice@wonderland'), ALICE);
    const exists = { ...state, accountExists: (id: string) => id === ALICE };
    assert.equal(existingAccount(exists, 'alice@wonderland'), ALICE);
    assert.throws(
      () => existingAccount(exists, 'Not An Id'),
      (e: { code?: string; details?: Record<string, unknown> }) =>
        e.code === 'bad_request' && e.details?.expected === '<public key>@<domain> or a account name',
    );
  });

  it('filterIds rewrites eq, ne, in and nin on id fields, through and, or and not', async () => {
    const input = {
      filter: {
        and: [
          { eq: ['id', 'alice@wonderland'] },
          { not: { in: ['definition', ['rose', 'gem#x']] } },
          { or: [{ nin: ['asset', ['rose#alice@wonderland']] }, { ne: ['name', 'alice@wonderland'] }] },
          { gt: ['id', 'alice@wonderland'] },
        ],
      },
    };
    assert.deepEqual((await filterIds(state, chain, input, fields, 10)).filter, {
      and: [
        { eq: ['id', ALICE] },
        { not: { in: ['definition', ['rose#wonderland', 'gem#x']] } },
        { or: [{ nin: ['asset', [`rose#wonderland#${ALICE}`]] }, { ne: ['name', 'alice@wonderland'] }] },
        { gt: ['id', 'alice@wonderland'] },
      ],
    });
  });

  it('filterIds reads the query-string form, leaves malformed JSON to the filter parser', async () => {
    const text = JSON.stringify({ eq: ['id', 'alice@wonderland'] });
    assert.deepEqual(await filterIds(state, chain, { filterText: text, limit: '5' }, fields, 10), {
      limit: '5',
      filter: { eq: ['id', ALICE] },
    });
    const bad = { filterText: '{not json' };
    assert.equal(await filterIds(state, chain, bad, fields, 10), bad);
    await assert.rejects(
      filterIds(state, chain, { filter: { eq: ['id', 'x@wonderland'] } }, fields, 10),
      notFound,
    );
  });
});
