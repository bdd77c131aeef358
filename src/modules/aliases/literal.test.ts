import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ID_NAME_TEXT_BYTES_MAX } from '../../model/id-names.js';
import { ALIAS_TEXT_BYTES_MAX, accountAliasProblem, assetAliasProblem } from './literal.js';

const KEY = `ed0120${'AB'.repeat(32)}`;

describe('alias literals (docs/data-model.md §Aliases)', () => {
  it('accepts label@domain for accounts and a bare label for definitions', () => {
    for (const a of ['alice@wonderland', 'a@b', 'x.y_z-1@looking_glass', `${'a'.repeat(64)}@d`])
      assert.equal(accountAliasProblem(a), undefined, a);
    for (const a of ['usd', 'usd.stable', '0x-1_a']) assert.equal(assetAliasProblem(a), undefined, a);
  });

  it('never reads an account id as an alias, in either case of its key', () => {
    assert.equal(accountAliasProblem(`${KEY}@wonderland`)?.kind, 'account_id');
    assert.equal(accountAliasProblem(`${KEY.toLowerCase()}@wonderland`)?.kind, 'account_id');
    assert.equal(assetAliasProblem(`${KEY.toLowerCase()}@wonderland`)?.kind, 'account_id');
  });

  it('refuses malformed literals', () => {
    for (const a of [
      'alice',
      'Alice@w',
      '-a@w',
      'a b@w',
      'a@',
      '@w',
      'a@b@c',
      `${'a'.repeat(65)}@d`,
      'a@x y',
    ])
      assert.equal(accountAliasProblem(a)?.kind, 'invalid', a);
    for (const a of ['rose#wonderland', 'deed$w', 'a@w', '', 'USD', `${'a'.repeat(65)}`])
      assert.equal(assetAliasProblem(a)?.kind, 'invalid', a);
  });

  it('the longest literal is the core’s limit of a name in place of an id (other routes bound names by it)', () => {
    assert.equal(ALIAS_TEXT_BYTES_MAX, ID_NAME_TEXT_BYTES_MAX);
    const longest = `${'a'.repeat(64)}@${'d'.repeat(128)}`;
    assert.equal(new TextEncoder().encode(longest).length, ID_NAME_TEXT_BYTES_MAX);
    assert.equal(accountAliasProblem(longest), undefined);
  });
});
