// SetKeyValue and RemoveKeyValue (README.md §Instructions) on domain, account, asset definition and NFT
// metadata (an NFT's metadata is its content). Owners: a domain's owner over its domain and everything
// in it, an account over itself, a definition's owner, an NFT's owner; others need CanModifyMetadata
// with {"target": "<id of the object>"}.

import type { Json } from '../codec/codec.js';
import { parseAccountId, parseDefinitionId, parseNftId } from '../model/ids.js';
import type { MetadataTarget } from '../model/instructions.js';
import { METADATA_ENTRIES_MAX, type Metadata } from '../model/metadata.js';
import { nameProblem } from '../model/names.js';
import { authorize } from './authorize.js';
import { type ExecContext, type Fail, fail, type Handler } from './exec-context.js';
import { jsonValueProblem, METADATA_VALUE_BYTES_MAX } from './validate.js';

interface TargetAccess {
  readonly metadata: Metadata;
  readonly owners: readonly (string | undefined)[];
  readonly write: (m: Metadata) => void;
}

function ownerOfDomain(x: ExecContext, domain: string | undefined): string | undefined {
  return domain === undefined ? undefined : x.t.domain.get(domain)?.ownedBy;
}

/** The target's metadata, who owns it, and how to store a new version; a *_not_found Fail when absent. */
function access(x: ExecContext, target: MetadataTarget): TargetAccess | Fail {
  const { id } = target;
  switch (target.kind) {
    case 'Domain': {
      const d = x.t.domain.get(id);
      if (d === undefined) return fail('domain_not_found', `no domain ${id}`);
      return {
        metadata: d.metadata,
        owners: [d.ownedBy],
        write: (metadata) => x.t.domain.set(id, { ...d, metadata }),
      };
    }
    case 'Account': {
      const a = x.t.account.get(id);
      if (a === undefined) return fail('account_not_found', `no account ${id}`);
      const owners = [id, ownerOfDomain(x, parseAccountId(id)?.domain)];
      return { metadata: a.metadata, owners, write: (metadata) => x.t.account.set(id, { ...a, metadata }) };
    }
    case 'AssetDefinition': {
      const d = x.t.assetDefinition.get(id);
      if (d === undefined) return fail('asset_definition_not_found', `no asset definition ${id}`);
      const owners = [d.ownedBy, ownerOfDomain(x, parseDefinitionId(id)?.domain)];
      return {
        metadata: d.metadata,
        owners,
        write: (metadata) => x.t.assetDefinition.set(id, { ...d, metadata }),
      };
    }
    case 'Nft': {
      const n = x.t.nft.get(id);
      if (n === undefined) return fail('nft_not_found', `no NFT ${id}`);
      const owners = [n.ownedBy, ownerOfDomain(x, parseNftId(id)?.domain)];
      return { metadata: n.content, owners, write: (content) => x.t.nft.set(id, { ...n, content }) };
    }
  }
}

function isFail(v: TargetAccess | Fail): v is Fail {
  return 'code' in v;
}

export const setKeyValue: Handler<'SetKeyValue'> = (x, ins) => {
  const t = access(x, ins.target);
  if (isFail(t)) return t;
  const denied = authorize(x, t.owners, 'CanModifyMetadata', ins.target.id);
  if (denied) return denied;
  const problem = nameProblem(ins.key) ?? jsonValueProblem(ins.value, METADATA_VALUE_BYTES_MAX);
  if (problem !== undefined) return fail('invalid_parameter', `metadata ${ins.key}: ${problem}`);
  if (!t.metadata.has(ins.key) && t.metadata.size >= METADATA_ENTRIES_MAX) {
    return fail('execution_limit', `metadata holds at most ${METADATA_ENTRIES_MAX} entries`);
  }
  const value = structuredClone(ins.value) as Json;
  t.write(new Map(t.metadata).set(ins.key, value));
  x.emit({ kind: 'MetadataSet', target: ins.target, key: ins.key, value });
  return undefined;
};

export const removeKeyValue: Handler<'RemoveKeyValue'> = (x, ins) => {
  const t = access(x, ins.target);
  if (isFail(t)) return t;
  const denied = authorize(x, t.owners, 'CanModifyMetadata', ins.target.id);
  if (denied) return denied;
  if (!t.metadata.has(ins.key)) return fail('metadata_key_not_found', `no metadata key ${ins.key}`);
  const next = new Map(t.metadata);
  next.delete(ins.key);
  t.write(next);
  x.emit({ kind: 'MetadataRemoved', target: ins.target, key: ins.key });
  return undefined;
};
