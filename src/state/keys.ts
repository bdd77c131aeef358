// The persistent key scheme of the world state (README.md §Key scheme): one byte naming the table,
// then the row id as UTF-8. Keys sort bytewise, so a table is one contiguous range and the order of
// `changes()` and `entries()` does not depend on how the in-memory maps were built.

export const TABLE_TAGS = {
  domain: 0x01,
  account: 0x02,
  assetDefinition: 0x03,
  asset: 0x04,
  nft: 0x05,
  role: 0x06,
  accountPermissions: 0x07,
  accountRoles: 0x08,
  peer: 0x09,
  upgrade: 0x0a,
  parameters: 0x0b,
  meta: 0x0c,
  conferenceCall: 0x0d,
  conferenceRelay: 0x0e,
  nullifier: 0x0f,
  shieldedPool: 0x10,
  accountAlias: 0x11,
  aliasCounter: 0x12,
  assetAlias: 0x13,
  multisigAccount: 0x14,
  multisigProposal: 0x15,
  assetControl: 0x17,
  definitionControl: 0x18,
  trigger: 0x19,
  triggerDue: 0x1a,
  subscriptionPlan: 0x1b,
  subscription: 0x1c,
} as const;
export type TableName = keyof typeof TABLE_TAGS;

/** Singleton tables (parameters, meta) hold one row under the empty id. */
export const SINGLETON_ID = '';

const utf8 = new TextEncoder();
const utf8Strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function stateKey(tag: number, id: string): Uint8Array {
  const idBytes = utf8.encode(id);
  const key = new Uint8Array(1 + idBytes.length);
  key[0] = tag;
  key.set(idBytes, 1);
  return key;
}

/** Splits a stored key; undefined when it is empty or its id is not valid UTF-8 (never trusted blindly). */
export function parseStateKey(key: Uint8Array): { tag: number; id: string } | undefined {
  if (key.length === 0) return undefined;
  try {
    return { tag: key[0]!, id: utf8Strict.decode(key.subarray(1)) };
  } catch {
    return undefined;
  }
}
