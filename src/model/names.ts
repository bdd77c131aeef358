// Names of domains, asset definitions, NFTs, roles and metadata keys (docs/data-model.md §Identifiers).
// A name is 1..128 bytes of UTF-8 without whitespace, control characters or the id separators '@', '#', '$'.

import type { Codec } from '../codec/codec.js';
import { string } from '../codec/primitives.js';
import { textType } from '../codec/text.js';

export const NAME_BYTES_MAX = 128;
const FORBIDDEN = /[\s@#$\p{Cc}]/u;
const enc = new TextEncoder();

/** Why `text` is not a valid name, or undefined when it is. */
export function nameProblem(text: string): string | undefined {
  if (text.length === 0) return 'empty';
  // UTF-8 takes at most 3 bytes per UTF-16 unit, so short names need no encoding to be measured.
  if (text.length > NAME_BYTES_MAX || (text.length * 3 > NAME_BYTES_MAX && enc.encode(text).length > NAME_BYTES_MAX)) {
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
