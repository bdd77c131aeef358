// Names of domains, asset definitions, NFTs, roles and metadata keys (docs/data-model.md §Identifiers).
// A name is 1..128 bytes of UTF-8 without whitespace, control characters or the id separators '@', '#', '$'.

import type { Codec } from '../codec/codec.js';
import { string } from '../codec/primitives.js';
import { textType } from '../codec/text.js';
import type { Writer } from '../codec/writer.js';

export const NAME_BYTES_MAX = 128;
const FORBIDDEN = /[\s@#$\p{Cc}]/u;
const enc = new TextEncoder();

/** True when every character is printable ASCII other than the separators: such a name needs no regex. */
function isPlainAsciiName(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // 0x21..0x7e is printable ASCII without space; 0x23 '#', 0x24 '$', 0x40 '@' are id separators.
    if (c < 0x21 || c > 0x7e || c === 0x23 || c === 0x24 || c === 0x40) return false;
  }
  return true;
}

/**
 * Writes text[from, to) as a name's wire form (a length-prefixed string) straight from its characters
 * when it is a plain ASCII name (1..128 printable ASCII characters, no separators), checking and
 * copying in one pass with no substring; false, the writer's position unmoved, for any other text,
 * which then takes the general path (`nameProblem`, then the string codec).
 */
export function writePlainAsciiName(w: Writer, text: string, from: number, to: number): boolean {
  const n = to - from;
  if (n <= 0 || n > NAME_BYTES_MAX) return false;
  const start = w.pos;
  w.ensure(2 + n);
  const b = w.buf;
  let p = w.pos;
  // The length prefix: one byte below 128, two for 128 (the largest n).
  if (n < 0x80) b[p++] = n;
  else {
    b[p++] = (n & 0x7f) | 0x80;
    b[p++] = n >> 7;
  }
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x21 || c > 0x7e || c === 0x23 || c === 0x24 || c === 0x40) {
      w.pos = start;
      return false;
    }
    b[p++] = c;
  }
  w.pos = p;
  return true;
}

/** Why `text` is not a valid name, or undefined when it is. */
export function nameProblem(text: string): string | undefined {
  if (text.length === 0) return 'empty';
  // Names are checked for every id of every transaction; the usual short ASCII name is decided by one
  // scan (at most 128 ASCII characters are at most 128 bytes), anything else by the full rules below.
  if (text.length <= NAME_BYTES_MAX && isPlainAsciiName(text)) return undefined;
  // UTF-8 takes at most 3 bytes per UTF-16 unit, so short names need no encoding to be measured.
  if (
    text.length > NAME_BYTES_MAX ||
    (text.length * 3 > NAME_BYTES_MAX && enc.encode(text).length > NAME_BYTES_MAX)
  ) {
    return `longer than ${NAME_BYTES_MAX} bytes`;
  }
  if (FORBIDDEN.test(text)) return "contains whitespace, a control character, '@', '#' or '$'";
  return undefined;
}

export function isName(text: string): boolean {
  return nameProblem(text) === undefined;
}

/** A validated name. Wire form: a length-prefixed UTF-8 string. */
export const Name: Codec<string> = textType<string>({
  name: 'Name',
  base: string(NAME_BYTES_MAX),
  format: "1..128 bytes, no whitespace, control characters, '@', '#' or '$'",
  parse: (t) => t,
  print: (t) => t,
  check: nameProblem,
});
