// The node's reader of the usual account id (ids.ts AccountId), installed at start: the usual id, a
// one-byte key tag, the key and a plain ASCII domain of one-byte length, is read straight to its text
// through a memo by wire bytes, instead of through its parts (key text, domain string, concatenation).
// The SDK's builds leave this file out (nothing the SDK imports reaches it) and read every id through its
// parts: the same texts and errors, at a few hundred bytes less of an application's startup code.
// The wire is untouched: this file only reads, and gives the text or error the general path gives
// (ids-fast-paths.test.ts).

import type { Reader } from '../codec/reader.js';
import { setUsualAccountReader } from './ids.js';
import { BLS_TEXT, ED25519_TEXT, UPPER_HEX_CODE } from './keys.js';

/**
 * The texts of recently read account ids, by their wire bytes: a direct-mapped cache like keys.ts's
 * PrintedKeys, one per key algorithm. A key's first bytes pick one of ACCOUNT_TEXT_MEMO_MAX slots; a slot
 * holds the last id read there (its key bytes in one flat array, compared in full, and its text, whose
 * domain characters are compared with the domain bytes). A hit gives back the very string read before
 * (authorities, destinations and the accounts inside asset ids recur); a miss builds the id's text in one
 * native call over its character codes, with no key text, domain string or concatenation in between, and
 * allocates nothing else. Memory is fixed.
 */
export const ACCOUNT_TEXT_MEMO_MAX = 4096;
/**
 * The slots in use adapt to the hit rate, judged every ACCOUNT_MEMO_WINDOW lookups: half or more hits
 * grow them fourfold (up to ACCOUNT_TEXT_MEMO_MAX), fewer shrink them fourfold (down to
 * ACCOUNT_TEXT_MEMO_MIN, which still catches an id read again within a transaction or two, as an asset
 * id's account after its authority). With few hits a large memo only keeps texts alive long enough to be
 * moved to the old generation by the collector before they are replaced; a small one lets them die young.
 */
export const ACCOUNT_TEXT_MEMO_MIN = 64;
export const ACCOUNT_MEMO_WINDOW = 512;
/** A module-local reference: the loop below reads it per byte. */
const HEX_CODE = new Uint8Array(UPPER_HEX_CODE);

/** Decodes the ASCII bytes of a text built below (TextDecoder makes a string faster than fromCharCode). */
const ASCII_TEXT = new TextDecoder();
/** The longest account text built directly: the BLS key text, '@' and a 127-byte domain. */
const ACCOUNT_TEXT_CHARS_MAX = BLS_TEXT.chars + 1 + 127;

class PrintedAccounts {
  readonly keyBytes: number;
  /** Index of the domain's first character in the text: the key text, then '@'. */
  readonly #domainFrom: number;
  readonly #prefixChars: number;
  /** Allocated on first use, as PrintedKeys. */
  #keys = new Uint8Array(0);
  #texts: (string | undefined)[] = [];
  /** Slots in use − 1 (a power of two − 1), and the current window's lookups and hits. */
  #mask = ACCOUNT_TEXT_MEMO_MAX - 1;
  #lookups = 0;
  #hits = 0;
  /**
   * The text's characters as ASCII bytes: the prefix and '@' in place, the hex digits and the domain
   * filled per miss; and a view of its first k bytes per text length k, made once (no view per miss).
   */
  readonly #chars = new Uint8Array(ACCOUNT_TEXT_CHARS_MAX);
  readonly #views: Uint8Array[] = [];

  constructor(form: { prefix: string; chars: number }) {
    this.keyBytes = (form.chars - form.prefix.length) / 2;
    this.#prefixChars = form.prefix.length;
    this.#domainFrom = form.chars + 1;
    for (let i = 0; i < form.prefix.length; i++) this.#chars[i] = form.prefix.charCodeAt(i);
    this.#chars[form.chars] = 0x40;
  }

  /** Slots in use (for tests). */
  get slots(): number {
    return this.#mask + 1;
  }

