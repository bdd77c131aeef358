// Hardened ISO 20022 XML reading (README "Hardened parsing"): one pass that checks every limit and
// builds the element tree (xml/scan.ts, xml/tree.ts; entities are never expanded), then root detection.
//
// Accepted shapes:
//   <Document xmlns="urn:iso:std:iso:20022:tech:xsd:pacs.008.001.09">…</Document>
//   <AnyWrapper><AppHdr xmlns="urn:…:head.001.001.02">…</AppHdr><Document …>…</Document></AnyWrapper>
//   <AppHdr …>…</AppHdr>   (a bare business application header, head.001)
// The wrapper may have any name (BizMsgEnvlp, RequestPayload, …) but must hold exactly one AppHdr
// and one Document child. The Document namespace gives the message definition id.

import { type IsoResult, inputError, xmlError } from './errors.js';
import { resolveLimits, type XmlLimits } from './limits.js';
import { XmlCursor } from './xml/cursor.js';
import type { XmlNode } from './xml/node.js';
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

/**
 * Reads a body into an element tree rooted at its single root element: the pre-scan checks every limit
 * and rule and builds the tree in the same pass (xml/scan.ts, xml/tree.ts).
 */
export function parseXmlTree(
  body: string,
  limits?: Partial<XmlLimits>,
): IsoResult<{ root: XmlNode; outline: readonly OutlineEntry[] }> {
  const scan = scanXml(body, resolveLimits(limits));
  if (!scan.ok) return { ok: false, errors: [scan.error] };
  return { ok: true, value: { root: scan.root, outline: scan.outline } };
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
