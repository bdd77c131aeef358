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
import { textType } from '../codec/text.js';
import { PublicKeyText, parsePublicKey } from './keys.js';
import { NAME_BYTES_MAX, Name, nameProblem } from './names.js';

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

/** Splits '<public key>@<domain>' and canonicalises the key; undefined when malformed. */
export function parseAccountId(text: string): AccountParts | undefined {
  const at = text.lastIndexOf('@');
  if (at <= 0 || at === text.length - 1) return undefined;
  const domain = text.slice(at + 1);
  if (nameProblem(domain) !== undefined) return undefined;
  const key = parsePublicKey(text.slice(0, at));
  if (key === undefined) return undefined;
  return { signatory: PublicKeyText.fromJson(text.slice(0, at), '') as string, domain };
}

export const AccountId: Codec<string> = textType<{ signatory: string; domain: string }>({
  name: 'AccountId',
  base: struct('AccountIdParts', { signatory: PublicKeyText, domain: DomainId }),
  format: '<public key>@<domain>',
  parse: parseAccountId,
  print: (v) => `${v.signatory}@${v.domain}`,
});

export function accountId(signatory: string, domain: string): string {
  return `${signatory}@${domain}`;
}

export function parseDefinitionId(text: string): { name: string; domain: string } | undefined {
  const parts = text.split('#');
  if (parts.length !== 2) return undefined;
  const [name, domain] = parts as [string, string];
  if (nameProblem(name) !== undefined || nameProblem(domain) !== undefined) return undefined;
  return { name, domain };
}

export const AssetDefinitionId: Codec<string> = textType({
  name: 'AssetDefinitionId',
  base: struct('AssetDefinitionIdParts', { name: Name, domain: DomainId }),
  format: '<name>#<domain>',
  parse: parseDefinitionId,
  print: (v) => `${v.name}#${v.domain}`,
});

export function parseAssetId(text: string): { definition: string; account: string } | undefined {
  const first = text.indexOf('#');
  const second = first < 0 ? -1 : text.indexOf('#', first + 1);
  if (second < 0) return undefined;
  const definition = text.slice(0, second);
  const account = text.slice(second + 1);
  if (parseDefinitionId(definition) === undefined || parseAccountId(account) === undefined) return undefined;
  return { definition, account: AccountId.fromJson(account, '') };
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
});

export function parseNftId(text: string): { name: string; domain: string } | undefined {
  const parts = text.split('$');
  if (parts.length !== 2) return undefined;
  const [name, domain] = parts as [string, string];
  if (nameProblem(name) !== undefined || nameProblem(domain) !== undefined) return undefined;
  return { name, domain };
}

export const NftId: Codec<string> = textType({
  name: 'NftId',
  base: struct('NftIdParts', { name: Name, domain: DomainId }),
  format: '<name>$<domain>',
  parse: parseNftId,
  print: (v) => `${v.name}$${v.domain}`,
});

/** A peer is identified by its public key. */
export const PeerId = PublicKeyText;
