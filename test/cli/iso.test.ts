// `torana iso20022 submit | status | report | verify-audit` against a node with the bridge enabled.

import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { kindFromXml } from '../../src/cli/iso-commands.js';
import { saveKeyFile } from '../../src/crypto/keyfile.js';
import { cli } from '../helpers/run-cli.js';
import { type BridgeNode, EUR, startBridgeNode } from '../iso20022/bridge-fixture.js';
import { pacs008Sample } from '../iso20022/messages.js';

describe('torana iso20022', () => {
  let b: BridgeNode;
  let common: string[];
  before(async () => {
    b = await startBridgeNode();
    // Bridge requests are signed by a participant (docs/iso20022.md "Participants"): the fixture bank.
    const keyFile = join(b.dir, 'bank.key.json');
    await saveKeyFile(keyFile, b.bank.key);
    common = ['--dir', b.dir, '--url', b.url, '--account', b.bank.id, '--key-file', keyFile];
  });
  after(async () => b.stopAll());

  it('detects the message type from the Document namespace', () => {
    assert.equal(kindFromXml('<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pacs.008.001.09">'), 'pacs008');
    assert.equal(kindFromXml('<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08">'), undefined);
  });

  it('submits a pacs.008 file, reads its record and its pacs.002, and verifies the audit manifest', async () => {
    const file = join(b.dir, 'payment.xml');
    await writeFile(
      file,
      pacs008Sample('CLI-MSG-0001', { source: b.alice.id, target: b.bob.id, asset: EUR }),
    );
    const submitted = await cli(['iso20022', 'submit', file, ...common, '--json']);
    assert.equal(submitted.code, 0, submitted.err);
    assert.equal(JSON.parse(submitted.out).message_id, 'CLI-MSG-0001');
    let record: { pacs002_code?: string } = {};
    const deadline = Date.now() + 15_000;
    while (record.pacs002_code !== 'ACSC' && Date.now() < deadline) {
      const s = await cli(['iso20022', 'status', 'CLI-MSG-0001', ...common, '--json']);
      assert.equal(s.code, 0, s.err);
      record = JSON.parse(s.out);
      if (record.pacs002_code !== 'ACSC') await new Promise((r) => setTimeout(r, 200));
    }
    assert.equal(record.pacs002_code, 'ACSC');
    const report = await cli(['iso20022', 'report', 'CLI-MSG-0001', '--as', 'pacs002', ...common]);
    assert.equal(report.code, 0, report.err);
    assert.match(report.out, /<TxSts>ACSC<\/TxSts>/);
    // Anchoring follows the block with bridge activity; give it a moment, then verify.
    let verified: { ok: boolean; entries_checked: number; anchors_verified: number; problems: unknown[] } = {
      ok: false,
      entries_checked: 0,
      anchors_verified: 0,
      problems: [],
    };
    const until = Date.now() + 15_000;
    while (Date.now() < until) {
      const v = await cli(['iso20022', 'verify-audit', ...common, '--json']);
      verified = JSON.parse(v.out);
      if (verified.ok && verified.entries_checked >= 3 && verified.anchors_verified >= 1) break;
      await new Promise((r) => setTimeout(r, 300));
    }
    assert.equal(verified.ok, true, JSON.stringify(verified.problems));
    assert.ok(verified.entries_checked >= 3);
    assert.ok(
      verified.anchors_verified >= 1,
      'at least one anchor was read back from the ledger and matched',
    );
  });

  it('reports a duplicate message id with the bridge code and a usage error for unknown types', async () => {
    const file = join(b.dir, 'dup.xml');
    await writeFile(
      file,
      pacs008Sample('CLI-MSG-0001', { source: b.alice.id, target: b.bob.id, asset: EUR }),
    );
    const dup = await cli(['iso20022', 'submit', file, ...common]);
    assert.equal(dup.code, 1);
    assert.match(dup.err, /409|duplicate|already/i);
    const bad = await cli(['iso20022', 'report', 'CLI-MSG-0001', '--as', 'camt053', ...common]);
    assert.equal(bad.code, 2);
  });

  it('signs as the client account: the admin of client.json is no participant (403)', async () => {
    const file = join(b.dir, 'admin.xml');
    await writeFile(
      file,
      pacs008Sample('CLI-MSG-0002', { source: b.alice.id, target: b.bob.id, asset: EUR }),
    );
    const r = await cli(['iso20022', 'submit', file, '--dir', b.dir, '--url', b.url]);
    assert.equal(r.code, 1);
    assert.match(r.err, /iso_participant_not_authorised/);
  });
});
