import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ALICE,
  CAROL,
  conferenceWorld,
  expectRejected,
  registerRelay,
  relayKey,
} from '../../../test/fixtures/state/conference-fixture.js';
import { expectCode } from '../../../test/fixtures/state/state-fixture.js';
import { getRelay, listRelays } from './rows.js';

const report = (relay: string, lossPermille = 5, available = true) =>
  ({ kind: 'ReportConferenceRelayHealth', relay, available, latencyMs: 40, lossPermille }) as const;

describe('RegisterConferenceRelay', () => {
  it('makes the authority the operator', () => {
    const chain = conferenceWorld();
    const events = expectCode(chain, ALICE, [registerRelay('r9', 9)], 'Committed');
    assert.deepEqual(events, [{ kind: 'ConferenceRelayRegistered', relay: 'r9', operator: ALICE }]);
    assert.deepEqual(getRelay(chain.state, 'r9'), {
      id: 'r9',
      operator: ALICE,
      publicKey: relayKey(9),
      endpoint: 'wss://r9.example:443',
      region: 'eu',
      registeredHeight: chain.height,
    });
    assert.deepEqual(
      listRelays(chain.state).map((r) => r.id),
      ['r1', 'r2', 'r3', 'r9'],
    );
  });

  it('rejects a duplicate id and an all-zero key without effect', () => {
    const chain = conferenceWorld();
    expectRejected(chain, ALICE, [registerRelay('r1', 9)], 'already_exists');
    expectRejected(
      chain,
      ALICE,
      [{ ...registerRelay('r9', 0), publicKey: new Uint8Array(32) }],
      'conference_invalid_relay',
    );
  });
});

describe('ReportConferenceRelayHealth', () => {
  it('records the operator report with block height and time', () => {
    const chain = conferenceWorld();
    const events = expectCode(chain, CAROL, [report('r2')], 'Committed');
    assert.deepEqual(events, [
      { kind: 'ConferenceRelayHealthUpdated', relay: 'r2', available: true, latencyMs: 40, lossPermille: 5 },
    ]);
    assert.deepEqual(getRelay(chain.state, 'r2')!.health, {
      available: true,
      latencyMs: 40,
      lossPermille: 5,
      height: chain.height,
      timeMs: BigInt(1000 * chain.height),
    });
  });

  it('rejects in order without effect: unknown relay, not the operator, loss above 1000', () => {
    const chain = conferenceWorld();
    expectRejected(chain, CAROL, [report('r9')], 'conference_relay_not_found');
    expectRejected(chain, ALICE, [report('r1')], 'conference_not_relay_operator');
    expectRejected(chain, CAROL, [report('r1', 1001)], 'conference_invalid_relay');
    expectCode(chain, CAROL, [report('r1', 1000, false)], 'Committed');
  });
});
