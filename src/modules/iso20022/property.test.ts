// Property tests (docs/design/testing.md "Habits": fixed run counts; fast-check prints the seed and the shrunk
// counterexample on failure — keep failing inputs as regression cases): parseMessage never throws,
// whatever the body, and always answers with a record or typed errors; amounts round-trip exactly.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { sample } from '../../../test/fixtures/iso20022/samples-fixture.js';
import type { IsoError } from './errors.js';
import { PACS008_FLAT_FIELDS, PACS009_FLAT_FIELDS } from './flat.js';
import { MESSAGE_KINDS, type MessageKind, parseMessage } from './parse.js';
import { checkAmount, formatDecimal } from './validate/amount.js';
import { ISO_4217 } from './validate/iso4217.js';

const NUM_RUNS = 300;
const CODES = new Set([
  'iso_xml_malformed',
  'iso_xml_forbidden_construct',
  'iso_xml_too_large',
  'iso_xml_too_deep',
  'iso_unsupported_message',
  'iso_message_mismatch',
  'iso_input_invalid',
  'iso_validation_failed',
]);
const SAMPLES = [
  'pacs008.xml',
  'pacs008-envelope.xml',
  'pacs009.xml',
  'pacs002.xml',
  'pacs004.xml',
  'camt056.xml',
  'sese023.xml',
  'sese025.xml',
  'colr010.xml',
  'pain001.xml',
  'camt053.xml',
].map((name) => [name.replace(/[-.].*$/, '') as MessageKind, sample(name)] as const);

/** Parses and checks the shape of the answer: a record of the asked kind, or well-formed typed errors. */
function wellFormed(kind: MessageKind, body: string | object): void {
  const r = parseMessage(kind, body);
  if (r.ok) {
    assert.equal(r.message.kind, kind);
    return;
  }
  assert.ok(r.errors.length > 0);
  for (const e of r.errors as IsoError[]) {
    assert.ok(CODES.has(e.code), e.code);
    assert.equal(typeof e.message, 'string');
    if (e.code === 'iso_validation_failed') assert.ok(e.path.length > 0 && e.rule.length > 0);
  }
}

const kindArb = fc.constantFrom(...MESSAGE_KINDS);
const XML_TOKENS = [
  '<',
  '>',
  '/',
  '</',
  '/>',
  '=',
  '"',
  "'",
  ' ',
  '\n',
  '&',
  ';',
  '&amp;',
  '&#x41;',
  '&lt',
  '<!--',
  '-->',
  '<![CDATA[',
  ']]>',
  '<?xml version="1.0"?>',
  '<?',
  '?>',
  '<!DOCTYPE',
  'Document',
  'AppHdr',
  'Envlp',
  ' xmlns="urn:iso:std:iso:20022:tech:xsd:pacs.008.001.09"',
  'xmlns:p="u"',
  'p:',
  'FIToFICstmrCdtTrf',
  'GrpHdr',
  'MsgId',
  'CdtTrfTxInf',
  'IntrBkSttlmAmt',
  ' Ccy="EUR"',
  '12.50',
  'DE89370400440532013000',
  '__proto__',
  'a',
  '1',
];

describe('parseMessage never throws', () => {
  it('on arbitrary strings', () => {
    fc.assert(
      fc.property(kindArb, fc.string({ unit: 'binary', maxLength: 200 }), (kind, body) =>
        wellFormed(kind, body),
      ),
      { numRuns: NUM_RUNS },
    );
  });

  it('on strings made of XML tokens', () => {
    const body = fc.array(fc.constantFrom(...XML_TOKENS), { maxLength: 60 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(kindArb, body, (kind, b) => wellFormed(kind, b)),
      { numRuns: NUM_RUNS },
    );
  });

  it('on real samples with a slice cut out or a token inserted', () => {
    const mutation = fc.record({
      index: fc.nat(SAMPLES.length - 1),
      at: fc.double({ min: 0, max: 1, noNaN: true }),
      cut: fc.nat(40),
      insert: fc.oneof(fc.constantFrom(...XML_TOKENS), fc.string({ maxLength: 8 })),
    });
    fc.assert(
      fc.property(mutation, ({ index, at, cut, insert }) => {
        const [kind, xml] = SAMPLES[index]!;
        const pos = Math.floor(at * xml.length);
        wellFormed(kind, xml.slice(0, pos) + insert + xml.slice(pos + cut));
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('on arbitrary flat objects and JSON texts', () => {
    const names = [
      ...new Set([...PACS008_FLAT_FIELDS, ...PACS009_FLAT_FIELDS, '__proto__', 'constructor', 'x']),
    ];
    const value = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.integer(),
      fc.constant(null),
      fc.boolean(),
      fc.array(fc.string()),
    );
    const flat = fc.dictionary(fc.constantFrom(...names), value, { maxKeys: 12 });
    fc.assert(
      fc.property(
        fc.constantFrom<MessageKind>('pacs008', 'pacs009'),
        flat,
        fc.boolean(),
        (kind, obj, asText) => {
          wellFormed(kind, asText ? JSON.stringify(obj) : obj);
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });
});

describe('amounts', () => {
  it('format and parse back to the same minor units for every currency with a minor unit', () => {
    const currencies = [...ISO_4217.values()].filter((c) => c.minorUnits !== undefined);
    const arb = fc.record({
      currency: fc.constantFrom(...currencies),
      mantissa: fc.bigInt({ min: 0n, max: 10n ** 18n - 1n }),
    });
    fc.assert(
      fc.property(arb, ({ currency, mantissa }) => {
        const scale = currency.minorUnits ?? 0;
        const text = formatDecimal({ mantissa, scale });
        assert.deepEqual(checkAmount(text, currency), { ok: true, value: { mantissa, scale } });
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
