// Register* instructions (README.md §Instructions). Check order: parent exists → permission → id free →
// argument checks. The new object's owner is the transaction authority.

import { blsVerifyPossession } from '../crypto/bls.js';
import { parseAccountId, parseDefinitionId, parseNftId } from '../model/ids.js';
import { PublicKeyText, parsePublicKey } from '../model/keys.js';
import { nameProblem } from '../model/names.js';
import { NUMERIC_SCALE_MAX } from '../model/numeric.js';
import { type Permission, permissionKey } from '../model/permissions.js';
import { authorize, authorizeEscalation, permissionProblem } from './authorize.js';
import { type ExecContext, type Fail, fail, type Handler } from './exec-context.js';
import { copyMetadata, metadataProblem } from './validate.js';

const MINTABLE_KINDS: readonly string[] = ['Infinitely', 'Once', 'Not'];

/** Largest peer address in bytes (model/entities.ts PeerCodec). */
export const PEER_ADDRESS_BYTES_MAX = 256;

/** The canonical text of a public key, or undefined when `text` is not one. */
export function canonicalPublicKey(text: string): string | undefined {
  try {
    return PublicKeyText.fromJson(text, '');
  } catch {
    return undefined;
  }
}

function domainMissing(x: ExecContext, domain: string): Fail | undefined {
  return x.t.domain.has(domain) ? undefined : fail('domain_not_found', `no domain ${domain}`);
}

function metadataFail(m: Parameters<typeof metadataProblem>[0]): Fail | undefined {
  const p = metadataProblem(m);
  return p === undefined ? undefined : fail('execution_limit', p);
}

export const registerDomain: Handler<'RegisterDomain'> = (x, ins) => {
  const p = nameProblem(ins.id);
  if (p !== undefined) return fail('invalid_parameter', `domain id: ${p}`);
  const denied = authorize(x, [], 'CanRegisterDomain');
  if (denied) return denied;
  if (x.t.domain.has(ins.id)) return fail('already_exists', `domain ${ins.id} exists`);
  const m = metadataFail(ins.metadata);
  if (m) return m;
  x.t.domain.set(ins.id, { id: ins.id, ownedBy: x.authority, metadata: copyMetadata(ins.metadata) });
  x.emit({ kind: 'DomainCreated', id: ins.id, owner: x.authority });
  return undefined;
};

export const registerAccount: Handler<'RegisterAccount'> = (x, ins) => {
  const parts = parseAccountId(ins.id);
  if (parts === undefined || `${parts.signatory}@${parts.domain}` !== ins.id) {
    return fail('invalid_parameter', `account id ${ins.id} is not canonical`);
  }
  const missing = domainMissing(x, parts.domain);
  if (missing) return missing;
  const owner = x.t.domain.get(parts.domain)!.ownedBy;
  const denied = authorize(x, [owner], 'CanRegisterAccountInDomain', parts.domain);
  if (denied) return denied;
  if (x.t.account.has(ins.id)) return fail('already_exists', `account ${ins.id} exists`);
  const m = metadataFail(ins.metadata);
  if (m) return m;
  x.t.account.set(ins.id, { id: ins.id, metadata: copyMetadata(ins.metadata) });
  x.emit({ kind: 'AccountCreated', id: ins.id });
  return undefined;
};

export const registerAssetDefinition: Handler<'RegisterAssetDefinition'> = (x, ins) => {
  const parts = parseDefinitionId(ins.id);
  if (parts === undefined) return fail('invalid_parameter', `asset definition id ${ins.id} is malformed`);
  const missing = domainMissing(x, parts.domain);
  if (missing) return missing;
  const owner = x.t.domain.get(parts.domain)!.ownedBy;
  const denied = authorize(x, [owner], 'CanRegisterAssetDefinitionInDomain', parts.domain);
  if (denied) return denied;
  if (x.t.assetDefinition.has(ins.id)) return fail('already_exists', `asset definition ${ins.id} exists`);
  if (!Number.isInteger(ins.scale) || ins.scale < 0 || ins.scale > NUMERIC_SCALE_MAX) {
    return fail('invalid_parameter', `scale ${ins.scale} is outside 0..${NUMERIC_SCALE_MAX}`);
  }
  if (!MINTABLE_KINDS.includes(ins.mintable.kind)) return fail('invalid_parameter', 'unknown mintable kind');
  const m = metadataFail(ins.metadata);
  if (m) return m;
  x.t.assetDefinition.set(ins.id, {
    id: ins.id,
    scale: ins.scale,
    mintable: { kind: ins.mintable.kind },
    totalQuantity: { mantissa: 0n, scale: ins.scale },
    ownedBy: x.authority,
    metadata: copyMetadata(ins.metadata),
  });
  x.emit({ kind: 'AssetDefinitionCreated', id: ins.id, owner: x.authority });
  return undefined;
};

