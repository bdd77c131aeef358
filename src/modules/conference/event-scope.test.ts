import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dataScope } from '../../gateway/event-scope.js';
import '../load.js';

describe('conference events in the event filters (through the installed module scope)', () => {
  it('a call event is about its call and the call domain, a relay event about its relay', () => {
    assert.deepEqual(dataScope({ kind: 'ConferenceEnded', call: 'a:b:c', endedAtMs: 1n }), {
      domain: 'a:b',
      call: 'a:b:c',
    });
    assert.deepEqual(
      dataScope({
        kind: 'ConferenceRelayManifestUpdated',
        call: 'wonderland:standup',
        relays: [],
        expiresAtMs: 1n,
      }),
      { domain: 'wonderland', call: 'wonderland:standup' },
    );
    assert.deepEqual(
      dataScope({
        kind: 'ConferenceRelayHealthUpdated',
        relay: 'r1',
        available: true,
        latencyMs: 1,
        lossPermille: 0,
      }),
      { relay: 'r1' },
    );
    assert.deepEqual(dataScope({ kind: 'ConferenceRelayRegistered', relay: 'r2', operator: 'x' }), {
      relay: 'r2',
    });
  });
});
