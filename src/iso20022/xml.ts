// Hardened ISO 20022 XML reading (README "Hardened parsing"): pre-scan (xml/scan.ts), then
// fast-xml-parser with entity processing off and values kept as strings, then root detection.
//
// Accepted shapes:
//   <Document xmlns="urn:iso:std:iso:20022:tech:xsd:pacs.008.001.09">…</Document>
//   <AnyWrapper><AppHdr xmlns="urn:…:head.001.001.02">…</AppHdr><Document …>…</Document></AnyWrapper>
//   <AppHdr …>…</AppHdr>   (a bare business application header, head.001)
// The wrapper may have any name (BizMsgEnvlp, RequestPayload, …) but must hold exactly one AppHdr
// and one Document child. The Document namespace gives the message definition id.

import { XMLParser } from 'fast-xml-parser';
import { type IsoResult, inputError, xmlError } from './errors.js';
import { resolveLimits, type XmlLimits } from './limits.js';
import { XmlCursor } from './xml/cursor.js';
import { buildNode, TreeError, type XmlNode } from './xml/node.js';
import { type OutlineEntry, scanXml } from './xml/scan.js';

export interface IsoDocument {
  /** Local name of the root element (`Document`, `AppHdr` or the wrapper's name). */
  readonly rootName: string;
  /** Message definition id from the Document namespace; undefined for a bare AppHdr. */
  readonly messageDefinitionId: string | undefined;
  readonly document: XmlCursor | undefined;
  readonly appHeader: XmlCursor | undefined;
  readonly appHeaderNamespace: string | undefined;
}

const ISO_NAMESPACE = /^urn:iso:std:iso:20022:tech:xsd:([a-z]{4}\.\d{3}\.\d{3}\.\d{2})$/;

/** Parses a body that passed the pre-scan into an element tree rooted at the single root element. */
export function parseXmlTree(
  body: string,
  limits?: Partial<XmlLimits>,
): IsoResult<{ root: XmlNode; outline: readonly OutlineEntry[] }> {
  const effective = resolveLimits(limits);
  const scan = scanXml(body, effective);
  if (!scan.ok) return { ok: false, errors: [scan.error] };
  // A fresh parser per call: parsers keep per-document state, and two nodes may share a process.
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    removeNSPrefix: true,
    parseTagValue: false,
    parseAttributeValue: false,
    processEntities: false,
    htmlEntities: false,
    alwaysCreateTextNode: true,
    cdataPropName: '#cdata',
    ignoreDeclaration: true,
    ignorePiTags: true,
    trimValues: true,
    maxNestedTags: effective.depthMax + 1,
    isArray: (_name, _path, _leaf, isAttribute) => !isAttribute,
    // The callbacks above ignore the element path; without this the parser prints it for every element
    // and text (a tenth of the parse time of a large statement).
    jPath: false,
  });
  let raw: unknown;
  try {
    raw = parser.parse(body);
  } catch (e) {
    // The parser refuses some names on its own (for example `__proto__`); that is malformed input.
    return { ok: false, errors: [xmlError('iso_xml_malformed', `XML parser: ${(e as Error).message}`)] };
  }
  const top = scan.outline[0];
  const list =
    typeof raw === 'object' && raw !== null && top !== undefined ? Reflect.get(raw, top.localName) : [];
  const rootRaw: unknown = Array.isArray(list) ? list[0] : undefined;
  if (top === undefined || rootRaw === undefined) {
    return { ok: false, errors: [xmlError('iso_xml_malformed', 'no root element')] };
  }
  const root = buildNode(top.localName, rootRaw);
  if (root instanceof TreeError) {
    return { ok: false, errors: [xmlError('iso_xml_malformed', root.message, root.path)] };
  }
  return { ok: true, value: { root, outline: scan.outline } };
}

/**
 * Where a wrong root shape is seen (docs/errors.md `iso_xml_malformed`): the root itself when it is
 * no envelope at all (neither AppHdr nor Document inside) or a part is missing or repeated, else the
 * first child of the envelope that is neither AppHdr nor Document.
 */
function wrongRootPath(rootName: string, kids: readonly string[]): string {
  if (!kids.includes('AppHdr') && !kids.includes('Document')) return `/${rootName}`;
  const stranger = kids.find((k) => k !== 'AppHdr' && k !== 'Document');
  return stranger === undefined ? `/${rootName}` : `/${rootName}/${stranger}`;
}

/** Parses and locates the Document and optional AppHdr of an ISO 20022 message. */
export function parseIsoXml(body: string, limits?: Partial<XmlLimits>): IsoResult<IsoDocument> {
  const tree = parseXmlTree(body, limits);
  if (!tree.ok) return tree;
  const { root, outline } = tree.value;
  const namespaceOf = (depth: number, name: string) =>
    outline.find((e) => e.depth === depth && e.localName === name)?.namespace;
  if (root.name === 'AppHdr') {
    return {
      ok: true,
      value: {
        rootName: root.name,
        messageDefinitionId: undefined,
        document: undefined,
        appHeader: new XmlCursor(root, '/AppHdr'),
        appHeaderNamespace: namespaceOf(1, 'AppHdr'),
      },
    };
  }
  let document: XmlNode | undefined;
  let appHeader: XmlNode | undefined;
  let depth = 1;
  if (root.name === 'Document') document = root;
  else {
    const kids = outline.filter((e) => e.depth === 2).map((e) => e.localName);
    if (kids.length !== 2 || !kids.includes('AppHdr') || !kids.includes('Document')) {
      const message = `root <${root.name}> is neither Document nor a wrapper of exactly AppHdr and Document`;
      return { ok: false, errors: [xmlError('iso_xml_malformed', message, wrongRootPath(root.name, kids))] };
    }
    document = root.children.get('Document')?.[0];
    appHeader = root.children.get('AppHdr')?.[0];
    depth = 2;
  }
  const namespace = namespaceOf(depth, 'Document') ?? '';
  const match = ISO_NAMESPACE.exec(namespace);
  if (match === null) {
    const message = `Document namespace "${namespace.slice(0, 100)}" is not an ISO 20022 message definition`;
    return { ok: false, errors: [inputError('iso_unsupported_message', message, '/Document')] };
  }
  return {
    ok: true,
    value: {
      rootName: root.name,
      messageDefinitionId: match[1],
      document: new XmlCursor(document, '/Document'),
      appHeader: appHeader === undefined ? undefined : new XmlCursor(appHeader, '/AppHdr'),
      appHeaderNamespace: appHeader === undefined ? undefined : namespaceOf(2, 'AppHdr'),
    },
  };
}
