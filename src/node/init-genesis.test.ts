// The dev genesis of `torana init` (and testnets) sets up conference billing: the native asset, its
// supply with the admin, and the `native_asset` parameter, so a call can bill usage on a fresh chain.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Chain, expectCode, key, registerPeer, tx } from '../../test/fixtures/state/state-fixture.js';
import { loadConfig } from '../config/load.js';
import type { Instruction } from '../model/instructions.js';
import { numeric } from '../model/numeric.js';
import { devGenesisInstructions, GENESIS_DOMAIN, NATIVE_ASSET } from './init.js';

describe('dev genesis', () => {
  it('defines the native asset so conference usage bills out of the box', () => {
    const loaded = loadConfig({});
    assert.ok(loaded.ok);
    const admin = `${key(1)}@${GENESIS_DOMAIN}`;
    const { peer, blsKey, pop } = registerPeer(1);
    const chain = new Chain();
    const genesis = devGenesisInstructions(admin, { peer, blsKey, pop }, '127.0.0.1:1', loaded.config);
    const out = chain.block([tx(admin, genesis)]);
    assert.equal(out.results[0]!.kind, 'Committed', JSON.stringify(out.results[0]));
    assert.equal(chain.state.parameters().custom.get('native_asset'), NATIVE_ASSET);
    assert.deepEqual(chain.state.asset(`${NATIVE_ASSET}#${admin}`)?.value, numeric('1000000.000000'));

    const host = `${key(2)}@${GENESIS_DOMAIN}`;
    const call = `${GENESIS_DOMAIN}:demo`;
    expectCode(
      chain,
      admin,
      [
        { kind: 'RegisterAccount', id: host, metadata: new Map() },
        {
          kind: 'TransferAsset',
          source: `${NATIVE_ASSET}#${admin}`,
          destination: host,
          amount: numeric('10'),
        },
      ],
      'Committed',
    );
    expectCode(
      chain,
      host,
      [
        {
          kind: 'CreateConference',
          call,
          policy: { kind: 'Public' },
          privacy: { kind: 'Transparent' },
          title: 'demo',
          description: '',
          scheduledStartMs: 0n,
          maxParticipants: 2,
          gasRatePerMinute: numeric('1'),
          billingAccount: host,
          metadata: new Map(),
          rosterCommitments: [],
        },
      ],
      'Committed',
    );
    // Usage is bounded by the time the call has existed: record it 45 s of block time later (× 2).
    chain.timeMs = (chain.timeMs ?? 1_000 * chain.height) + 45_000;
    const record: Instruction = {
      kind: 'RecordConferenceUsage',
      call,
      segment: 0,
      durationMs: 90_000n,
      billedGas: numeric('1.5'),
    };
    expectCode(chain, host, [record], 'Committed');
    assert.deepEqual(chain.state.asset(`${NATIVE_ASSET}#${host}`)?.value, numeric('8.500000'));
  });
});
