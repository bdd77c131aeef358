import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Event } from '../model/events.js';
import { QUERY_LANGUAGE } from '../node/query-language.js';
import { parseEventFilter, projectEvent } from './event-filter.js';
import { dataScope, installModuleEventScopes } from './event-scope.js';

const KEY = `ed0120${'AB'.repeat(32)}`;
const data = (d: unknown): Event => ({
  kind: 'Data',
  blockHeight: 3,
  transactionHash: new Uint8Array(32),
  data: d as never,
});

const events = [
  data({ kind: 'AccountCreated', id: `${KEY}@wonderland` }),
  data({ kind: 'AssetAdded', id: `rose#garden#${KEY}@wonderland`, amount: { mantissa: 1n, scale: 0 } }),
  data({ kind: 'ConferenceEnded', call: 'wonderland:standup', endedAtMs: 5n }),
  data({ kind: 'ConferenceEnded', call: 'garden:review', endedAtMs: 5n }),
  data({ kind: 'ConferenceRelayHealthUpdated', relay: 'r1', available: true, latencyMs: 1, lossPermille: 0 }),
];

// A stand-in for a module's scope of its events (the conference module's own is tested in its folder):
// a call event is about the call and its domain, a relay event about the relay.
installModuleEventScopes([
  (d) => {
    const e = d as { kind: string; call?: string; relay?: string };
    if (e.call !== undefined) return { domain: e.call.slice(0, e.call.lastIndexOf(':')), call: e.call };
    if (e.relay !== undefined) return { relay: e.relay };
    return undefined;
  },
]);

function selected(filter: unknown): number[] {
  const f = parseEventFilter(JSON.stringify(filter), 10, QUERY_LANGUAGE);
  assert.ok(f.ok, JSON.stringify(f));
  return events.flatMap((e, i) => (f.match(projectEvent(e)) ? [i] : []));
}

describe('event scope fields', () => {
  it("names the domain of core events and a module's scope of its own", () => {
    assert.deepEqual(dataScope({ kind: 'DomainCreated', id: 'garden', owner: `${KEY}@garden` }), {
      domain: 'garden',
    });
    assert.deepEqual(dataScope({ kind: 'ConferenceEnded', call: 'a:b:c', endedAtMs: 1n }), {
      domain: 'a:b',
      call: 'a:b:c',
    });
    assert.deepEqual(dataScope({ kind: 'Logged', level: { kind: 'Info' }, message: '' }), {});
  });

  it('filters streams by domain, call and relay', () => {
    assert.deepEqual(selected({ eq: ['domain', 'wonderland'] }), [0, 2]);
    assert.deepEqual(selected({ eq: ['domain', 'garden'] }), [1, 3]);
    assert.deepEqual(selected({ eq: ['call', 'garden:review'] }), [3]);
    assert.deepEqual(selected({ exists: 'call' }), [2, 3]);
    assert.deepEqual(selected({ eq: ['relay', 'r1'] }), [4]);
    assert.deepEqual(
      selected({ and: [{ eq: ['data_kind', 'ConferenceEnded'] }, { ne: ['domain', 'garden'] }] }),
      [2],
    );
  });
});

describe('account, definition and asset fields', () => {
  it('name what a data event is about', () => {
    const account = `${KEY}@wonderland`;
    assert.deepEqual(dataScope({ kind: 'AccountCreated', id: account }), { domain: 'wonderland', account });
    assert.deepEqual(dataScope({ kind: 'AssetAdded', id: `rose#garden#${account}`, amount: {} as never }), {
      domain: 'garden',
      asset: `rose#garden#${account}`,
      definition: 'rose#garden',
      account,
    });
    assert.deepEqual(dataScope({ kind: 'AssetDefinitionDeleted', id: 'rose#garden' }), {
      domain: 'garden',
      definition: 'rose#garden',
    });
    assert.deepEqual(dataScope({ kind: 'RoleGranted', account, role: 'r' as never }), { account });
    assert.deepEqual(dataScope({ kind: 'AccountCreated', id: 'not an id' }), {});
  });

  it('filters streams by account, definition and asset', () => {
    const account = `${KEY}@wonderland`;
    assert.deepEqual(selected({ eq: ['account', account] }), [0, 1]);
    assert.deepEqual(selected({ eq: ['definition', 'rose#garden'] }), [1]);
    assert.deepEqual(selected({ in: ['asset', [`rose#garden#${account}`]] }), [1]);
    assert.deepEqual(selected({ exists: 'account' }), [0, 1]);
  });
});
