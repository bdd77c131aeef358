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
  ROSE,
  usage,
} from '../../../test/fixtures/state/conference-fixture.js';
import { amount, asset, expectCode, perm } from '../../../test/fixtures/state/state-fixture.js';
import { WorldState } from '../../state/world-state.js';
import { toHex } from '../../util/hex.js';
import { callsInDomain, getCall, listRelays } from './rows.js';

type World = ReturnType<typeof conferenceWorld>;
/** A block time long after the calls are created (1,000 ms per height before it). */
const LATER = 10_000_000;
const balance = (chain: World, account: string) => chain.state.asset(asset(ROSE, account))?.value;

describe('RecordConferenceUsage: billing', () => {
  it('bills ceil(durationMs × rate / 60000) at the native scale, billing account → native asset owner', () => {
    const chain = conferenceWorld();
    expectCode(chain, BOB, [create(BOB)], 'Committed'); // 6 per minute, ROSE has scale 2
    chain.timeMs = LATER; // usage is bounded by the time the call has existed
    const events = expectCode(chain, CAROL, [usage(1, 60_000n, '6')], 'Committed');
    assert.deepEqual(balance(chain, BOB), { mantissa: 9400n, scale: 2 });
    assert.deepEqual(balance(chain, ADMIN), { mantissa: 600n, scale: 2 });
    assert.deepEqual(events.at(-1), {
      kind: 'ConferenceUsageSummary',
      call: CALL,
      segment: 1,
      durationMs: 60_000n,
      billedGas: { mantissa: 600n, scale: 2 },
      totalDurationMs: 60_000n,
      totalBilledGas: { mantissa: 600n, scale: 2 },
      payer: BOB,
      payee: ADMIN,
    });
    // 1001 ms × 6 / 60000 = 0.1001 → rounded up to 0.11; any spelling of that value is accepted.
    expectRejected(chain, BOB, [usage(2, 1001n, '0.10')], 'conference_billing_mismatch');
    expectRejected(chain, BOB, [usage(2, 1001n, '0.111')], 'conference_billing_mismatch');
    expectCode(chain, BOB, [usage(2, 1001n, '0.110')], 'Committed');
    assert.deepEqual(balance(chain, BOB), { mantissa: 9389n, scale: 2 });
    assert.deepEqual(balance(chain, ADMIN), { mantissa: 611n, scale: 2 });
    const u = getCall(chain.state, CALL)!.usage;
    assert.deepEqual(u, {
      durationMs: 61_001n,
      billedGas: { mantissa: 611n, scale: 2 },
      segments: 2,
      lastSegment: 2,
    });
  });

  it('refuses a bill above the balance with insufficient_funds, changing nothing', () => {
    const chain = conferenceWorld();
    expectCode(chain, BOB, [create(BOB)], 'Committed');
    chain.timeMs = LATER; // usage is bounded by the time the call has existed
    expectRejected(chain, BOB, [usage(1, 6_000_000n, '600')], 'insufficient_funds');
    assert.deepEqual(balance(chain, BOB), { mantissa: 10_000n, scale: 2 });
  });

  it('moves nothing at a zero rate', () => {
    const chain = conferenceWorld();
    expectCode(chain, BOB, [create(BOB, { gasRatePerMinute: amount('0') })], 'Committed');
    chain.timeMs = LATER; // usage is bounded by the time the call has existed
    expectRejected(chain, BOB, [usage(1, 60_000n, '1')], 'conference_billing_mismatch');
    const events = expectCode(chain, BOB, [usage(1, 60_000n, '0')], 'Committed');
    assert.equal(events.length, 1);
    assert.equal(balance(chain, ADMIN), undefined);
  });

  it('checks the billing grant again when billing', () => {
    const chain = conferenceWorld();
    const grant = perm('CanTransferFrom', { account: BOB });
    expectCode(chain, BOB, [{ kind: 'GrantPermission', account: ALICE, permission: grant }], 'Committed');
    expectCode(chain, ALICE, [create(BOB)], 'Committed');
    chain.timeMs = LATER; // usage is bounded by the time the call has existed
    expectCode(chain, ALICE, [usage(1, 10_000n, '1')], 'Committed');
    expectCode(chain, BOB, [{ kind: 'RevokePermission', account: ALICE, permission: grant }], 'Committed');
    expectRejected(chain, ALICE, [usage(2, 10_000n, '1')], 'conference_billing_not_allowed');
  });
});