  /** The end of a window: grow or shrink the slots in use; texts beyond them are let go. */
  #judge(): void {
    const slots = this.#mask + 1;
    const next =
      2 * this.#hits >= this.#lookups
        ? Math.min(ACCOUNT_TEXT_MEMO_MAX, 4 * slots)
        : Math.max(ACCOUNT_TEXT_MEMO_MIN, slots / 4);
    if (next < slots) this.#texts.fill(undefined, next);
    this.#mask = next - 1;
    this.#lookups = 0;
    this.#hits = 0;
  }

  /**
   * The text of the account whose key is buf[keyAt, keyAt + keyBytes) and whose domain, already checked
   * to be a plain ASCII name of at most 127 bytes, is buf[domainAt, domainAt + domainBytes) (bounds
   * checked by the caller).
   */
  print(buf: Uint8Array, keyAt: number, domainAt: number, domainBytes: number): string {
    const n = this.keyBytes;
    if (this.#texts.length === 0) {
      this.#keys = new Uint8Array(ACCOUNT_TEXT_MEMO_MAX * n);
      this.#texts = new Array<string | undefined>(ACCOUNT_TEXT_MEMO_MAX).fill(undefined);
    }
    if (++this.#lookups === ACCOUNT_MEMO_WINDOW) this.#judge();
    const slot = (buf[keyAt]! | (buf[keyAt + 1]! << 8)) & this.#mask;
    const keys = this.#keys;
    const base = slot * n;
    const from = this.#domainFrom;
    const known = this.#texts[slot];
    if (known !== undefined && known.length === from + domainBytes) {
      let same = true;
      for (let i = 0; i < n; i++) {
        if (keys[base + i] !== buf[keyAt + i]) {
          same = false;
          break;
        }
      }
      for (let i = 0; same && i < domainBytes; i++) {
        if (known.charCodeAt(from + i) !== buf[domainAt + i]) same = false;
      }
      if (same) {
        this.#hits++;
        return known;
      }
    }
    const chars = this.#chars;
    for (let i = 0, c = this.#prefixChars; i < n; i++, c += 2) {
      const b = buf[keyAt + i]!;
      keys[base + i] = b;
      chars[c] = HEX_CODE[b >> 4]!;
      chars[c + 1] = HEX_CODE[b & 15]!;
    }
    for (let i = 0; i < domainBytes; i++) chars[from + i] = buf[domainAt + i]!;
    const length = from + domainBytes;
    let view = this.#views[length];
    if (view === undefined) {
      view = chars.subarray(0, length);
      this.#views[length] = view;
    }
    const text = ASCII_TEXT.decode(view);
    this.#texts[slot] = text;
    return text;
  }
}

const ED25519_ACCOUNTS = new PrintedAccounts(ED25519_TEXT);
const BLS_ACCOUNTS = new PrintedAccounts(BLS_TEXT);

/** The slots the memo of Ed25519 account texts uses now (for tests). */
export function accountTextMemoSlots(): number {
  return ED25519_ACCOUNTS.slots;
}

/**
 * Reads the usual account id, a one-byte key tag, the key, a plain ASCII domain of one-byte length, straight
 * to its text (PrintedAccounts); undefined, the reader untouched, for anything else (another tag,
 * too few bytes, a length or domain byte the general path would look at twice, too little depth left),
 * which then takes the general path and its errors. On success it has read exactly what the general path
 * reads and would have accepted: its struct and key levels fit in the depth left (both are left again),
 * the domain is within the limits and a valid name.
 */
function readUsualAccount(r: Reader): string | undefined {
  if (r.depthLeft() < 2) return undefined;
  const b = r.buf;
  const end = r.end;
  const p = r.pos;
  if (p >= end) return undefined;
  const tag = b[p];
  const printed = tag === 0 ? ED25519_ACCOUNTS : tag === 1 ? BLS_ACCOUNTS : undefined;
  if (printed === undefined) return undefined;
  const lengthAt = p + 1 + printed.keyBytes;
  if (lengthAt >= end) return undefined;
  // One length byte (below 0x80) is at most 127 bytes: under the name limit (128); the decoder's
  // bytesMax may still be lower.
  const n = b[lengthAt]!;
  if (n === 0 || n >= 0x80 || n > r.limits.bytesMax || end - (lengthAt + 1) < n) return undefined;
  const domainAt = lengthAt + 1;
  for (let i = domainAt; i < domainAt + n; i++) {
    const c = b[i]!;
    // As writePlainAsciiName: printable ASCII without space and the separators '#', '$', '@'.
    if (c < 0x21 || c > 0x7e || c === 0x23 || c === 0x24 || c === 0x40) return undefined;
  }
  r.pos = domainAt + n;
  return printed.print(b, p + 1, domainAt, n);
}

/**
 * Installs the reader above as AccountId's reader of the usual id (idempotent). The node calls it at
 * start (node/node.ts), as do the codec figure (bench/figures/codec.ts) and the tests of the fast paths.
 */
export function installAccountTexts(): void {
  setUsualAccountReader(readUsualAccount);
}
