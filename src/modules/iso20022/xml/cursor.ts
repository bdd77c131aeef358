// A read position in an XmlNode tree that always knows its XPath, even when the element is absent,
// so a missing required field can be reported at the exact path where it belongs.
//
// Path convention (README "Error paths"): `/Document/...` or `/AppHdr/...` whatever envelope wraps
// them; a repeated element carries a 1-based `[n]` only when it occurs more than once, so a
// single-transaction message reads `/Document/FIToFICstmrCdtTrf/CdtTrfTxInf/DbtrAcct/Id/IBAN`.

import type { XmlNode } from './node.js';

/** Something a field validator can read: a value and the path to report it under. */
export interface FieldSource {
  readonly path: string;
  text(): string | undefined;
}

export class XmlCursor implements FieldSource {
  constructor(
    readonly node: XmlNode | undefined,
    readonly path: string,
  ) {}

  get exists(): boolean {
    return this.node !== undefined;
  }

  /** The first child of that name (a cursor on nothing when absent). */
  child(name: string): XmlCursor {
    return new XmlCursor(this.node?.children.get(name)?.[0], `${this.path}/${name}`);
  }

  /** Descends through first children: `at('Id', 'IBAN')`. */
  at(...names: string[]): XmlCursor {
    let c: XmlCursor = this;
    for (const name of names) c = c.child(name);
    return c;
  }

  /** Every child of that name, each with its own indexed path. */
  all(name: string): XmlCursor[] {
    const list = this.node?.children.get(name) ?? [];
    if (list.length === 1) return [new XmlCursor(list[0], `${this.path}/${name}`)];
    return list.map((n, i) => new XmlCursor(n, `${this.path}/${name}[${i + 1}]`));
  }

  count(name: string): number {
    return this.node?.children.get(name)?.length ?? 0;
  }

  /** Text of the element; undefined when the element is absent or empty. */
  text(): string | undefined {
    const t = this.node?.text;
    return t === undefined || t === '' ? undefined : t;
  }

  attr(name: string): FieldSource {
    const node = this.node;
    return { path: `${this.path}/@${name}`, text: () => node?.attributes.get(name) || undefined };
  }

  /** The local names of the children, for choices (`Cd` or `Prtry`, `Unit` or `FaceAmt`). */
  childNames(): string[] {
    return this.node === undefined ? [] : [...this.node.children.keys()];
  }
}

/** A field source for the flat format: the path is the field name. */
export function flatField(path: string, value: unknown): FieldSource {
  return { path, text: () => (typeof value === 'string' && value !== '' ? value : undefined) };
}
