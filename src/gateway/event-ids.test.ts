import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { NamedIdKind } from '../model/id-names.js';
import { QUERY_LANGUAGE } from '../node/query-language.js';
import { resolveEventFilter, resolveEventFilterText } from './event-ids.js';
import type { IdNameState } from './id-resolver.js';

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
const ports = { state, chain: { height: () => 0, block: async () => undefined }, query: QUERY_LANGUAGE };
const notFound = (e: unknown) => (e as { code?: string }).code === 'not_found';

describe('names in place of ids in event filters', () => {
  it('resolves account, definition and asset values; other fields and ordering stay as given', async () => {
    const r = await resolveEventFilter(
      ports,
      {
        and: [
          { eq: ['account', 'alice@wonderland'] },
          { in: ['definition', ['rose', 'gem#x']] },
          { ne: ['asset', 'rose#alice@wonderland'] },
          { eq: ['domain', 'alice@wonderland'] },
        ],
      },
      8,
    );
    assert.ok(r.ok);
    assert.deepEqual(r.expr, {
      and: [
        { eq: ['account', ALICE] },
        { in: ['definition', ['rose#wonderland', 'gem#x']] },
        { ne: ['asset', `rose#wonderland#${ALICE}`] },
        { eq: ['domain', 'alice@wonderland'] },
      ],
    });
    assert.ok(
      r.match({ kind: 'data', account: ALICE, definition: 'rose#wonderland', domain: 'alice@wonderland' }),
    );
    assert.ok(!r.match({ kind: 'data', account: 'alice@wonderland' }));
  });

  it('checks the filter before its aliases; unbound aliases are 404; no filter matches all', async () => {
    const bad = await resolveEventFilter(ports, { eq: ['acount', 'nobody@wonderland'] }, 8);
    assert.ok(!bad.ok && /unknown field acount/.test(bad.details.reason));
    await assert.rejects(resolveEventFilter(ports, { eq: ['account', 'nobody@wonderland'] }, 8), notFound);
    await assert.rejects(resolveEventFilterText(ports, '{"eq":["definition","tulip"]}', 8), notFound);
    const text = await resolveEventFilterText(ports, 'not json', 8);
    assert.ok(!text.ok && text.details.reason === 'not valid JSON');
    for (const none of [undefined, ' ']) {
      const all = await resolveEventFilterText(ports, none, 8);
      assert.ok(all.ok && all.expr === null && all.match({ kind: 'block' }));
    }
  });
});
