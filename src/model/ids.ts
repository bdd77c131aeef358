// Entity identifiers and their text forms (docs/data-model.md §Identifiers):
//   domain           wonderland
//   account          <public key>@<domain>            ed0120…@wonderland
//   asset definition <name>#<domain>                  rose#wonderland
//   asset            <definition>#<account>           rose#wonderland#ed0120…@wonderland
//   NFT              <name>$<domain>                  deed$wonderland
//   role, peer       <name>, <public key>
// TypeScript and JSON hold ids as canonical strings; the wire holds the structured form.

import type { Codec } from '../codec/codec.js';
import { struct } from '../codec/compound.js';
import { string } from '../codec/primitives.js';
import type { Reader } from '../codec/reader.js';
import { textType } from '../codec/text.js';
import type { Writer } from '../codec/writer.js';
import {
  BLS_TEXT,
  canonicalPublicKeyText,
  ED25519_TEXT,
  isCanonicalPublicKeyText,
  PublicKeyText,
  UPPER_HEX_CODE,
  writeCanonicalKey,
  writeCanonicalKeyAt,
} from './keys.js';
import { NAME_BYTES_MAX, Name, nameProblem, writePlainAsciiName } from './names.js';

/** An id whose text form is a single name. */
function nameId(name: string): Codec<string> {
  return textType<string>({
    name,
    base: string(NAME_BYTES_MAX),
    format: 'a name',
    parse: (t) => t,
    print: (t) => t,
    check: nameProblem,
  });
}

export const DomainId = nameId('DomainId');
export const RoleId = nameId('RoleId');

export interface AccountParts {
  signatory: string;
  domain: string;
}

/**
 * Splits '<public key>@<domain>' and canonicalises the key; undefined when malformed. Runs for every id
 * of every transaction, so an already canonical key (the usual case) is checked by one scan, not parsed.
 */
export function parseAccountId(text: string): AccountParts | undefined {
  const at = text.lastIndexOf('@');
  if (at <= 0 || at === text.length - 1) return undefined;
  const domain = text.slice(at + 1);
  if (nameProblem(domain) !== undefined) return undefined;
  const signatory = canonicalPublicKeyText(text.slice(0, at));
  return signatory === undefined ? undefined : { signatory, domain };
}

/** The canonical text of an account id, or undefined when malformed (the id itself when canonical). */
export function canonicalAccountId(text: string): string | undefined {
  const a = parseAccountId(text);
  if (a === undefined) return undefined;
  // Same length and same domain means the key part was already canonical: no new string.
  return a.signatory.length + 1 + a.domain.length === text.length && text.startsWith(a.signatory)
    ? text
    : accountId(a.signatory, a.domain);
}

/**
 * Reads a two-part id straight to its text, as `print(base.decode(r))` would (the parts' own checks run,
 * the struct's depth is entered) without the intermediate parts object: ids are read for every
 * transaction of every block.
 */
function joinParts(left: Codec<string>, sep: string, right: Codec<string>): (r: Reader) => string {
  return (r) => {
    r.enter();
    const a = left.decode(r);
    const b = right.decode(r);
    r.leave();
    return a + sep + b;
  };
}

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

/** AccountId's decodeText: the usual id directly, anything else through its parts. */
const readAccountParts = joinParts(PublicKeyText, '@', DomainId);
function readAccount(r: Reader): string {
  return readUsualAccount(r) ?? readAccountParts(r);
}

// Encoding fast paths (`encodeText`): a text already in canonical form is written from its characters,
// after the same checks the general path makes; any other text returns false and takes that path.

/** The key and domain of a canonical account id in text[from..]; undefined otherwise. */
function canonicalAccountParts(text: string, from: number): { key: string; domain: string } | undefined {
  const at = text.lastIndexOf('@');
  if (at <= from || at === text.length - 1) return undefined;
  const key = text.slice(from, at);
  const domain = text.slice(at + 1);
  return nameProblem(domain) === undefined && isCanonicalPublicKeyText(key) ? { key, domain } : undefined;
}

/**
 * The account id text[from..] written from its characters in one pass, no substrings:
 * the key's hex digits and a plain ASCII domain go straight into the writer. Any other
 * domain takes the checks of the general path here. False, the writer's position unmoved, when the
 * text is not a canonical account id.
 */
function writeAccountAt(w: Writer, text: string, from: number): boolean {
  // The usual id, an Ed25519 key text, '@' and a plain ASCII domain, needs no search for its '@': a
  // plain name holds none, so the one after the key is the last one. Anything else is searched.
  const usualAt = from + ED25519_TEXT.chars;
  if (text.charCodeAt(usualAt) === 0x40) {
    const start = w.pos;
    if (writeCanonicalKeyAt(w, text, from, usualAt) && writePlainAsciiName(w, text, usualAt + 1, text.length))
      return true;
    w.pos = start;
  }
  const at = text.lastIndexOf('@');
  if (at <= from || at === text.length - 1) return false;
  const start = w.pos;
  if (!writeCanonicalKeyAt(w, text, from, at)) return false;
  if (writePlainAsciiName(w, text, at + 1, text.length)) return true;
  const domain = text.slice(at + 1);
  if (nameProblem(domain) !== undefined) {
    w.pos = start;
    return false;
  }
  w.string(domain);
  return true;
}

