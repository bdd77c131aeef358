// The BFT batch settings are bounded by what a peer's decoder accepts in one message: a gossip message of
// more than GOSSIP_TXS_MAX transactions, or a sync answer of more than SYNC_BLOCKS_MAX blocks, is refused
// as garbage by every peer (and the connection dropped), so the configuration refuses such batches.

// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../modules/registry.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GOSSIP_TXS_MAX, SYNC_BLOCKS_MAX } from '../consensus/bft/messages.js';
import { loadConfig } from './load.js';

describe('consensus batch settings fit the peer message bounds', () => {
  it('gossip_batch_max accepts GOSSIP_TXS_MAX and refuses one more', () => {
    const at = loadConfig({ overrides: { 'consensus.gossip_batch_max': GOSSIP_TXS_MAX } });
    assert.ok(at.ok && at.config.consensus.gossipBatchMax === GOSSIP_TXS_MAX);
    const over = loadConfig({ overrides: { 'consensus.gossip_batch_max': GOSSIP_TXS_MAX + 1 } });
    assert.ok(!over.ok, 'a batch a peer cannot decode is refused');
    assert.match(JSON.stringify(over.errors), /consensus\.gossip_batch_max/);
  });

  it('sync_batch_blocks accepts SYNC_BLOCKS_MAX and refuses one more', () => {
    const at = loadConfig({ overrides: { 'consensus.sync_batch_blocks': SYNC_BLOCKS_MAX } });
    assert.ok(at.ok && at.config.consensus.syncBatchBlocks === SYNC_BLOCKS_MAX);
    const over = loadConfig({ overrides: { 'consensus.sync_batch_blocks': SYNC_BLOCKS_MAX + 1 } });
    assert.ok(!over.ok, 'a batch a peer cannot decode is refused');
    assert.match(JSON.stringify(over.errors), /consensus\.sync_batch_blocks/);
  });
});
