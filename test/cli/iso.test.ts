// `torana iso20022 submit | status | report | verify-audit` against a node with the bridge enabled, the
// CLI run in this process (test/helpers/cli-in-process.ts; test/cli/cli.test.ts runs it as a child).

import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { saveKeyFile } from '../../src/crypto/keyfile.js';
import { kindFromXml } from '../../src/modules/iso20022/cli-kinds.js';
import { runCli as cli } from '../helpers/cli-in-process.js';
import {
  assertXsdValid,
  type BridgeNode,
  balance,
  EUR,
  settledOrRejected,
  startBridgeNode,
  waitFor,
} from '../iso20022/bridge-fixture.js';
import { pacs008Sample } from '../iso20022/messages.js';

const units = (s: string) => BigInt(s.split('e')[0]!);

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

  it('the same file again answers its record marked replayed; another body under the id is 409; unknown types are usage errors', async () => {
    const file = join(b.dir, 'dup.xml');
    await writeFile(
      file,
      pacs008Sample('CLI-MSG-0001', { source: b.alice.id, target: b.bob.id, asset: EUR }),
    );
    const again = await cli(['iso20022', 'submit', file, ...common, '--json']);
    assert.equal(again.code, 0, again.err);
    const replay = JSON.parse(again.out);
    assert.deepEqual(
      [replay.message_id, replay.replayed, replay.pacs002_code],
      ['CLI-MSG-0001', true, 'ACSC'],
    );
    await writeFile(
      file,
      pacs008Sample('CLI-MSG-0001', { source: b.alice.id, target: b.bob.id, asset: EUR }, 'E2E-OTHER'),
    );
    const dup = await cli(['iso20022', 'submit', file, ...common]);
    assert.equal(dup.code, 1);
    assert.match(dup.err, /iso_duplicate_message|different body/);
    const bad = await cli(['iso20022', 'report', 'CLI-MSG-0001', '--as', 'camt053', ...common]);
    assert.equal(bad.code, 2);
  });

  it('the quick start: examples/iso20022 files are schema-valid and settle through the CLI', async () => {
    const filled = (text: string) =>
      text.replaceAll('DEBTOR_ACCOUNT_ID', b.alice.id).replaceAll('CREDITOR_ACCOUNT_ID', b.bob.id);
    const xml = await readFile(new URL('../../examples/iso20022/pacs008.xml', import.meta.url), 'utf8');
    await assertXsdValid('pacs.008.001.09.xsd', xml);
    await assertXsdValid('pacs.008.001.09.xsd', filled(xml));
    const flat = await readFile(
      new URL('../../examples/iso20022/pacs008.flat.json', import.meta.url),
      'utf8',
    );
    const participants = await readFile(
      new URL('../../examples/iso20022/participants.json', import.meta.url),
      'utf8',
    );
    assert.deepEqual(Object.values(JSON.parse(participants)), [{ bics: ['DEUTDEFFXXX'], account_ids: [] }]);
    const before = balance(b, EUR, b.bob);
    for (const [name, text, type] of [
      ['qs.xml', xml, []],
      ['qs.json', flat, ['--type', 'pacs008']],
    ] as const) {
      const file = join(b.dir, name);
      await writeFile(file, filled(text));
      const r = await cli(['iso20022', 'submit', file, ...type, ...common, '--json']);
      assert.equal(r.code, 0, r.err);
      const id = JSON.parse(r.out).message_id;
      assert.equal((await waitFor(b, id, settledOrRejected)).pacs002_code, 'ACSC', name);
    }
    assert.equal(units(balance(b, EUR, b.bob)) - units(before), 1250n + 725n, '12.50 + 7.25 EUR arrived');
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
