// A minimal deterministic XML writer for the builders: elements in the order given, two-space
// indentation, attributes in insertion order, text and attribute values escaped (XML 1.0 §2.4,
// §3.3.3). Callers validate their input first (build/inputs.ts refuses characters XML cannot carry).

export interface XmlElement {
  readonly name: string;
  readonly attributes: ReadonlyArray<readonly [string, string]>;
  readonly children: readonly XmlElement[];
  readonly text: string | undefined;
}

type Content = string | ReadonlyArray<XmlElement | undefined>;

/** An element with text or child elements (undefined children are skipped: optional fields). */
export function el(
  name: string,
  content: Content,
  attributes: ReadonlyArray<readonly [string, string]> = [],
): XmlElement {
  if (typeof content === 'string') return { name, attributes, children: [], text: content };
  return {
    name,
    attributes,
    children: content.filter((c): c is XmlElement => c !== undefined),
    text: undefined,
  };
}

/** An optional text element: undefined when the value is. */
export function opt(name: string, value: string | undefined): XmlElement | undefined {
  return value === undefined ? undefined : el(name, value);
}

export function escapeText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function escapeAttribute(s: string): string {
  return escapeText(s)
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\t/g, '&#x9;')
    .replace(/\n/g, '&#xA;')
    .replace(/\r/g, '&#xD;');
}

function render(e: XmlElement, depth: number, out: string[]): void {
  const pad = '  '.repeat(depth);
  const attrs = e.attributes.map(([k, v]) => ` ${k}="${escapeAttribute(v)}"`).join('');
  if (e.text !== undefined) {
    // Line breaks in text would be normalised by readers; the builders never produce them.
    out.push(`${pad}<${e.name}${attrs}>${escapeText(e.text)}</${e.name}>`);
  } else if (e.children.length === 0) {
    out.push(`${pad}<${e.name}${attrs}/>`);
  } else {
    out.push(`${pad}<${e.name}${attrs}>`);
    for (const c of e.children) render(c, depth + 1, out);
    out.push(`${pad}</${e.name}>`);
  }
}

/** Serialises a document with an XML declaration and a final newline. */
export function renderXml(root: XmlElement): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  render(root, 0, out);
  return `${out.join('\n')}\n`;
}

/** An ISO 20022 Document element in the namespace of `messageDefinitionId`. */
export function isoDocument(messageDefinitionId: string, message: XmlElement): XmlElement {
  return el('Document', [message], [['xmlns', `urn:iso:std:iso:20022:tech:xsd:${messageDefinitionId}`]]);
}
