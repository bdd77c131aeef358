import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ALICE,
  BOB,
  CALL,
  CAROL,
  conferenceWorld,
  create,
  expectRejected,
  join,
  manifest,
  relayKey,
} from '../../../test/fixtures/state/conference-fixture.js';
import { acc, amount, expectCode, perm } from '../../../test/fixtures/state/state-fixture.js';
import { fieldText } from './model.js';
import { callsInDomain, getCall, listCalls } from './rows.js';

describe('CreateConference', () => {
  it('records the call with the host, block height and block time, and announces it', () => {
    const chain = conferenceWorld();
    const events = expectCode(chain, BOB, [create(BOB)], 'Committed');
    const call = getCall(chain.state, CALL)!;
    assert.equal(call.host, BOB);
    assert.equal(call.createdHeight, chain.height);
    assert.equal(call.createdAtMs, BigInt(1000 * chain.height));
    assert.deepEqual(call.status, { kind: 'Active' });
    assert.deepEqual(call.roster, { kind: 'Transparent', participants: [] });
    assert.deepEqual(call.usage, { durationMs: 0n, billedGas: { mantissa: 0n, scale: 0 }, segments: 0 });
    assert.deepEqual(
      events.map((e) => e.kind),
      ['ConferenceRosterSummary', 'ConferenceRelayManifestUpdated'],
    );
    assert.deepEqual(events[0], {
      kind: 'ConferenceRosterSummary',
      call: CALL,
      change: { kind: 'Created' },
      privacy: { kind: 'Transparent' },
      active: 0,
      maxParticipants: 3,
    });
    assert.deepEqual(
      callsInDomain(chain.state, 'wonderland').map((c) => c.id),
      [CALL],
    );
    assert.deepEqual(listCalls(chain.state).length, 1);
  });

  it('lets the host bill another account only with its CanTransferFrom grant', () => {
    const chain = conferenceWorld();
    expectRejected(chain, ALICE, [create(BOB)], 'conference_billing_not_allowed');
    const grant = perm('CanTransferFrom', { account: BOB });
    expectCode(chain, BOB, [{ kind: 'GrantPermission', account: ALICE, permission: grant }], 'Committed');
    expectCode(chain, ALICE, [create(BOB)], 'Committed');
    assert.equal(getCall(chain.state, CALL)!.host, ALICE);
  });

  it('rejects in order, each time without any effect', () => {
    const chain = conferenceWorld();
    const t = BigInt(1000 * (chain.height + 1));
    const hops = manifest().hops;
    const cases: [Parameters<typeof create>[1], string][] = [
      [{ call: 'nowhere:standup' }, 'domain_not_found'],
      [{ billingAccount: acc(77) }, 'account_not_found'],
      [{ billingAccount: ALICE }, 'conference_billing_not_allowed'],
      [{ rosterCommitments: [fieldText(1n)] }, 'conference_privacy_mismatch'],
      [{ privacy: { kind: 'ZkRosterV1' } }, 'conference_privacy_mismatch'],
      [{ maxParticipants: 0 }, 'conference_invalid_call'],
      [{ maxParticipants: 10_001 }, 'conference_invalid_call'],
      [{ scheduledStartMs: 5n, scheduledEndMs: 5n }, 'conference_invalid_call'],
      [{ scheduledEndMs: t }, 'conference_invalid_call'],
      [{ metadata: new Map([['x', 'y'.repeat(17_000)]]) }, 'execution_limit'],
      [{ manifest: { hops: hops.slice(0, 2), expiresAtMs: 10_000_000n } }, 'conference_manifest_invalid'],
      [{ manifest: { hops: [...hops, hops[0]!], expiresAtMs: 10_000_000n } }, 'conference_manifest_invalid'],
      [
        { manifest: { hops: [{ ...hops[0]!, weight: 0 }, ...hops.slice(1)], expiresAtMs: 10_000_000n } },
        'conference_manifest_invalid',
      ],
      [{ manifest: manifest(t) }, 'conference_manifest_expired'],
      [{ manifest: manifest(undefined, ['r1', 'r2', 'r9']) }, 'conference_relay_not_found'],
      [
        {
          manifest: {
            hops: [{ ...hops[0]!, publicKey: relayKey(5) }, ...hops.slice(1)],
            expiresAtMs: 10_000_000n,
          },
        },
        'conference_relay_key_mismatch',
      ],
    ];
    for (const [over, code] of cases) expectRejected(chain, BOB, [create(BOB, over)], code);
    expectCode(chain, BOB, [create(BOB)], 'Committed');
    expectRejected(chain, BOB, [create(BOB)], 'already_exists');
  });

  it('needs a native asset only for a non-zero rate', () => {
    const chain = conferenceWorld();
    const unset = {
      kind: 'SetParameter',
      parameter: { kind: 'Custom', id: 'native_asset', payload: 'x#y' },
    } as const;
    expectCode(chain, acc(1), [unset], 'Committed');
    expectRejected(chain, BOB, [create(BOB)], 'conference_native_asset_not_configured');
    expectCode(chain, BOB, [create(BOB, { gasRatePerMinute: amount('0') })], 'Committed');
  });

  it('refuses relays that last reported themselves unavailable', () => {
    const chain = conferenceWorld();
    const down = {
      kind: 'ReportConferenceRelayHealth',
      relay: 'r2',
      available: false,
      latencyMs: 0,
      lossPermille: 0,
    } as const;
    expectCode(chain, CAROL, [down], 'Committed');
    expectRejected(chain, BOB, [create(BOB)], 'conference_relay_unavailable');
    expectCode(chain, BOB, [create(BOB, { manifest: undefined })], 'Committed');
  });

  it('rolls back the whole transaction when a later instruction fails', () => {
    const chain = conferenceWorld();
    expectRejected(chain, BOB, [create(BOB), join(ALICE)], 'conference_not_self');
  });
});