export const registerNft: Handler<'RegisterNft'> = (x, ins) => {
  const parts = parseNftId(ins.id);
  if (parts === undefined) return fail('invalid_parameter', `NFT id ${ins.id} is malformed`);
  const missing = domainMissing(x, parts.domain);
  if (missing) return missing;
  const denied = authorize(x, [x.t.domain.get(parts.domain)!.ownedBy]);
  if (denied) return denied;
  if (x.t.nft.has(ins.id)) return fail('already_exists', `NFT ${ins.id} exists`);
  const m = metadataFail(ins.content);
  if (m) return m;
  x.t.nft.set(ins.id, { id: ins.id, content: copyMetadata(ins.content), ownedBy: x.authority });
  x.emit({ kind: 'NftCreated', id: ins.id, owner: x.authority });
  return undefined;
};

/** Sorted by permission key without duplicates: one role has one encoding whatever the input order. */
export function canonicalPermissions(ps: readonly Permission[]): Permission[] {
  const byKey = new Map<string, Permission>();
  for (const p of ps) byKey.set(permissionKey(p), { name: p.name, payload: structuredClone(p.payload) });
  return [...byKey.keys()].sort().map((k) => byKey.get(k)!);
}

export const registerRole: Handler<'RegisterRole'> = (x, ins) => {
  const p = nameProblem(ins.id);
  if (p !== undefined) return fail('invalid_parameter', `role id: ${p}`);
  const denied = authorize(x, [], 'CanManageRoles') ?? authorizeEscalation(x, ins.permissions);
  if (denied) return denied;
  if (x.t.role.has(ins.id)) return fail('already_exists', `role ${ins.id} exists`);
  for (const perm of ins.permissions) {
    const problem = permissionProblem(perm);
    if (problem !== undefined) return fail('invalid_parameter', problem);
  }
  x.t.role.set(ins.id, { id: ins.id, permissions: canonicalPermissions(ins.permissions) });
  x.emit({ kind: 'RoleCreated', id: ins.id });
  return undefined;
};

/**
 * Registers a peer with its BLS consensus key. Check order: peer id canonical → permission → peer id
 * free (a disabled peer keeps its row: ids are never reused) → address length → BLS key canonical and
 * unused (ever) → proof of possession. Genesis peers are registered at height 0, so they are active from
 * block 1; later ones at the block's height, active from the next (docs/data-model.md "Peers").
 */
export const registerPeer: Handler<'RegisterPeer'> = (x, ins) => {
  if (canonicalPublicKey(ins.peer) !== ins.peer) {
    return fail('invalid_parameter', `peer ${ins.peer} is not a public key in canonical form`);
  }
  const denied = authorize(x, [], 'CanManagePeers');
  if (denied) return denied;
  if (x.t.peer.has(ins.peer)) return fail('already_exists', `peer ${ins.peer} exists`);
  if (new TextEncoder().encode(ins.address).length > PEER_ADDRESS_BYTES_MAX) {
    return fail('invalid_parameter', `peer address longer than ${PEER_ADDRESS_BYTES_MAX} bytes`);
  }
  const key = parsePublicKey(ins.blsKey);
  if (key === undefined || key.algorithm !== 'bls12_381' || canonicalPublicKey(ins.blsKey) !== ins.blsKey) {
    return fail('invalid_parameter', `bls_key ${ins.blsKey} is not a BLS12-381 public key in canonical form`);
  }
  const holders = x.t.peer.children('peersByBlsKey', ins.blsKey);
  if (holders.length > 0) return fail('already_exists', `bls_key already used by peer ${holders[0]}`);
  if (!blsVerifyPossession(key.bytes, ins.pop)) {
    return fail('invalid_proof_of_possession', `pop does not verify against bls_key ${ins.blsKey}`);
  }
  const registeredAt = x.block.genesis ? 0 : x.block.height;
  x.t.peer.set(ins.peer, {
    id: ins.peer,
    address: ins.address,
    blsKey: ins.blsKey,
    registeredAt,
    activeFrom: registeredAt + 1,
  });
  x.emit({ kind: 'PeerAdded', peer: ins.peer });
  return undefined;
};
