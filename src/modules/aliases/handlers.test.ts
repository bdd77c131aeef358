import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ADMIN,
  ALICE,
  acc,
  BOB,
  CAROL,
  expectCode,
  ROSE,
  world,
} from '../../../test/fixtures/state/state-fixture.js';
import type { Instruction } from '../../model/instructions.js';
import { WorldState } from '../../state/world-state.js';
import { accountAlias, aliasByIndex, aliasesOfAccount, aliasOfDefinition, assetAlias } from './reads.js';

const reg = (alias: string, account: string): Instruction => ({
  kind: 'RegisterAccountAlias',
  alias,
  account,
});

describe('account alias instructions', () => {
  it('rolls back a rejected transaction whole: no row, no index used', () => {
    const chain = world();
    expectCode(chain, ALICE, [reg('a@wonderland', ALICE), reg('b@wonderland', acc(9))], 'account_not_found');
    assert.equal(accountAlias(chain.state, 'a@wonderland'), undefined);
    expectCode(chain, ALICE, [reg('a@wonderland', ALICE)], 'Committed');
    assert.equal(accountAlias(chain.state, 'a@wonderland')?.index, 1);
    assert.equal(aliasByIndex(chain.state, 1)?.account, ALICE);
  });

  it('a domain owner binds in its domain for accounts it controls; the namespace owner may remove', () => {
    const chain = world();
    // ALICE owns 'garden' but does not control BOB; ADMIN (Admin) does.
    expectCode(chain, ALICE, [reg('b@garden', BOB)], 'permission_denied');
    expectCode(chain, ADMIN, [reg('b@garden', BOB), reg('c@garden', CAROL)], 'Committed');
    expectCode(chain, ALICE, [{ kind: 'RemoveAccountAlias', alias: 'b@garden' }], 'Committed');
    assert.deepEqual(aliasesOfAccount(chain.state, BOB), []);
    assert.deepEqual(
      aliasesOfAccount(chain.state, CAROL, 'garden').map((a) => a.primary),
      [true],
    );
  });

  it('unregistering an account, a definition or a domain removes their aliases', () => {
    const chain = world();
    expectCode(chain, ADMIN, [reg('b@wonderland', BOB), reg('c@garden', CAROL)], 'Committed');
    expectCode(chain, ADMIN, [{ kind: 'SetAssetAlias', alias: 'rose', definition: ROSE }], 'Committed');
    const events = expectCode(chain, ADMIN, [{ kind: 'UnregisterAccount', id: BOB }], 'Committed');
    assert.ok(events.some((e) => e.kind === 'AccountAliasUnbound' && e.alias === 'b@wonderland'));
    assert.equal(accountAlias(chain.state, 'b@wonderland'), undefined);
    expectCode(chain, ALICE, [{ kind: 'UnregisterDomain', id: 'garden' }], 'Committed');
    assert.equal(accountAlias(chain.state, 'c@garden'), undefined);
    expectCode(chain, ADMIN, [{ kind: 'UnregisterAssetDefinition', id: ROSE }], 'Committed');
    assert.equal(assetAlias(chain.state, 'rose'), undefined);
  });

  it('alias rows survive entries() → fromEntries() with the same root and indexes', () => {
    const chain = world();
    expectCode(chain, ADMIN, [reg('b@wonderland', BOB), reg('b2@wonderland', BOB)], 'Committed');
    expectCode(
      chain,
      ADMIN,
      [
        {
          kind: 'SetAssetAlias',
          alias: 'rose',
          definition: ROSE,
          lease: { expiresAtMs: 99_000n, graceMs: 5n },
        },
      ],
      'Committed',
    );
    const copy = WorldState.fromEntries(chain.state.entries());
    assert.deepEqual(copy.stateRoot(), chain.state.stateRoot());
    assert.deepEqual(aliasesOfAccount(copy, BOB), aliasesOfAccount(chain.state, BOB));
    assert.deepEqual(aliasOfDefinition(copy, ROSE), aliasOfDefinition(chain.state, ROSE));
    assert.equal(aliasByIndex(copy, 2)?.alias, 'b2@wonderland');
  });
});

describe('asset alias leases against block time (fixture block h has time 1000 h)', () => {
  it('renews in grace, refuses renewal once expired, lets anyone clean up', () => {
    const chain = world();
    const h0 = chain.height;
    const at = (n: number) => BigInt(1_000 * (h0 + n));
    const renew = (ms: bigint): Instruction => ({ kind: 'RenewAssetAlias', alias: 'rose', expiresAtMs: ms });
    const lease = (end: bigint) => ({ expiresAtMs: end, graceMs: 1_000n });
    const set: Instruction = { kind: 'SetAssetAlias', alias: 'rose', definition: ROSE, lease: lease(at(4)) };
    expectCode(chain, ADMIN, [{ ...set, lease: lease(at(1)) }], 'alias_lease_invalid'); // block h0+1
    expectCode(chain, ADMIN, [set], 'Committed'); // h0+2
    expectCode(chain, ADMIN, [renew(at(4))], 'alias_lease_invalid'); // h0+3: not later than the end
    expectCode(chain, ADMIN, [renew(at(6))], 'Committed'); // h0+4: block time = end, in grace
    expectCode(chain, BOB, [{ kind: 'RemoveAssetAlias', alias: 'rose' }], 'permission_denied'); // h0+5
    expectCode(chain, ADMIN, [{ kind: 'Log', level: { kind: 'Info' }, message: 'grace' }], 'Committed'); // h0+6
    expectCode(chain, ADMIN, [renew(at(9))], 'alias_lease_expired'); // h0+7 = end + grace
    expectCode(chain, BOB, [{ kind: 'RemoveAssetAlias', alias: 'rose' }], 'Committed'); // anyone cleans up
    assert.equal(assetAlias(chain.state, 'rose'), undefined);
  });
});
