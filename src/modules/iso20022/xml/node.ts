// The element tree the rest of the library reads: a small, immutable, prototype-free shape built
// during the pre-scan (tree.ts). Entity references are decoded here, never expanded: only the five
// predefined entities of XML 1.0 §4.6 and character references to legal XML characters (§2.2) are
// accepted.

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
}
