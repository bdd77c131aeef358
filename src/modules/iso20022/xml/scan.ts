// The one pass over an XML body (README "Hardened parsing"). Linear, no recursion: it refuses
// DOCTYPE/ENTITY declarations and processing instructions, enforces every limit of limits.ts, checks
// that tags nest and match, resolves the namespaces of the first two levels (element names lose their
// prefixes in the tree, but the Document namespace names the message definition), and builds the
// element tree as it goes (tree.ts), so no second parser reads the body.
import { type IsoXmlError, type IsoXmlErrorCode, xmlError } from '../errors.js';
import type { XmlLimits } from '../limits.js';
import type { TreeError, XmlNode } from './node.js';
import { TreeBuilder } from './tree.js';

/** An element of the first two levels: the root and its children. */
export interface OutlineEntry {
  readonly depth: number;
  readonly localName: string;
  /** The resolved namespace URI, or undefined when the element is in no namespace. */
  readonly namespace: string | undefined;
}

export type ScanResult =
  | { readonly ok: true; readonly outline: readonly OutlineEntry[]; readonly root: XmlNode }
  | { readonly ok: false; readonly error: IsoXmlError };

// Declarations are refused anywhere, even inside comments: XXE and entity expansion need them.
const FORBIDDEN_DECLARATION = /<!\s*(?:doctype|entity)/i;
// XML 1.0 §2.2 excludes these characters from documents altogether.
const INVALID_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;
// ASCII-only names are enough for ISO 20022 (all element names are ASCII); anything else is refused.
const NAME = /^[A-Za-z_][A-Za-z0-9_.-]*(?::[A-Za-z_][A-Za-z0-9_.-]*)?$/;
const NAME_SHOWN_MAX = 64;
// Local names the parser refuses (they would be keys of the JavaScript objects it builds). Refusing
// them here gives the error the offset of the tag, which the parser's exception lacks.
// All are at least 9 characters long, so shorter names skip the lookup (the element-flood path).
const RESERVED_LOCAL_NAMES: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

type Bindings = ReadonlyMap<string, string>;
const INITIAL_BINDINGS: Bindings = new Map([['xml', 'http://www.w3.org/XML/1998/namespace']]);

interface Frame {
  readonly name: string;
  readonly bindings: Bindings;
}

class Failure {
  constructor(readonly error: IsoXmlError) {}
}

function fail(code: IsoXmlErrorCode, message: string, at: number): Failure {
  return new Failure(xmlError(code, message, `@${at}`));
}

