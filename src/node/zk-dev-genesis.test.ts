import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Json } from '../codec/codec.js';
import { devVerifyingKeys, usesDevelopmentKeys } from './zk-dev-genesis.js';

describe('usesDevelopmentKeys', () => {
  const dev = devVerifyingKeys();
  it('is true when any configured verifying key is a development key', () => {
    assert.equal(usesDevelopmentKeys(new Map(Object.entries(dev) as [string, Json][])), true);
    assert.equal(usesDevelopmentKeys(new Map([['shielded_note_vk', dev.shielded_note_vk]])), true);
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
