import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { IsoResult } from './errors.js';
import { decodeEntities } from './xml/node.js';
import { parseIsoXml, parseXmlTree } from './xml.js';

const NS = 'urn:iso:std:iso:20022:tech:xsd:pacs.008.001.09';
const HEAD = 'urn:iso:std:iso:20022:tech:xsd:head.001.001.02';

function code(r: IsoResult<unknown>): string {
  return r.ok ? 'ok' : (r.errors[0]?.code ?? 'none');
}

function text(xml: string, ...path: string[]): string | undefined {
  const r = parseXmlTree(xml);
  assert.ok(r.ok, JSON.stringify(r));
  let node = r.value.root;
  for (const name of path) {
    const next = node.children.get(name)?.[0];
    if (next === undefined) return undefined;
    node = next;
  }
  return node.text;
}

describe('XML reader', () => {
  it('decodes the predefined entities and character references, keeps CDATA literally', () => {
    assert.equal(text('<r><a>1 &lt; 2 &amp;&amp; 3 &gt; 2 &quot;&apos;</a></r>', 'a'), '1 < 2 && 3 > 2 "\'');
    assert.equal(text('<r><a>&#65;&#x42;&#x1F600;</a></r>', 'a'), 'AB😀');
    assert.equal(text('<r><a><![CDATA[<b>&amp;</b>]]></a></r>', 'a'), '<b>&amp;</b>');
    assert.equal(text('<r><a x="a&amp;b"/></r>', 'a'), '');
    const r = parseXmlTree('<r><a x="a&amp;b &#x41;"/></r>');
    assert.ok(r.ok);
    assert.equal(r.value.root.children.get('a')?.[0]?.attributes.get('x'), 'a&b A');
  });

  it('refuses unknown entities, illegal character references and mixed CDATA', () => {
    for (const bad of [
      '<r>&nbsp;</r>',
      '<r>&#0;</r>',
      '<r>&#xD800;</r>',
      '<r>& x</r>',
      '<r>&amp</r>',
      '<r>a<![CDATA[b]]></r>',
    ]) {
      assert.equal(code(parseXmlTree(bad)), 'iso_xml_malformed', bad);
    }
    assert.equal(decodeEntities('no references'), 'no references');
    assert.equal(decodeEntities('&#1114112;'), undefined);
  });

  it('checks well-formedness itself', () => {
    const bad = [
      '',
      '   ',
      'text',
      '<r>',
      '<r></s>',
      '<r/><r/>',
      '<r/>tail',
      '<r a=1/>',
      '<r a="1"b="2"/>',
      '<r a="<"/>',
      '<r a="1" a="2"/>',
      '<1r/>',
      '<r><!-- open</r>',
      '<r><![CDATA[open</r>',
      '</r>',
      '<r>\u0001</r>',
      '<p:r/>',
      '<r xmlns:p=""/>',
    ];
    for (const xml of bad) assert.equal(code(parseXmlTree(xml)), 'iso_xml_malformed', JSON.stringify(xml));
    const good = [
      '<r/>',
      '\uFEFF<?xml version="1.0"?>\n<!-- c --><r>x</r>\n<!-- after -->',
      '<r a=\'1\' b = "2" />',
      '<r></r >',
    ];
    for (const xml of good) assert.equal(code(parseXmlTree(xml)), 'ok', JSON.stringify(xml));
  });

  it('strips namespace prefixes and trims values', () => {
    const xml = `<d:Document xmlns:d="${NS}"><d:A>  padded  </d:A></d:Document>`;
    assert.equal(text(xml, 'A'), 'padded');
    const r = parseIsoXml(xml);
    assert.ok(r.ok);
    assert.equal(r.value.messageDefinitionId, 'pacs.008.001.09');
  });

  it('finds the Document alone, in a wrapper with an AppHdr, or a bare AppHdr', () => {
    const doc = `<Document xmlns="${NS}"><X/></Document>`;
    const hdr = `<AppHdr xmlns="${HEAD}"><BizMsgIdr>1</BizMsgIdr></AppHdr>`;
    const plain = parseIsoXml(doc);
    assert.ok(plain.ok && plain.value.appHeader === undefined && plain.value.document?.child('X').exists);
    for (const wrapper of ['BizMsgEnvlp', 'RequestPayload', 'env:Envelope']) {
      const ns = wrapper.includes(':') ? ' xmlns:env="urn:example:envelope"' : '';
      const r = parseIsoXml(`<${wrapper}${ns}>${hdr}${doc}</${wrapper}>`);
      assert.ok(r.ok, wrapper);
      assert.equal(r.value.rootName, wrapper.replace('env:', ''));
      assert.equal(r.value.appHeaderNamespace, HEAD);
      assert.equal(r.value.appHeader?.child('BizMsgIdr').text(), '1');
      assert.equal(r.value.messageDefinitionId, 'pacs.008.001.09');
    }
    const bare = parseIsoXml(hdr);
    assert.ok(bare.ok && bare.value.document === undefined && bare.value.appHeader !== undefined);
  });

  it('refuses wrappers that do not hold exactly AppHdr and Document', () => {
    const doc = `<Document xmlns="${NS}"/>`;
    const hdr = `<AppHdr xmlns="${HEAD}"/>`;
    for (const inner of [doc, hdr, `${hdr}${doc}${doc}`, `${hdr}${doc}<Extra/>`, '<Other/>']) {
      assert.equal(code(parseIsoXml(`<Env>${inner}</Env>`)), 'iso_xml_malformed', inner);
    }
  });

  it('says where a wrong root, a bad entity or a reserved name is (details.path, docs/errors.md)', () => {
    const hdr = `<AppHdr xmlns="${HEAD}"/>`;
    const doc = `<Document xmlns="${NS}"/>`;
    const cases: ReadonlyArray<readonly [string, string]> = [
      ['<Foo/>', '/Foo'],
      [`<Env>${hdr}</Env>`, '/Env'],
      [`<Env>${hdr}${doc}<Extra/></Env>`, '/Env/Extra'],
      [`<Env>${hdr}<Other/></Env>`, '/Env/Other'],
      ['<Invoice><Total>1</Total></Invoice>', '/Invoice'],
      [`<Document xmlns="${NS}"><A><B>&bogus;</B></A></Document>`, '/Document/A/B'],
      [`<Document xmlns="${NS}"><A>t<![CDATA[x]]></A></Document>`, '/Document/A'],
      [`<Document xmlns="${NS}"><constructor/></Document>`, `@${`<Document xmlns="${NS}">`.length}`],
      ['<r><p:__proto__ xmlns:p="urn:x"/></r>', '@3'],
    ];
    for (const [xml, path] of cases) {
      const r = parseIsoXml(xml);
      assert.ok(!r.ok, xml);
      assert.deepEqual([r.errors[0]?.code, r.errors[0]?.path], ['iso_xml_malformed', path], xml);
    }
  });

  it('refuses a Document outside the ISO 20022 namespace', () => {
    for (const xml of [
      '<Document/>',
      '<Document xmlns="urn:example"/>',
      '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pacs.008.001"/>',
    ]) {
      assert.equal(code(parseIsoXml(xml)), 'iso_unsupported_message', xml);
    }
  });

  it('takes caller limits', () => {
    const nested = `<Document xmlns="${NS}"><a><b><c/></b></a></Document>`;
    assert.equal(code(parseIsoXml(nested)), 'ok');
    assert.equal(code(parseIsoXml(nested, { depthMax: 3 })), 'iso_xml_too_deep');
    assert.equal(code(parseIsoXml(nested, { depthMax: 4 })), 'ok');
    assert.equal(code(parseIsoXml(nested, { elementsMax: 3 })), 'iso_xml_too_large');
    assert.equal(code(parseIsoXml(nested, { bodyBytesMax: 20 })), 'iso_xml_too_large');
    assert.equal(
      code(parseIsoXml(`<Document xmlns="${NS}" a="12345"/>`, { attributeValueCharsMax: 4 })),
      'iso_xml_too_large',
    );
  });

  it('counts the body limit in UTF-8 bytes', () => {
    const body = `<Document xmlns="${NS}"><a>${'é'.repeat(100)}</a></Document>`;
    const bytes = Buffer.byteLength(body, 'utf8');
    assert.equal(code(parseIsoXml(body, { bodyBytesMax: bytes })), 'ok');
    assert.equal(code(parseIsoXml(body, { bodyBytesMax: bytes - 1 })), 'iso_xml_too_large');
    assert.ok(body.length < bytes - 1);
  });
});