describe('EndConference', () => {
  it('ends an Active call for the host only; an Ended call takes no further instruction', () => {
    const chain = conferenceWorld();
    expectCode(chain, BOB, [create(BOB)], 'Committed');
    expectRejected(chain, ALICE, [{ kind: 'EndConference', call: CALL }], 'conference_not_host');
    expectRejected(chain, BOB, [{ kind: 'EndConference', call: 'wonderland:nope' }], 'conference_not_found');
    const events = expectCode(chain, BOB, [{ kind: 'EndConference', call: CALL }], 'Committed');
    const endedAtMs = BigInt(1000 * chain.height);
    assert.deepEqual(events, [{ kind: 'ConferenceEnded', call: CALL, endedAtMs }]);
    const call = getCall(chain.state, CALL)!;
    assert.deepEqual(
      [call.status.kind, call.endedHeight, call.endedAtMs],
      ['Ended', chain.height, endedAtMs],
    );
    expectRejected(chain, BOB, [{ kind: 'EndConference', call: CALL }], 'conference_ended');
    expectRejected(chain, ALICE, [join()], 'conference_ended');
    expectRejected(
      chain,
      BOB,
      [{ kind: 'SetConferenceRelayManifest', call: CALL, manifest: manifest() }],
      'conference_ended',
    );
  });
});

describe('SetConferenceRelayManifest', () => {
  it('replaces the manifest for the host after checking it', () => {
    const chain = conferenceWorld();
    expectCode(chain, BOB, [create(BOB, { manifest: undefined })], 'Committed');
    const set = (m = manifest(20_000_000n)) =>
      ({ kind: 'SetConferenceRelayManifest', call: CALL, manifest: m }) as const;
    expectRejected(chain, ALICE, [set()], 'conference_not_host');
    expectRejected(chain, BOB, [set(manifest(1n))], 'conference_manifest_expired');
    const events = expectCode(chain, BOB, [set()], 'Committed');
    assert.deepEqual(events, [
      {
        kind: 'ConferenceRelayManifestUpdated',
        call: CALL,
        relays: ['r1', 'r2', 'r3'],
        expiresAtMs: 20_000_000n,
      },
    ]);
    assert.equal(getCall(chain.state, CALL)!.manifest!.expiresAtMs, 20_000_000n);
  });
});