function shown(name: string): string {
  return name.length > NAME_SHOWN_MAX ? `${name.slice(0, NAME_SHOWN_MAX)}…` : name;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

export function scanXml(body: string, limits: XmlLimits): ScanResult {
  // A UTF-16 unit never encodes to fewer than one byte, so the length test is a safe shortcut.
  if (body.length > limits.bodyBytesMax || Buffer.byteLength(body, 'utf8') > limits.bodyBytesMax) {
    return {
      ok: false,
      error: xmlError('iso_xml_too_large', `body exceeds ${limits.bodyBytesMax} bytes (bodyBytesMax)`),
    };
  }
  const declaration = FORBIDDEN_DECLARATION.exec(body);
  if (declaration !== null) {
    const e = fail(
      'iso_xml_forbidden_construct',
      'DOCTYPE and ENTITY declarations are refused',
      declaration.index,
    );
    return { ok: false, error: e.error };
  }
  const invalid = INVALID_CHAR.exec(body);
  if (invalid !== null) {
    return {
      ok: false,
      error: fail('iso_xml_malformed', 'character not allowed in XML', invalid.index).error,
    };
  }
  // An element flood is refused by a scan that builds nothing, as cheaply as before the tree was built
  // here; a body it passes (its `<` were in comments or CDATA) is read again with the tree.
  if (startTagsAbove(body, limits.elementsMax)) {
    const dry = new Scanner(body, limits, false).run();
    if (dry instanceof Failure) return { ok: false, error: dry.error };
  }
  const scanner = new Scanner(body, limits, true);
  const result = scanner.run();
  if (result instanceof Failure) return { ok: false, error: result.error };
  // A tree refusal (an unknown entity, text mixed with CDATA) counts only once the scan passed: the
  // scan's own refusals come first, whatever their place in the body.
  const refused = scanner.treeError;
  if (refused !== undefined) {
    return { ok: false, error: xmlError('iso_xml_malformed', refused.message, refused.path) };
  }
  const root = scanner.tree?.result();
  if (root === undefined) return { ok: false, error: xmlError('iso_xml_malformed', 'no root element') };
  return { ok: true, outline: result, root };
}

class Scanner {
  private readonly stack: Frame[] = [];
  private readonly outline: OutlineEntry[] = [];
  private elements = 0;
  private rootSeen = false;
  private rootClosed = false;
  /** The element tree, built in the same pass (tree.ts), unless the scan only checks. */
  readonly tree: TreeBuilder | undefined;
  /** The first refusal of the tree builder, reported if the scan itself passes. */
  treeError: TreeError | undefined;

  constructor(
    private readonly body: string,
    private readonly limits: XmlLimits,
    build: boolean,
  ) {
    this.tree = build ? new TreeBuilder() : undefined;
  }

  run(): OutlineEntry[] | Failure {
    const body = this.body;
    let i = body.charCodeAt(0) === 0xfeff ? 1 : 0;
    // The XML declaration is the one processing-instruction-like construct allowed, and only first.
    if (body.startsWith('<?xml', i) && isSpace(body.charCodeAt(i + 5))) {
      const end = body.indexOf('?>', i);
      if (end < 0) return fail('iso_xml_malformed', 'unterminated XML declaration', i);
      i = end + 2;
    }
    for (;;) {
      const lt = body.indexOf('<', i);
      const textEnd = lt < 0 ? body.length : lt;
      if (this.stack.length === 0) {
        for (let k = i; k < textEnd; k++) {
          if (!isSpace(body.charCodeAt(k)))
            return fail('iso_xml_malformed', 'text outside the root element', k);
        }
      } else if (textEnd > i) this.tree?.text(body.slice(i, textEnd));
      if (lt < 0) break;
      const next = this.markup(lt);
      if (next instanceof Failure) return next;
      i = next;
    }
    if (this.stack.length > 0) {
      return fail(
        'iso_xml_malformed',
        `element <${shown(this.stack.at(-1)!.name)}> is not closed`,
        body.length,
      );
    }
    if (!this.rootSeen) return fail('iso_xml_malformed', 'no root element', body.length);
    return this.outline;
  }

  private markup(lt: number): number | Failure {
    const body = this.body;
    const c1 = body.charCodeAt(lt + 1);
    if (c1 === 0x3f /* ? */)
      return fail('iso_xml_forbidden_construct', 'processing instructions are refused', lt);
    if (c1 === 0x21 /* ! */) {
      if (body.startsWith('<!--', lt)) {
        const end = body.indexOf('-->', lt + 4);
        return end < 0 ? fail('iso_xml_malformed', 'unterminated comment', lt) : end + 3;
      }
      if (body.startsWith('<![CDATA[', lt)) {
        if (this.stack.length === 0) return fail('iso_xml_malformed', 'CDATA outside the root element', lt);
        const end = body.indexOf(']]>', lt + 9);
        if (end < 0) return fail('iso_xml_malformed', 'unterminated CDATA section', lt);
        this.tree?.cdata(body.slice(lt + 9, end));
        return end + 3;
      }
      return fail('iso_xml_forbidden_construct', 'markup declarations are refused', lt);
    }
    if (c1 === 0x2f /* / */) return this.endTag(lt);
    return this.startTag(lt);
  }

  private endTag(lt: number): number | Failure {
    const gt = this.body.indexOf('>', lt + 2);
    if (gt < 0) return fail('iso_xml_malformed', 'unterminated end tag', lt);
    const name = this.body.slice(lt + 2, gt).trimEnd();
    const top = this.stack.pop();
    if (top === undefined) return fail('iso_xml_malformed', `unexpected end tag </${shown(name)}>`, lt);
    if (top.name !== name) {
      return fail('iso_xml_malformed', `expected </${shown(top.name)}>, found </${shown(name)}>`, lt);
    }
    if (this.stack.length === 0) this.rootClosed = true;
    this.built(this.tree?.close());
    return gt + 1;
  }

  private startTag(lt: number): number | Failure {
    const body = this.body;
    if (this.rootClosed) return fail('iso_xml_malformed', 'content after the root element', lt);
    let j = lt + 1;
    while (j < body.length && !isNameEnd(body.charCodeAt(j))) j++;
    const name = body.slice(lt + 1, j);
    if (!NAME.test(name)) return fail('iso_xml_malformed', `invalid element name "${shown(name)}"`, lt);
    this.elements += 1;
    if (this.elements > this.limits.elementsMax) {
      return fail('iso_xml_too_large', `more than ${this.limits.elementsMax} elements (elementsMax)`, lt);
    }
    const depth = this.stack.length + 1;
    if (depth > this.limits.depthMax) {
      return fail('iso_xml_too_deep', `nesting deeper than ${this.limits.depthMax} (depthMax)`, lt);
    }
    const parsed = this.attributes(j);
    if (parsed instanceof Failure) return parsed;
    const parent = this.stack.at(-1)?.bindings ?? INITIAL_BINDINGS;
    const bindings = parsed.declarations.size === 0 ? parent : new Map([...parent, ...parsed.declarations]);
    const colon = name.indexOf(':');
    const prefix = colon < 0 ? '' : name.slice(0, colon);
    const namespace = bindings.get(prefix);
    if (prefix !== '' && namespace === undefined) {
      return fail('iso_xml_malformed', `unbound namespace prefix "${shown(prefix)}"`, lt);
    }
    if (name.length - colon > 9 && RESERVED_LOCAL_NAMES.has(colon < 0 ? name : name.slice(colon + 1))) {
      return fail('iso_xml_malformed', `reserved element name "${name}"`, lt);
    }
    if (depth <= 2) {
      this.outline.push({ depth, localName: name.slice(colon + 1), namespace: namespace || undefined });
    }
    if (depth === 1) this.rootSeen = true;
    this.built(this.tree?.open(name, parsed.attributes));
    if (parsed.selfClosing) {
      this.built(this.tree?.close());
      if (depth === 1) this.rootClosed = true;
    } else {
      this.stack.push({ name, bindings });
    }
    return parsed.next;
  }

  private built(e: TreeError | undefined): void {
    if (e !== undefined) this.treeError ??= e;
  }

  /** Reads the attributes of a start tag from `j` (just after the name) to its closing `>` or `/>`. */
  private attributes(from: number):
    | {
        next: number;
        selfClosing: boolean;
        declarations: Map<string, string>;
        attributes: Array<readonly [string, string]>;
      }
    | Failure {
    const body = this.body;
    const declarations = new Map<string, string>();
    const attributes: Array<readonly [string, string]> = [];
    const seen = new Set<string>();
    let j = from;
    for (;;) {
      const spaced = j < body.length && isSpace(body.charCodeAt(j));
      while (j < body.length && isSpace(body.charCodeAt(j))) j++;
      if (j >= body.length) return fail('iso_xml_malformed', 'unterminated start tag', from);
      const c = body.charCodeAt(j);
      if (c === 0x3e /* > */) return { next: j + 1, selfClosing: false, declarations, attributes };
      if (c === 0x2f /* / */) {
        if (body.charCodeAt(j + 1) !== 0x3e) return fail('iso_xml_malformed', 'expected "/>"', j);
        return { next: j + 2, selfClosing: true, declarations, attributes };
      }
      if (!spaced) return fail('iso_xml_malformed', 'attributes must be separated by white space', j);
      const attr = this.attribute(j);
      if (attr instanceof Failure) return attr;
      if (seen.has(attr.name))
        return fail('iso_xml_malformed', `duplicate attribute "${shown(attr.name)}"`, j);
      seen.add(attr.name);
      attributes.push([attr.name, attr.value]);
      if (seen.size > this.limits.attributesPerElementMax) {
        return fail('iso_xml_too_large', `more than ${this.limits.attributesPerElementMax} attributes`, j);
      }
      if (attr.name === 'xmlns') declarations.set('', attr.value);
      else if (attr.name.startsWith('xmlns:')) {
        // Namespaces in XML 1.0 §3: a prefix may not be undeclared by an empty value.
        if (attr.value === '') return fail('iso_xml_malformed', 'empty namespace for a prefix', j);
        declarations.set(attr.name.slice(6), attr.value);
      }
      j = attr.next;
    }
  }

  private attribute(from: number): { name: string; value: string; next: number } | Failure {
    const body = this.body;
    let j = from;
    while (j < body.length && !isNameEnd(body.charCodeAt(j)) && body.charCodeAt(j) !== 0x3d) j++;
    const name = body.slice(from, j);
    if (!NAME.test(name)) return fail('iso_xml_malformed', `invalid attribute name "${shown(name)}"`, from);
    while (j < body.length && isSpace(body.charCodeAt(j))) j++;
    if (body.charCodeAt(j) !== 0x3d /* = */)
      return fail('iso_xml_malformed', 'expected "=" after attribute name', j);
    j++;
    while (j < body.length && isSpace(body.charCodeAt(j))) j++;
    const quote = body.charCodeAt(j);
    if (quote !== 0x22 && quote !== 0x27)
      return fail('iso_xml_malformed', 'attribute value must be quoted', j);
    const close = body.indexOf(quote === 0x22 ? '"' : "'", j + 1);
    if (close < 0) return fail('iso_xml_malformed', 'unterminated attribute value', j);
    if (close - j - 1 > this.limits.attributeValueCharsMax) {
      return fail(
        'iso_xml_too_large',
        `attribute value longer than ${this.limits.attributeValueCharsMax} characters`,
        j,
      );
    }
    const value = body.slice(j + 1, close);
    if (value.includes('<')) return fail('iso_xml_malformed', '"<" in an attribute value', j);
    return { name, value, next: close + 1 };
  }
}

/** True when the body has more `<` that may open an element than `max` (an upper bound on its elements). */
function startTagsAbove(body: string, max: number): boolean {
  let n = 0;
  for (let i = body.indexOf('<'); i >= 0; i = body.indexOf('<', i + 1)) {
    const c = body.charCodeAt(i + 1);
    if (c !== 0x2f /* / */ && c !== 0x21 /* ! */ && c !== 0x3f /* ? */ && ++n > max) return true;
  }
  return false;
}

function isNameEnd(c: number): boolean {
  return isSpace(c) || c === 0x2f /* / */ || c === 0x3e /* > */;
}
