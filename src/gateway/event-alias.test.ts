import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AccountAlias, AssetAlias } from '../model/aliases.js';
import { QUERY_LANGUAGE } from '../node/query-language.js';
import type { AliasState } from './alias-resolver.js';
import { resolveEventFilter, resolveEventFilterText } from './event-alias.js';

const ALICE = 'ed0120AAAA@wonderland';
const state: AliasState = {
  accountAlias: (a: string) =>
    a === 'alice@wonderland' ? ({ alias: a, account: ALICE } as unknown as AccountAlias) : undefined,
  assetAlias: (a: string) =>
    a === 'rose' ? ({ alias: a, definition: 'rose#wonderland' } as unknown as AssetAlias) : undefined,
};
const ports = { state, chain: { height: () => 0, block: async () => undefined }, query: QUERY_LANGUAGE };
const notFound = (e: unknown) => (e as { code?: string }).code === 'not_found';

describe('aliases in event filters', () => {
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
