import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dataScope } from '../../gateway/event-scope.js';
import '../load.js';

const ACCOUNT = `ed0120${'AB'.repeat(32)}@wonderland`;

describe('alias events in the event filters (through the installed module scope)', () => {
  it('an account alias event is about its account, an asset alias event about its definition', () => {
    for (const kind of ['AccountAliasBound', 'AccountAliasUnbound'] as const)
      assert.deepEqual(dataScope({ kind, alias: 'a@wonderland', account: ACCOUNT, index: 1 }), {
        account: ACCOUNT,
      });
    assert.deepEqual(dataScope({ kind: 'AccountAliasPrimarySet', alias: 'a@wonderland', account: ACCOUNT }), {
      account: ACCOUNT,
    });
    assert.deepEqual(dataScope({ kind: 'AssetAliasRemoved', alias: 'rose', definition: 'rose#garden' }), {
      definition: 'rose#garden',
    });
    assert.deepEqual(dataScope({ kind: 'AssetAliasSet', alias: 'rose', definition: 'rose#garden' }), {
      definition: 'rose#garden',
    });
  });
});
