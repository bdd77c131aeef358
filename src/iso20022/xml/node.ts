// The element tree the rest of the library reads: a small, immutable, prototype-free shape built
// from fast-xml-parser's output. Entity references are decoded here (the parser runs with entity
// processing off, so it can never expand anything): only the five predefined entities of XML 1.0
// §4.6 and character references to legal XML characters (§2.2) are accepted.

export interface XmlNode {
  /** Local name (namespace prefixes are removed by the parser). */
  readonly name: string;
  /** Trimmed text content, entities decoded; CDATA content taken literally. */
  readonly text: string;
  readonly attributes: ReadonlyMap<string, string>;
  /** Child elements by local name, in document order within each name. */
  readonly children: ReadonlyMap<string, readonly XmlNode[]>;
}

const PREDEFINED: ReadonlyMap<string, string> = new Map([
  ['lt', '<'],
  ['gt', '>'],
  ['amp', '&'],
  ['quot', '"'],
  ['apos', "'"],
]);
/** Longest reference between `&` and `;` we look at (`#x10FFFF` is 8 characters). */
const REFERENCE_CHARS_MAX = 10;

function isXmlChar(cp: number): boolean {
  return (
    cp === 0x9 ||
    cp === 0xa ||
    cp === 0xd ||
    (cp >= 0x20 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd) ||
    (cp >= 0x10000 && cp <= 0x10ffff)
  );
}

function decodeReference(ref: string): string | undefined {
  const predefined = PREDEFINED.get(ref);
  if (predefined !== undefined) return predefined;
  let cp: number;
  if (/^#x[0-9A-Fa-f]{1,6}$/.test(ref)) cp = Number.parseInt(ref.slice(2), 16);
  else if (/^#[0-9]{1,7}$/.test(ref)) cp = Number.parseInt(ref.slice(1), 10);
  else return undefined;
  return isXmlChar(cp) ? String.fromCodePoint(cp) : undefined;
}

/** Decodes entity and character references; undefined when one is unknown, illegal or unterminated. */
export function decodeEntities(raw: string): string | undefined {
  let amp = raw.indexOf('&');
  if (amp < 0) return raw;
  let out = '';
  let from = 0;
  while (amp >= 0) {
    const semi = raw.indexOf(';', amp + 1);
    if (semi < 0 || semi - amp - 1 > REFERENCE_CHARS_MAX) return undefined;
    const decoded = decodeReference(raw.slice(amp + 1, semi));
    if (decoded === undefined) return undefined;
    out += raw.slice(from, amp) + decoded;
    from = semi + 1;
    amp = raw.indexOf('&', from);
  }
  return out + raw.slice(from);
}

/** A refusal while building the tree, at the element path where it was found (`/Document/…/Nm`). */
export class TreeError {
  constructor(
    readonly message: string,
    readonly path: string,
  ) {}

  /** The same failure seen from the parent element: the path only grows on the error path. */
  within(parent: string): TreeError {
    return new TreeError(this.message, `/${parent}${this.path}`);
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function cdataText(v: unknown): string {
  if (!Array.isArray(v)) return '';
  let s = '';
  for (const part of v) {
    if (isRecord(part) && typeof part['#text'] === 'string') s += part['#text'];
  }
  return s;
}

/**
 * Builds an XmlNode from one element object of fast-xml-parser's output (options in xml.ts:
 * every element an array, attributes prefixed `@_`, CDATA under `#cdata`). Recursion depth is
 * bounded by the pre-scan's `depthMax`.
 */
/** One shared empty map for the many elements without attributes or children (read-only everywhere). */
const NONE = new Map<string, never>() as ReadonlyMap<string, never>;

export function buildNode(name: string, raw: unknown): XmlNode | TreeError {
  if (!isRecord(raw)) {
    const text = typeof raw === 'string' ? decodeEntities(raw) : '';
    if (text === undefined) return new TreeError(`invalid entity reference in <${name}>`, `/${name}`);
    return { name, text, attributes: NONE, children: NONE };
  }
  let attributes: Map<string, string> | undefined;
  let children: Map<string, XmlNode[]> | undefined;
  let rawText = '';
  let cdata = '';
  for (const [key, value] of Object.entries(raw)) {
    if (key === '#text') rawText = typeof value === 'string' ? value : '';
    else if (key === '#cdata') cdata = cdataText(value).trim();
    else if (key.startsWith('@_')) {
      const decoded = typeof value === 'string' ? decodeEntities(value) : '';
      if (decoded === undefined)
        return new TreeError(`invalid entity reference in an attribute of <${name}>`, `/${name}`);
      attributes ??= new Map();
      attributes.set(key.slice(2), decoded);
    } else {
      const list: XmlNode[] = [];
      for (const item of Array.isArray(value) ? value : [value]) {
        const child = buildNode(key, item);
        if (child instanceof TreeError) return child.within(name);
        list.push(child);
      }
      children ??= new Map();
      children.set(key, list);
    }
  }
  const decoded = decodeEntities(rawText);
  if (decoded === undefined) return new TreeError(`invalid entity reference in <${name}>`, `/${name}`);
  // Mixed text and CDATA would need document order to join, which the parser does not keep.
  if (decoded !== '' && cdata !== '') return new TreeError(`<${name}> mixes text and CDATA`, `/${name}`);
  return {
    name,
    text: cdata !== '' ? cdata : decoded,
    attributes: attributes ?? NONE,
    children: children ?? NONE,
  };
}