function writeAccount(w: Writer, text: string): boolean {
  return writeAccountAt(w, text, 0);
}

/** '<name><sep><domain>' written as its two names. */
function writeTwoNames(w: Writer, text: string, sep: string): boolean {
  const parts = twoNames(text, sep);
  if (parts === undefined) return false;
  w.string(parts.name);
  w.string(parts.domain);
  return true;
}

/** '<name>#<domain>#<account id>' written as definition name, definition domain, account key, domain. */
function writeAsset(w: Writer, text: string): boolean {
  const first = text.indexOf('#');
  const second = first < 0 ? -1 : text.indexOf('#', first + 1);
  if (second < 0) return false;
  // The usual id, plain ASCII names and a canonical account, is written in place in one pass.
  const start = w.pos;
  if (
    writePlainAsciiName(w, text, 0, first) &&
    writePlainAsciiName(w, text, first + 1, second) &&
    writeAccountAt(w, text, second + 1)
  ) {
    return true;
  }
  w.pos = start;
  const name = text.slice(0, first);
  const domain = text.slice(first + 1, second);
  if (nameProblem(name) !== undefined || nameProblem(domain) !== undefined) return false;
  // Every part is checked before anything is written: writing a name can itself fail (a lone surrogate
  // has no UTF-8 form), and the general path reports a malformed account before that.
  const account = canonicalAccountParts(text, second + 1);
  if (account === undefined) return false;
  w.string(name);
  w.string(domain);
  writeCanonicalKey(w, account.key);
  w.string(account.domain);
  return true;
}

export const AccountId: Codec<string> = textType<{ signatory: string; domain: string }>({
  name: 'AccountId',
  base: struct('AccountIdParts', { signatory: PublicKeyText, domain: DomainId }),
  format: '<public key>@<domain>',
  parse: parseAccountId,
  print: (v) => `${v.signatory}@${v.domain}`,
  encodeText: writeAccount,
  decodeText: readAccount,
});

export function accountId(signatory: string, domain: string): string {
  return `${signatory}@${domain}`;
}

/** Splits '<left><sep><right>' at its only `sep`, both sides valid names; undefined otherwise. */
function twoNames(text: string, sep: string): { name: string; domain: string } | undefined {
  const i = text.indexOf(sep);
  if (i < 0 || text.indexOf(sep, i + 1) >= 0) return undefined;
  const name = text.slice(0, i);
  const domain = text.slice(i + 1);
  if (nameProblem(name) !== undefined || nameProblem(domain) !== undefined) return undefined;
  return { name, domain };
}

export function parseDefinitionId(text: string): { name: string; domain: string } | undefined {
  return twoNames(text, '#');
}

export const AssetDefinitionId: Codec<string> = textType({
  name: 'AssetDefinitionId',
  base: struct('AssetDefinitionIdParts', { name: Name, domain: DomainId }),
  format: '<name>#<domain>',
  parse: parseDefinitionId,
  print: (v) => `${v.name}#${v.domain}`,
  encodeText: (w, text) => writeTwoNames(w, text, '#'),
  decodeText: joinParts(Name, '#', DomainId),
});

export function parseAssetId(text: string): { definition: string; account: string } | undefined {
  const first = text.indexOf('#');
  const second = first < 0 ? -1 : text.indexOf('#', first + 1);
  if (second < 0) return undefined;
  const definition = text.slice(0, second);
  if (parseDefinitionId(definition) === undefined) return undefined;
  const account = canonicalAccountId(text.slice(second + 1));
  return account === undefined ? undefined : { definition, account };
}

export function assetId(definition: string, account: string): string {
  return `${definition}#${account}`;
}

export const AssetId: Codec<string> = textType({
  name: 'AssetId',
  base: struct('AssetIdParts', { definition: AssetDefinitionId, account: AccountId }),
  format: '<definition name>#<definition domain>#<account id>',
  parse: parseAssetId,
  print: (v) => assetId(v.definition, v.account),
  encodeText: writeAsset,
  decodeText: joinParts(AssetDefinitionId, '#', AccountId),
});

export function parseNftId(text: string): { name: string; domain: string } | undefined {
  return twoNames(text, '$');
}

export const NftId: Codec<string> = textType({
  name: 'NftId',
  base: struct('NftIdParts', { name: Name, domain: DomainId }),
  format: '<name>$<domain>',
  parse: parseNftId,
  print: (v) => `${v.name}$${v.domain}`,
  encodeText: (w, text) => writeTwoNames(w, text, '$'),
  decodeText: joinParts(Name, '$', DomainId),
});

/** A peer is identified by its public key. */
export const PeerId = PublicKeyText;
