import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decode, encode } from '../../codec/frame.js';
import { DEFAULT_DECODE_LIMITS } from '../../codec/limits.js';
import { InstructionCodec } from '../../model/instructions.js';
import { instructions as ix } from '../../sdk/instructions.js';

const HOST = `ed0120${'A'.repeat(64)}@studio`;
const KEY = 'ab'.repeat(32);
const manifest = {
  hops: ['r1', 'r2', 'r3'].map((relay) => ({ relay, publicKey: KEY, weight: 10 })),
  expiresAtMs: 1_800_000_000_000,
};
const proof = { a: new Uint8Array(64), b: new Uint8Array(128), c: new Uint8Array(64) };
const field = (n: number) => n.toString(16).padStart(64, '0');

describe('conference instruction builders', () => {
  it('build every conference instruction, each surviving the codec', () => {
    const built = [
      ix.createConference('studio:standup', {
        title: 'Standup',
        scheduledStartMs: 1_700_000_000_000,
        maxParticipants: 8,
        gasRatePerMinute: '2.5',
        billingAccount: HOST,
        manifest,
      }),
      ix.createConference('studio:board', {
        privacy: 'zk-roster-v1',
        policy: 'public',
        title: 'Board',
        scheduledStartMs: 1n,
        scheduledEndMs: 2n,
        maxParticipants: 4,
        gasRatePerMinute: 1n,
        billingAccount: HOST,
        rosterCommitments: [field(1), field(2)],
        fee: { root: field(3), nullifier: field(4), changeCommitment: field(5), proof },
      }),
      ix.joinConference('studio:standup', { participant: HOST, answer: 'c0ffee' }),
      ix.joinConference('studio:board', { private: { nullifier: field(6), proof } }),
      ix.leaveConference('studio:standup', { participant: HOST }),
      ix.recordConferenceUsage('studio:standup', { segment: 1, durationMs: 60_000, billedGas: '2.5' }),
      ix.endConference('studio:standup'),
      ix.setConferenceRelayManifest('studio:standup', manifest),
      ix.registerConferenceRelay('r1', KEY, 'wss://r1.example', 'eu'),
      ix.reportConferenceRelayHealth('r1', { available: true, latencyMs: 20, lossPermille: 1 }),
      ix.shieldAsset('10', field(7)),
    ];
    for (const i of built) {
      const back = decode(InstructionCodec, encode(InstructionCodec, i), DEFAULT_DECODE_LIMITS);
      assert.ok(back.ok, i.kind);
      assert.deepEqual(InstructionCodec.toJson(back.value), InstructionCodec.toJson(i), i.kind);
    }
    const create = InstructionCodec.toJson(built[0]!) as Record<string, unknown>;
    assert.deepEqual([create.policy, create.privacy], [{ kind: 'Authenticated' }, { kind: 'Transparent' }]);
    assert.equal(create.scheduled_start_ms, '1700000000000');
    assert.deepEqual(create.roster_commitments, []);
    const join = built[2]!;
    assert.ok(join.kind === 'JoinConference' && join.answer?.length === 3);
  });

  it('refuse malformed keys and times before encoding', () => {
    assert.throws(() => ix.registerConferenceRelay('r1', 'abc', 'wss://x', 'eu'), /relay public key/);
    assert.throws(
      () => ix.recordConferenceUsage('s:c', { segment: 1, durationMs: -1, billedGas: '1' }),
      /never negative/,
    );
    assert.throws(
      () => ix.setConferenceRelayManifest('s:c', { ...manifest, expiresAtMs: 1.5 }),
      /not an integer/,
    );
  });
});
