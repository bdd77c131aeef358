// Named limits of the ISO 20022 reader (by default: XML body 1 MiB, nesting ≤ 64, no DOCTYPE). Every limit
// is checked by the pre-scan in xml/scan.ts before the parser runs.

export interface XmlLimits {
  /** Largest body, in UTF-8 bytes. */
  readonly bodyBytesMax: number;
  /** Deepest element nesting; the root element is at depth 1. */
  readonly depthMax: number;
  /** Most elements in one document. */
  readonly elementsMax: number;
  /** Longest attribute value, in characters (before entity decoding). */
  readonly attributeValueCharsMax: number;
  /** Most attributes on one element (namespace declarations included). */
  readonly attributesPerElementMax: number;
}

export const DEFAULT_XML_LIMITS: XmlLimits = {
  bodyBytesMax: 1024 * 1024,
  depthMax: 64,
  elementsMax: 20_000,
  attributeValueCharsMax: 4096,
  attributesPerElementMax: 32,
};

/** Most validation errors reported for one message; the rest are dropped (the first ones are enough to fix). */
export const VALIDATION_ERRORS_MAX = 100;

/** Longest supplementary-data pin value (ledger, account or asset id), in characters. */
export const PIN_CHARS_MAX = 256;

export function resolveLimits(overrides: Partial<XmlLimits> | undefined): XmlLimits {
  return overrides === undefined ? DEFAULT_XML_LIMITS : { ...DEFAULT_XML_LIMITS, ...overrides };
}
