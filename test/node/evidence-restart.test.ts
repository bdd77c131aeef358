// Consensus evidence survives a node restart;
// a damaged evidence file stops the start with a clear error and releases the ledger.

import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import type { EvidenceEntry } from '../../src/consensus/evidence-store.js';
import { nodeFiles } from '../../src/node/files.js';
import { startTestNode, type TestNode } from '../helpers/node.js';

function invalidProposal(height: number): EvidenceEntry {
  return {
    id: height.toString(16).padStart(64, 'a'),
    kind: 'InvalidProposal',
    finding: 'wrong_leader',
    recordedAtMs: 1000 + height,
    recordedAtHeight: height,
    evidence: {
      kind: 'InvalidProposal',
      height,
      view: 1,
      validatorSetHash: new Uint8Array(32).fill(2),
      proposerIndex: 0,
      blockHash: new Uint8Array(32).fill(height),
      reason: 'wrong_leader',
    },
  };
}

describe('node evidence across restarts', () => {
  let t: TestNode;
  before(async () => {
    t = await startTestNode();
  });
  after(async () => t.cleanup());

  it('reloads stored evidence from data/evidence.log and still refuses duplicates', async () => {
    assert.equal(t.node.evidence.add(invalidProposal(5)), 'accepted');
    assert.equal(t.node.evidence.add(invalidProposal(6)), 'accepted');
    await t.node.evidence.flush();
    const before = t.node.evidence.list({ offset: 0, limit: 10 });
    const node = await t.restart();
    assert.deepEqual(node.evidence.list({ offset: 0, limit: 10 }), before);
    assert.equal(node.evidence.add(invalidProposal(5)), 'duplicate');
  });

  it('refuses to start on a damaged evidence file, then starts once it is moved away', async () => {
    const path = nodeFiles(t.dir).evidence;
    await t.node.stop();
    const bytes = await readFile(path);
    bytes[30] = (bytes[30] ?? 0) ^ 0xff; // inside the first of two records
    await writeFile(path, bytes);
    await assert.rejects(t.restart(), { code: 'storage_corruption', file: path });
    await rm(path);
    const node = await t.restart();
    assert.equal(node.evidence.count(), 0);
    assert.ok(node.ledger.height() >= 1, 'the ledger reopened: the failed start released it');
  });
});
