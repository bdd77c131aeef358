import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ADMIN,
  ALICE,
  BOB,
  CALL,
  CAROL,
  conferenceWorld,
  create,
  expectRejected,
  join,
  leave,
} from '../../../test/fixtures/state/conference-fixture.js';
import { acc, expectCode } from '../../../test/fixtures/state/state-fixture.js';
import { fieldText } from './model.js';
import { getCall } from './rows.js';

const participants = (chain: ReturnType<typeof conferenceWorld>) => {
  const r = getCall(chain.state, CALL)!.roster;
  return r.kind === 'Transparent' ? r.participants : [];
};

describe('JoinConference (transparent)', () => {
  it('adds the authority to the sorted roster and summarises it', () => {
    const chain = conferenceWorld();
    expectCode(chain, BOB, [create(BOB)], 'Committed');
    const events = expectCode(chain, CAROL, [join()], 'Committed');
    expectCode(
      chain,
      ALICE,
      [{ kind: 'JoinConference', call: CALL, participant: ALICE, answer: new Uint8Array([1, 2]) }],
      'Committed',
    );
    assert.deepEqual(participants(chain), [ALICE, CAROL].sort());
    assert.deepEqual(events, [
      {
        kind: 'ConferenceRosterSummary',
        call: CALL,
        change: { kind: 'Joined' },
        privacy: { kind: 'Transparent' },
        participant: CAROL,
        active: 1,
        maxParticipants: 3,
      },
    ]);
  });

  it('rejects in order, each time without any effect', () => {
    const chain = conferenceWorld();
    expectRejected(chain, ALICE, [join()], 'conference_not_found');
    expectCode(
      chain,
      BOB,
      [create(BOB, { maxParticipants: 2, policy: { kind: 'Authenticated' } })],
      'Committed',
    );
    const proof = {
      nullifier: fieldText(1n),
      proof: { a: new Uint8Array(64), b: new Uint8Array(128), c: new Uint8Array(64) },
    };
    expectRejected(
      chain,
      ALICE,
      [{ kind: 'JoinConference', call: CALL, private: proof }],
      'conference_privacy_mismatch',
    );
    expectRejected(chain, ALICE, [join(CAROL)], 'conference_not_self');
    expectCode(chain, ALICE, [join()], 'Committed');
    expectRejected(chain, ALICE, [join()], 'conference_already_joined');
    expectCode(chain, CAROL, [join()], 'Committed');
    expectRejected(chain, BOB, [join()], 'conference_roster_full');
    // A registered account of another domain may join too: every authority is a registered account.
    expectCode(chain, ADMIN, [{ kind: 'RegisterDomain', id: 'elsewhere', metadata: new Map() }], 'Committed');
    expectCode(
      chain,
      ADMIN,
      [{ kind: 'RegisterAccount', id: acc(8, 'elsewhere'), metadata: new Map() }],
      'Committed',
    );
    expectCode(chain, ALICE, [leave()], 'Committed');
    expectCode(chain, acc(8, 'elsewhere'), [join()], 'Committed');
  });
});

describe('LeaveConference (transparent)', () => {
  it('lets a participant leave itself and the host remove anyone', () => {
    const chain = conferenceWorld();
    expectCode(chain, BOB, [create(BOB)], 'Committed');
    expectCode(chain, ALICE, [join()], 'Committed');
    expectCode(chain, CAROL, [join()], 'Committed');
    expectRejected(chain, ALICE, [leave(CAROL)], 'conference_not_self');
    expectRejected(chain, BOB, [leave(acc(9))], 'conference_not_participant');
    const events = expectCode(chain, BOB, [leave(CAROL)], 'Committed');
    assert.equal(events[0]!.kind === 'ConferenceRosterSummary' && events[0]!.active, 1);
    expectCode(chain, ALICE, [leave()], 'Committed');
    assert.deepEqual(participants(chain), []);
    expectRejected(chain, ALICE, [leave()], 'conference_not_participant');
    expectCode(chain, BOB, [{ kind: 'EndConference', call: CALL }], 'Committed');
    expectRejected(chain, ALICE, [leave()], 'conference_ended');
  });
});

describe('private calls without verifying keys', () => {
  it('reject with zk_keys_not_configured and change nothing', () => {
    const chain = conferenceWorld();
    const priv = create(BOB, {
      privacy: { kind: 'ZkRosterV1' },
      rosterCommitments: [fieldText(5n)],
    });
    expectRejected(chain, BOB, [priv], 'zk_keys_not_configured');
  });
});