describe('RecordConferenceUsage: running total and elapsed bound', () => {
  it('rounds the running total up, not each segment: 120 segments of 1 ms bill what one of 120 ms does', () => {
    // 6 per minute, ROSE scale 2: 1 ms is 0.0001, so rounding each segment up would bill 0.01 × 120.
    const split = conferenceWorld();
    expectCode(split, BOB, [create(BOB)], 'Committed');
    split.timeMs = LATER;
    const cents = (ms: number) => Math.ceil(ms / 100);
    const segments = Array.from({ length: 120 }, (_, i) =>
      usage(i + 1, 1n, ((cents(i + 1) - cents(i)) / 100).toFixed(2)),
    );
    expectCode(split, CAROL, segments, 'Committed');
    const one = conferenceWorld();
    expectCode(one, BOB, [create(BOB)], 'Committed');
    one.timeMs = LATER;
    expectCode(one, CAROL, [usage(1, 120n, '0.02')], 'Committed');
    const billed = (chain: World) => 10_000n - balance(chain, BOB)!.mantissa;
    console.log(`[figure] 120 × 1 ms billed ${billed(split)} cents; one 120 ms segment ${billed(one)}`);
    assert.equal(billed(split), 2n);
    assert.equal(billed(one), 2n);
    assert.deepEqual(getCall(split.state, CALL)!.usage.billedGas, { mantissa: 2n, scale: 2 });
    // A segment billed on its own rounding is a mismatch now: 1 ms after 120 ms is still inside 0.02.
    expectRejected(split, CAROL, [usage(200, 1n, '0.01')], 'conference_billing_mismatch');
    expectCode(split, CAROL, [usage(200, 1n, '0')], 'Committed');
  });

  it('bounds the recorded duration by block time since creation × maxParticipants', () => {
    const chain = conferenceWorld();
    chain.timeMs = 50_000;
    expectCode(chain, BOB, [create(BOB)], 'Committed'); // maxParticipants 3
    expectCode(chain, ALICE, [join()], 'Committed');
    // Same block time as the creation: nothing can have been used yet.
    expectRejected(chain, BOB, [usage(1, 1n, '0.01')], 'conference_usage_exceeds_elapsed');
    chain.timeMs = 60_000; // 10 s later: at most 30 s for the call, 10 s per named participant
    expectRejected(chain, BOB, [usage(1, 3_600_000n, '360')], 'conference_usage_exceeds_elapsed');
    expectRejected(
      chain,
      BOB,
      [{ ...usage(1, 10_001n, '1.01'), participant: ALICE } as never],
      'conference_usage_exceeds_elapsed',
    );
    expectCode(chain, BOB, [{ ...usage(1, 10_000n, '1'), participant: ALICE } as never], 'Committed');
    expectCode(chain, BOB, [usage(2, 20_000n, '2')], 'Committed');
    expectRejected(chain, BOB, [usage(3, 1n, '0.01')], 'conference_usage_exceeds_elapsed');
    assert.equal(getCall(chain.state, CALL)!.usage.durationMs, 30_000n);
    assert.deepEqual(balance(chain, BOB), { mantissa: 9700n, scale: 2 });
    chain.timeMs = 61_000;
    expectCode(chain, BOB, [usage(3, 3_000n, '0.30')], 'Committed');
  });
});

describe('RecordConferenceUsage: rules', () => {
  it('rejects in order, each time without any effect', () => {
    const chain = conferenceWorld();
    expectRejected(chain, BOB, [usage(1, 1n, '0.01')], 'conference_not_found');
    expectCode(chain, BOB, [create(BOB)], 'Committed');
    chain.timeMs = LATER; // usage is bounded by the time the call has existed
    expectCode(chain, ALICE, [join()], 'Committed');
    expectRejected(chain, ALICE, [usage(1, 1n, '0.01')], 'conference_usage_not_allowed');
    const proof = {
      nullifier: '00'.repeat(32),
      proof: { a: new Uint8Array(64), b: new Uint8Array(128), c: new Uint8Array(64) },
    };
    expectRejected(
      chain,
      BOB,
      [{ ...usage(1, 1n, '0.01'), private: proof } as never],
      'conference_privacy_mismatch',
    );
    expectRejected(
      chain,
      BOB,
      [{ ...usage(1, 1n, '0.01'), participant: CAROL } as never],
      'conference_not_participant',
    );
    expectCode(chain, BOB, [{ ...usage(5, 1n, '0.01'), participant: ALICE } as never], 'Committed');
    expectRejected(chain, CAROL, [usage(5, 1n, '0.01')], 'conference_segment_not_increasing');
    expectRejected(chain, CAROL, [usage(4, 1n, '0.01')], 'conference_segment_not_increasing');
    expectCode(
      chain,
      ADMIN,
      [{ kind: 'SetParameter', parameter: { kind: 'Custom', id: 'native_asset', payload: 7 } }],
      'Committed',
    );
    expectRejected(chain, CAROL, [usage(6, 1n, '0.01')], 'conference_native_asset_not_configured');
    expectCode(chain, BOB, [{ kind: 'EndConference', call: CALL }], 'Committed');
    expectRejected(chain, BOB, [usage(7, 1n, '0.01')], 'conference_ended');
  });
});

describe('conference state persistence', () => {
  it('replaying the same blocks from scratch gives the same root', () => {
    const roots = [0, 1].map(() => {
      const chain = conferenceWorld();
      expectCode(chain, BOB, [create(BOB)], 'Committed');
      chain.timeMs = LATER; // usage is bounded by the time the call has existed
      expectCode(chain, ALICE, [join()], 'Committed');
      expectCode(chain, CAROL, [usage(1, 30_000n, '3')], 'Committed');
      expectCode(chain, CAROL, [usage(2, 1n, '1')], 'conference_billing_mismatch');
      expectCode(chain, BOB, [{ kind: 'EndConference', call: CALL }], 'Committed');
      return toHex(chain.state.stateRoot());
    });
    assert.equal(roots[0], roots[1]);
  });

  it('reloads from entries() with the same root and rows', () => {
    const chain = conferenceWorld();
    expectCode(chain, BOB, [create(BOB)], 'Committed');
    chain.timeMs = LATER; // usage is bounded by the time the call has existed
    expectCode(chain, ALICE, [join()], 'Committed');
    expectCode(chain, CAROL, [usage(1, 30_000n, '3')], 'Committed');
    const copy = WorldState.fromEntries(chain.state.entries());
    assert.equal(toHex(copy.stateRoot()), toHex(chain.state.stateRoot()));
    assert.deepEqual(getCall(copy, CALL), getCall(chain.state, CALL));
    assert.deepEqual(listRelays(copy), listRelays(chain.state));
    assert.deepEqual(callsInDomain(copy, 'wonderland').length, 1);
  });
});
