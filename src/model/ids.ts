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
  canonicalPublicKeyText,
  ED25519_TEXT,
  isCanonicalPublicKeyText,
  PublicKeyText,
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
 * A reader of the usual account id straight to its text, installed by the node at start
 * (account-texts.ts `installAccountTexts`): undefined, the reader untouched, for an id it leaves to the
 * general path. Without one (the SDK's builds, which leave that file out) every id is read through its
 * parts; the text and the errors are the same either way.
 */
type UsualAccountReader = (r: Reader) => string | undefined;
let readUsualAccount: UsualAccountReader | undefined;

/** Installs (or, with undefined, removes) AccountId's reader of the usual id; account-texts.ts only. */
export function setUsualAccountReader(read: UsualAccountReader | undefined): void {
  readUsualAccount = read;
}

/** AccountId's decodeText: the usual id directly, anything else through its parts. */
const readAccountParts = joinParts(PublicKeyText, '@', DomainId);
function readAccount(r: Reader): string {
  return readUsualAccount?.(r) ?? readAccountParts(r);
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
