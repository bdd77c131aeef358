// The conference model: call ids, field elements, and the JSON/binary round trip of the new
// instructions and events (the generic codec laws cover them too, through codec-laws.test.ts).

// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../registry.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Codec, Json } from '../../codec/codec.js';
import { decode, encode } from '../../codec/frame.js';
import { DEFAULT_DECODE_LIMITS } from '../../codec/limits.js';
import { DataEventCodec } from '../../model/events.js';
import { InstructionCodec } from '../../model/instructions.js';
import { BN254_R, CallId, Field, fieldText, parseCallId } from './model.js';

const KEY = `ed0120${'AB'.repeat(32)}`;
const hex = (byte: string, n: number) => byte.repeat(n);

function roundTrip<T>(codec: Codec<T>, json: Json): void {
  const value = codec.fromJson(json, '');
  const bytes = encode(codec, value);
  const back = decode(codec, bytes, DEFAULT_DECODE_LIMITS);
  assert.ok(back.ok);
  assert.deepEqual(codec.toJson(back.value), json);
}

describe('CallId', () => {
  it('splits at the last colon; the call name may not hold one', () => {
    assert.deepEqual(parseCallId('a:b:standup'), { domain: 'a:b', name: 'standup' });
    assert.equal(parseCallId('standup'), undefined);
    assert.equal(parseCallId(':standup'), undefined);
    assert.equal(parseCallId('wonderland:'), undefined);
    assert.equal(CallId.fromJson('wonderland:standup', ''), 'wonderland:standup');
    assert.throws(() => CallId.fromJson('wonder land:standup', ''), /CallId/);
  });
});

describe('Field', () => {
  it('accepts values below r and prints lower-case hex', () => {
    assert.equal(Field.fromJson('AB'.repeat(32).replace(/^AB/, '0a'), ''), `0a${'ab'.repeat(31)}`);
    assert.equal(fieldText(BN254_R - 1n).length, 64);
    Field.fromJson(fieldText(BN254_R - 1n), '');
  });
  it('rejects r itself, wrong lengths and 0x prefixes', () => {
    assert.throws(() => Field.fromJson(BN254_R.toString(16).padStart(64, '0'), ''), /modulus/);
    assert.throws(() => Field.fromJson('00', ''));
    assert.throws(() => Field.fromJson(`0x${'0'.repeat(62)}`, ''));
  });
});

describe('conference instructions and events', () => {
  const manifest = {
    hops: ['r1', 'r2', 'r3'].map((relay) => ({ relay, public_key: hex('11', 32), weight: 10 })),
    expires_at_ms: '1700000000000',
  };
  it('round-trip their JSON forms', () => {
    const create = {
      kind: 'CreateConference',
      call: 'wonderland:standup',
      policy: { kind: 'Public' },
      privacy: { kind: 'Transparent' },
      title: 'Standup',
      description: '',
      scheduled_start_ms: '1',
      max_participants: 10,
      gas_rate_per_minute: '2.5',
      billing_account: `${KEY}@wonderland`,
      metadata: {},
      manifest,
      roster_commitments: [],
    };
    roundTrip(InstructionCodec, create);
    const proof = { a: hex('01', 64), b: hex('02', 128), c: hex('03', 64) };
    roundTrip(InstructionCodec, {
      kind: 'JoinConference',
      call: 'wonderland:standup',
      answer: 'beef',
      private: { nullifier: fieldText(7n), proof },
    });
    roundTrip(InstructionCodec, { kind: 'ShieldAsset', amount: '5', owner_hash: fieldText(9n) });
    roundTrip(DataEventCodec, {
      kind: 'ConferenceRelayManifestUpdated',
      call: 'wonderland:standup',
      relays: ['r1'],
      expires_at_ms: '5',
    });
  });
});
