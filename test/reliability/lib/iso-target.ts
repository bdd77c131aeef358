// Fuzz target for the ISO 20022 reader (src/modules/iso20022/parse.ts `parseMessage`; docs/design/testing.md
// "Tests we keep", XML attacks): random text, the shipped samples (XML and flat JSON) and mutations of them, byte-level
// (as for the codec) and XML-aware: an element repeated many times (the XML analogue of an inflated
// length), deep nesting, long attributes, DOCTYPE / entity / processing-instruction injection, another
// message version in the namespace, splices of two samples. Pass: a record of the asked kind or typed
// IsoErrors; parsing the same text again gives the same answer (there is no canonical writer for inbound
// messages, so "round trip" here means a deterministic, stable reading).

import { readdirSync, readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { MESSAGE_KINDS, type MessageKind, parseMessage } from '../../../src/modules/iso20022/parse.js';
import type { FuzzTarget, Outcome } from './fuzz-target.js';
import { applyMutations, mutationsArb } from './mutate.js';

const SAMPLES_DIR = new URL('../../../src/modules/iso20022/samples/', import.meta.url);
const ISO_CODES: ReadonlySet<string> = new Set([
  'iso_xml_malformed',
  'iso_xml_forbidden_construct',
  'iso_xml_too_large',
  'iso_xml_too_deep',
  'iso_unsupported_message',
  'iso_message_mismatch',
  'iso_input_invalid',
  'iso_validation_failed',
]);
/** Repeats of one element: enough to cross elementsMax with large samples, small enough to stay fast. */
const REPEATS_MAX = 400;
/** Nesting inserted: around the 64-level limit on both sides. */
const NESTING = [8, 63, 64, 65, 200];
const ATTRIBUTE_CHARS = [10, 4096, 4097, 50_000];
const RANDOM_CHARS_MAX = 1024;

export interface IsoInput {
  kind: MessageKind;
  text: string;
}

/** Every shipped sample with its kind (file name up to the first `-` or `.`). */
export function isoSamples(): IsoInput[] {
  return readdirSync(SAMPLES_DIR)
    .filter((f) => f.endsWith('.xml') || f.endsWith('.json'))
    .sort()
    .map((f) => ({
      kind: f.replace(/[-.].*$/, '') as MessageKind,
      text: readFileSync(new URL(f, SAMPLES_DIR), 'utf8'),
    }));
}

type XmlEdit =
  | { kind: 'repeat'; at: number; times: number }
  | { kind: 'nest'; at: number; depth: number }
  | { kind: 'attribute'; at: number; chars: number }
  | { kind: 'inject'; at: number; what: string }
  | { kind: 'version'; version: string };

const fraction = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });
const INJECTIONS = [
  '<!DOCTYPE d [<!ENTITY x "xx">]>',
  '<!DOCTYPE d SYSTEM "file:///etc/passwd">',
  '&x;',
  '&#0;',
  '&#x110000;',
  '&amp;&lt;&gt;',
  '<?php x ?>',
  '<![CDATA[</Document>]]>',
  '<!-- -- -->',
  '\u0000',
  '\uFEFF',
  '<a xmlns:a="urn:x" a:b="1"/>',
  '</Document>',
  '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pacs.008.001.08">',
];

const xmlEditArb: fc.Arbitrary<XmlEdit> = fc.oneof(
  fc.record({
    kind: fc.constant('repeat' as const),
    at: fraction,
    times: fc.integer({ min: 2, max: REPEATS_MAX }),
  }),
  fc.record({ kind: fc.constant('nest' as const), at: fraction, depth: fc.constantFrom(...NESTING) }),
  fc.record({
    kind: fc.constant('attribute' as const),
    at: fraction,
    chars: fc.constantFrom(...ATTRIBUTE_CHARS),
  }),
  fc.record({ kind: fc.constant('inject' as const), at: fraction, what: fc.constantFrom(...INJECTIONS) }),
  fc.record({
    kind: fc.constant('version' as const),
    version: fc.constantFrom('00', '01', '07', '10', '13', '99', 'xx'),
  }),
);

