// Builds the element tree (node.ts XmlNode) during the pre-scan's single pass (scan.ts), so a body is
// read once instead of being scanned and then parsed again by a general-purpose parser. The tree is the
// one fast-xml-parser 5 gave with the options xml.ts used (README "Hardened parsing"), which a
// differential test (tree.test.ts) checks on every sample and on mutated bodies:
//   - namespace prefixes are removed from element and attribute names; `xmlns` declarations are no
//     attributes; a repeated local attribute name keeps the last value;
//   - text is read in segments ended by a child element, a CDATA section or the end tag (comments do not
//     end one), each segment trimmed, the segments joined; line ends (CR LF, CR) read as LF (XML 1.0 §2.11);
//   - attribute values are trimmed; CDATA sections are joined and the result trimmed;
//   - entity and character references are decoded (node.ts decodeEntities); an element may not mix
//     text and CDATA.

import { decodeEntities, TreeError, type XmlNode } from './node.js';

const NONE = new Map<string, never>() as ReadonlyMap<string, never>;

function lineEnds(s: string): string {
  return s.indexOf('\r') < 0 ? s : s.replace(/\r\n?/g, '\n');
}

function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
}

interface Open {
  readonly name: string;
  attributes: Map<string, string> | undefined;
  children: Map<string, XmlNode[]> | undefined;
  /** Raw text since the last segment end (comments are skipped, so text around one joins). */
  pending: string;
  text: string;
  cdata: string;
}

export class TreeBuilder {
  private readonly stack: Open[] = [];
  private root: XmlNode | undefined;

  /** A start tag: `name` as written, its attributes as written (values raw, unquoted). */
  open(name: string, attributes: ReadonlyArray<readonly [string, string]>): TreeError | undefined {
    this.endSegment();
    const local = localName(name);
    let attrs: Map<string, string> | undefined;
    for (const [raw, value] of attributes) {
      if (raw === 'xmlns' || raw.startsWith('xmlns:')) continue;
      const decoded = decodeEntities(lineEnds(value).trim());
      if (decoded === undefined) {
        return this.error(`invalid entity reference in an attribute of <${local}>`, local);
      }
      attrs ??= new Map();
      attrs.set(localName(raw), decoded);
    }
    this.stack.push({
      name: local,
      attributes: attrs,
      children: undefined,
      pending: '',
      text: '',
      cdata: '',
    });
    return undefined;
  }

  text(raw: string): void {
    const top = this.stack.at(-1);
    if (top !== undefined) top.pending += raw;
  }

  cdata(raw: string): void {
    this.endSegment();
    const top = this.stack.at(-1);
    if (top !== undefined) top.cdata += lineEnds(raw);
  }

  /** The end tag of the innermost open element (or the end of a self-closing one). */
  close(): TreeError | undefined {
    this.endSegment();
    const top = this.stack.at(-1);
    if (top === undefined) return undefined;
    const decoded = decodeEntities(top.text);
    if (decoded === undefined) return this.error(`invalid entity reference in <${top.name}>`, top.name);
    const cdata = top.cdata.trim();
    // Mixed text and CDATA would need document order to join; the reader refuses it (node.ts).
    if (decoded !== '' && cdata !== '') return this.error(`<${top.name}> mixes text and CDATA`, top.name);
    this.stack.pop();
    const node: XmlNode = {
      name: top.name,
      text: cdata !== '' ? cdata : decoded,
      attributes: top.attributes ?? NONE,
      children: top.children ?? NONE,
    };
    const parent = this.stack.at(-1);
    if (parent === undefined) this.root = node;
    else {
      parent.children ??= new Map();
      const list = parent.children.get(node.name);
      if (list === undefined) parent.children.set(node.name, [node]);
      else list.push(node);
    }
    return undefined;
  }

  result(): XmlNode | undefined {
    return this.root;
  }

  private endSegment(): void {
    const top = this.stack.at(-1);
    if (top === undefined || top.pending === '') return;
    top.text += lineEnds(top.pending).trim();
    top.pending = '';
  }

  /** A refusal at the path of the innermost open element (`/Document/…/<name>`). */
  private error(message: string, name: string): TreeError {
    const open = this.stack.map((o) => o.name);
    if (open.at(-1) !== name) open.push(name);
    return new TreeError(message, `/${open.join('/')}`);
  }
}
