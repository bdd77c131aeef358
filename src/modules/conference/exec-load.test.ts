// Loading persisted conference rows (tables.ts load checks): a consistent call and relay load back; an
// inconsistent one is refused with state_invalid_entry.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ALICE,
  BOB,
  CALL,
  conferenceWorld,
  create,
  join,
} from '../../../test/fixtures/state/conference-fixture.js';
import { expectCode } from '../../../test/fixtures/state/state-fixture.js';
import { encode } from '../../codec/frame.js';
import { isStateError } from '../../state/errors.js';
import { stateKey, TABLE_TAGS } from '../../state/keys.js';
import { WorldState } from '../../state/world-state.js';
import { toHex } from '../../util/hex.js';
import { type ConferenceCall, ConferenceCallCodec, ConferenceRelayCodec } from './model.js';
import { getCall, getRelay } from './rows.js';

function withCall(entries: { key: Uint8Array; value: Uint8Array }[], call: ConferenceCall) {
  const key = stateKey(TABLE_TAGS.conferenceCall, call.id);
  return entries.map((e) =>
    toHex(e.key) === toHex(key) ? { key, value: encode(ConferenceCallCodec, call) } : e,
  );
}

describe('conference rows on load', () => {
  it('refuses inconsistent call rows and all-zero relay keys', () => {
    const chain = conferenceWorld();
    expectCode(chain, BOB, [create(BOB, { maxParticipants: 2 })], 'Committed');
    expectCode(chain, ALICE, [join()], 'Committed');
    expectCode(chain, BOB, [join()], 'Committed');
    const entries = [...chain.state.entries()];
    const call = getCall(chain.state, CALL)!;
    assert.equal(getCall(WorldState.fromEntries(entries), CALL)?.id, CALL);
    const participants = call.roster.kind === 'Transparent' ? call.roster.participants : [];
    const relayKey = stateKey(TABLE_TAGS.conferenceRelay, 'r1');
    const zeroKey = encode(ConferenceRelayCodec, {
      ...getRelay(chain.state, 'r1')!,
      publicKey: new Uint8Array(32),
    });
    const cases: [{ key: Uint8Array; value: Uint8Array }[], RegExp][] = [
      [withCall(entries, { ...call, maxParticipants: 0 }), /maxParticipants/],
      [withCall(entries, { ...call, maxParticipants: 1 }), /larger than maxParticipants/],
      [withCall(entries, { ...call, privacy: { kind: 'ZkRosterV1' } }), /roster differs/],
      [
        withCall(entries, {
          ...call,
          roster: { kind: 'Transparent', participants: [...participants].reverse() },
        }),
        /not strictly sorted/,
      ],
      [withCall(entries, { ...call, status: { kind: 'Ended' } }), /end record/],
      [withCall(entries, { ...call, endedAtMs: 5n }), /end record/],
      [
        entries.map((e) => (Buffer.compare(e.key, relayKey) === 0 ? { key: relayKey, value: zeroKey } : e)),
        /all-zero/,
      ],
    ];
    for (const [bad, why] of cases) {
      assert.throws(
        () => WorldState.fromEntries(bad),
        (e) => isStateError(e) && e.code === 'state_invalid_entry' && why.test(e.message),
      );
    }
  });
});
