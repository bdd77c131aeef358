// Schema validation against the official ISO 20022 XSDs in test/iso20022/xsd: every sample
// input that has a schema here (the Document part, envelope stripped) and the generated pacs.002,
// pacs.004 and camt.029. A negative control proves the validator does reject.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { validateXML } from 'xmllint-wasm';
import {
  CAMT029_INPUT,
  PACS002_INPUT,
  PACS004_INPUT,
} from '../../../test/fixtures/iso20022/build-fixture.js';
import { documentPart, edit, sample, XSD_DIR } from '../../../test/fixtures/iso20022/samples-fixture.js';
import { buildCamt029 } from './build/camt029.js';
import type { BuildResult } from './build/inputs.js';
import { buildPacs002 } from './build/pacs002.js';
import { buildPacs004 } from './build/pacs004.js';

async function validate(schemaFile: string, files: ReadonlyArray<readonly [string, string]>) {
  const schema = { fileName: schemaFile, contents: readFileSync(new URL(schemaFile, XSD_DIR), 'utf8') };
  return validateXML({
    xml: files.map(([fileName, contents]) => ({ fileName, contents })),
    schema: [schema],
  });
}

async function assertValid(
  schemaFile: string,
  files: ReadonlyArray<readonly [string, string]>,
): Promise<void> {
  const r = await validate(schemaFile, files);
  assert.ok(r.valid, r.errors.map((e) => e.rawMessage).join('\n'));
  assert.equal(r.errors.length, 0);
}

function built(r: BuildResult): string {
  if (!r.ok) assert.fail(JSON.stringify(r.errors));
  return r.xml;
}

const SAMPLES_BY_SCHEMA: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['pacs.002.001.11.xsd', ['pacs002.xml']],
  ['pacs.004.001.10.xsd', ['pacs004.xml']],
  ['pacs.007.001.10.xsd', ['pacs007.xml']],
  ['pacs.008.001.09.xsd', ['pacs008.xml', 'pacs008-envelope.xml', 'pacs008-othr.xml']],
  ['pacs.009.001.09.xsd', ['pacs009.xml', 'pacs009-bic-only.xml']],
  ['pacs.028.001.04.xsd', ['pacs028.xml']],
  ['camt.052.001.08.xsd', ['camt052.xml']],
  ['camt.053.001.08.xsd', ['camt053.xml']],
  ['camt.054.001.08.xsd', ['camt054.xml']],
  ['camt.056.001.09.xsd', ['camt056.xml']],
  ['pain.001.001.10_1.xsd', ['pain001.xml']],
  ['pain.002.001.11.xsd', ['pain002.xml']],
];

// Each validation starts a worker that compiles xmllint; running a few at once uses both cores.
describe('official ISO 20022 schemas', { concurrency: 4 }, () => {
  for (const [schema, files] of SAMPLES_BY_SCHEMA) {
    it(`sample ${files.join(', ')} is valid against ${schema}`, async () => {
      await assertValid(
        schema,
        files.map((f) => [f, documentPart(sample(f))] as const),
      );
    });
  }

  it('generated pacs.002 is valid (accepted, rejected with reason, group status)', async () => {
    const single = {
      ...PACS002_INPUT,
      groupStatus: undefined,
      instructedAgentBic: undefined,
      transactions: [PACS002_INPUT.transactions[1]!],
    };
    await assertValid('pacs.002.001.11.xsd', [
      ['pacs002-full.xml', built(buildPacs002(PACS002_INPUT))],
      ['pacs002-rjct.xml', built(buildPacs002(single))],
      ['pacs002-group.xml', built(buildPacs002({ ...PACS002_INPUT, groupStatus: 'ACSC', transactions: [] }))],
    ]);
  });

  it('generated pacs.004 is valid', async () => {
    const minimal = {
      ...PACS004_INPUT,
      instructingAgentBic: undefined,
      transactions: [PACS004_INPUT.transactions[1]!],
    };
    await assertValid('pacs.004.001.10.xsd', [
      ['pacs004-full.xml', built(buildPacs004(PACS004_INPUT))],
      ['pacs004-min.xml', built(buildPacs004(minimal))],
    ]);
  });

  it('generated camt.029 is valid (rejected and cancelled resolutions)', async () => {
    const cancelled = {
      ...CAMT029_INPUT,
      caseId: undefined,
      status: 'CNCL' as const,
      groupCancellationStatus: undefined,
      transactions: [{ originalEndToEndId: 'INV-2025-0042', status: 'ACCR' as const }],
    };
    await assertValid('camt.029.001.10.xsd', [
      ['camt029-rjcr.xml', built(buildCamt029(CAMT029_INPUT))],
      ['camt029-cncl.xml', built(buildCamt029(cancelled))],
    ]);
  });

  it('negative control: out-of-order or foreign elements are rejected by the validator', async () => {
    const reordered = edit(documentPart(sample('pacs008.xml')), '<ChrgBr>SLEV</ChrgBr>', '');
    const r1 = await validate('pacs.008.001.09.xsd', [['bad-order.xml', reordered]]);
    assert.equal(r1.valid, false);
    const corrupted = edit(
      built(buildPacs002(PACS002_INPUT)),
      '<TxSts>ACSC</TxSts>',
      '<TxSts>ACSC</TxSts><Foo/>',
    );
    const r2 = await validate('pacs.002.001.11.xsd', [['bad-extra.xml', corrupted]]);
    assert.equal(r2.valid, false);
  });
});
