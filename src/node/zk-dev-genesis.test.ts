import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Json } from '../codec/codec.js';
// The node and the CLI load the registry before building a genesis; its import declares the parameters.
import '../modules/registry.js';
import {
  devKeysFeature,
  devVerifyingKeys,
  usesDevelopmentKeys,
  zkParameterInstructions,
} from './zk-dev-genesis.js';

describe('usesDevelopmentKeys', () => {
  const dev = devVerifyingKeys();
  it('is true when any configured verifying key is a development key', () => {
    assert.equal(usesDevelopmentKeys(new Map(Object.entries(dev) as [string, Json][])), true);
    assert.equal(usesDevelopmentKeys(new Map([['shielded_note_vk', dev.shielded_note_vk as Json]])), true);
  });
  it('matches whatever the key order (the ledger keeps Json parameters with sorted keys)', () => {
    const vk = dev.conference_usage_vk as Record<string, Json>;
    const reordered = Object.fromEntries(Object.entries(vk).reverse()) as Json;
    assert.equal(usesDevelopmentKeys(new Map([['conference_usage_vk', reordered]])), true);
  });
  it('is false for other keys and for no keys', () => {
    const other = { ...(dev.conference_roster_vk as Record<string, Json>), vk_alpha_1: ['1', '2', '1'] };
    assert.equal(usesDevelopmentKeys(new Map([['conference_roster_vk', other]])), false);
    assert.equal(usesDevelopmentKeys(new Map()), false);
    assert.equal(usesDevelopmentKeys(new Map([['native_asset', 'rose#system']])), false);
  });
});

describe('the dev genesis parameters come from the installed modules’ declarations', () => {
  it('sets the same parameters, in the same order, as every dev genesis so far (its hash depends on it)', () => {
    const ids = zkParameterInstructions('pool@system', '1', 'admin@system').map((i) =>
      i.kind === 'SetParameter' && i.parameter.kind === 'Custom' ? i.parameter.id : i.kind,
    );
    assert.deepEqual(ids, [
      'conference_roster_vk',
      'conference_usage_vk',
      'shielded_note_vk',
      'shielded_pool_account',
      'conference_entry_fee',
      'conference_fee_account',
    ]);
    assert.deepEqual(Object.keys(devVerifyingKeys()), ids.slice(0, 3));
    assert.equal(devKeysFeature(), 'conference.dev_keys');
  });
});
