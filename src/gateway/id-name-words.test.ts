import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { idNameWords, idOrName, installIdNameWords, withNames } from './id-name-words.js';

describe('id-name words (route descriptions of names taken in place of ids)', () => {
  it('words the installed naming module’s names; without one, ids alone', () => {
    const before = idNameWords();
    try {
      installIdNameWords(undefined);
      assert.equal(idOrName('account id'), 'account id');
      assert.equal(
        withNames('one asset id', (w) => ` (its parts may be ${w.many})`),
        'one asset id',
      );
      installIdNameWords({ one: 'nickname', many: 'nicknames', a: 'a nickname' });
      assert.equal(idOrName('asset definition id'), 'asset definition id or nickname');
      assert.equal(
        withNames('one asset id', (w) => ` (its parts may be ${w.many}; each is ${w.a})`),
        'one asset id (its parts may be nicknames; each is a nickname)',
      );
    } finally {
      installIdNameWords(before);
    }
  });
});