/** Positions just after a `>` (between elements), so edits keep most of the document well-formed. */
function tagBoundary(text: string, f: number): number {
  const i = text.indexOf('>', Math.floor(f * text.length));
  return i < 0 ? text.length : i + 1;
}

export function applyXmlEdit(text: string, e: XmlEdit): string {
  switch (e.kind) {
    case 'repeat': {
      // The element that opens at or after the position, with its content, repeated in place.
      const start = text.indexOf('<', Math.floor(e.at * text.length));
      const m = start < 0 ? null : /^<([A-Za-z][\w.:-]*)[^>]*>[\s\S]*?<\/\1>/.exec(text.slice(start));
      if (start < 0 || m === null) return text;
      return text.slice(0, start) + m[0].repeat(e.times) + text.slice(start + m[0].length);
    }
    case 'nest': {
      const i = tagBoundary(text, e.at);
      return text.slice(0, i) + '<N>'.repeat(e.depth) + '</N>'.repeat(e.depth) + text.slice(i);
    }
    case 'attribute': {
      const i = text.indexOf('>', Math.floor(e.at * text.length));
      if (i < 0) return text;
      return `${text.slice(0, i)} Ccy="${'A'.repeat(e.chars)}"${text.slice(i)}`;
    }
    case 'inject': {
      const i = tagBoundary(text, e.at);
      return text.slice(0, i) + e.what + text.slice(i);
    }
    case 'version':
      return text.replace(/(\.\d{3}\.\d{3}\.)\d{2}"/, `$1${e.version}"`);
  }
}

export function isoTarget(): FuzzTarget<IsoInput, ReturnType<typeof parseMessage>> {
  const samples = isoSamples();
  const sampleArb = fc.constantFrom(...samples);
  const kindArb = fc.oneof(
    { weight: 1, arbitrary: fc.constantFrom(...MESSAGE_KINDS) },
    { weight: 4, arbitrary: fc.constant(undefined) },
  );
  const enc = new TextEncoder();
  const dec = new TextDecoder();
  const byteMutated = fc.tuple(sampleArb, sampleArb, mutationsArb, kindArb).map(([a, b, ms, k]) => ({
    kind: k ?? a.kind,
    text: dec.decode(applyMutations(enc.encode(a.text), ms, enc.encode(b.text), [])),
  }));
  const xmlMutated = fc
    .tuple(sampleArb, fc.array(xmlEditArb, { minLength: 1, maxLength: 3 }), kindArb)
    .map(([a, edits, k]) => ({ kind: k ?? a.kind, text: edits.reduce(applyXmlEdit, a.text) }));
  return {
    name: 'ISO 20022 parseMessage',
    inputs: fc.oneof(
      {
        weight: 1,
        arbitrary: fc.record({
          kind: fc.constantFrom(...MESSAGE_KINDS),
          text: fc.string({ maxLength: RANDOM_CHARS_MAX }),
        }),
      },
      { weight: 1, arbitrary: sampleArb },
      { weight: 3, arbitrary: byteMutated },
      { weight: 3, arbitrary: xmlMutated },
    ),
    codes: ISO_CODES,
    decode: ({ kind, text }) => parseMessage(kind, text),
    judge({ kind, text }, r): Outcome {
      const again = parseMessage(kind, text);
      if (!isDeepStrictEqual(r, again))
        return { accepted: r.ok, problem: 'two parses of the same text differ' };
      if (r.ok)
        return r.message.kind === kind
          ? { accepted: true }
          : { accepted: true, problem: `kind ${r.message.kind}` };
      const bad = r.errors.find((e) => !ISO_CODES.has(e.code) || typeof e.message !== 'string');
      if (r.errors.length === 0 || bad !== undefined)
        return { accepted: false, problem: `untyped error ${JSON.stringify(bad ?? 'none').slice(0, 200)}` };
      return { accepted: false, code: r.errors[0]!.code };
    },
    size: (i) => Buffer.byteLength(i.text),
    save: (i) => ({ kind: i.kind, input_text: i.text }),
    load: (s) => ({ kind: String(s.kind) as MessageKind, text: String(s.input_text) }),
  };
}
