// The content bundle instructions (docs/content.md §Instructions). Check order: RegisterContentBundle —
// the manifest (manifestProblem) → the access rule → a bundle of the same owner and manifest exists;
// SetContentBundleAccess and RetireContentBundle — the bundle exists → its owner's (or Admin's) authority
// → not retired → the access rule. Only the manifest is written: the files' bytes never reach the ledger.

import { authorize } from '../../state/authorize.js';
import { type ExecContext, type Fail, fail, type Handler } from '../../state/exec-context.js';
import {
  type ContentAccess,
  type ContentBundle,
  contentBundleId,
  manifestProblem,
  totalBytesOf,
} from './model.js';

const isFail = (v: unknown): v is Fail => typeof v === 'object' && v !== null && 'code' in v;

/** Why `access` cannot be set: an unknown definition or account, an empty or repeating list. */
export function accessProblem(x: ExecContext, access: ContentAccess): Fail | undefined {
  if (access.kind === 'HoldersOf' && !x.t.assetDefinition.has(access.definition))
    return fail('asset_definition_not_found', `no asset definition ${access.definition}`);
  if (access.kind === 'AllowList') {
    if (access.accounts.length === 0)
      return fail('content_bundle_invalid', 'an allow-list names at least one account');
    if (new Set(access.accounts).size !== access.accounts.length)
      return fail('content_bundle_invalid', 'an allow-list names each account once');
    for (const a of access.accounts)
      if (!x.t.account.has(a)) return fail('account_not_found', `no account ${a}`);
  }
  return undefined;
}

/** The bundle, its owner's (or Admin's) authority, and not retired. */
function ownedBundle(x: ExecContext, id: string): ContentBundle | Fail {
  const b = x.t.contentBundle.get(id);
  if (b === undefined) return fail('content_bundle_not_found', `no content bundle ${id}`);
  const denied = authorize(x, [b.owner]);
  if (denied !== undefined) return denied;
  if (b.status.kind === 'Retired') return fail('content_bundle_retired', `content bundle ${id} is retired`);
  return b;
}

export const registerContentBundle: Handler<'RegisterContentBundle'> = (x, ins) => {
  const problem = manifestProblem(ins.manifest);
  if (problem !== undefined) return fail('content_bundle_invalid', problem);
  const refused = accessProblem(x, ins.access);
  if (refused !== undefined) return refused;
  const id = contentBundleId(x.authority, ins.manifest);
  if (x.t.contentBundle.has(id)) return fail('content_bundle_exists', `content bundle ${id} exists`);
  const totalBytes = totalBytesOf(ins.manifest);
  x.t.contentBundle.set(id, {
    id,
    owner: x.authority,
    manifest: ins.manifest,
    totalBytes,
    access: ins.access,
    status: { kind: 'Active' },
  });
  x.emit({
    kind: 'ContentBundleRegistered',
    id,
    owner: x.authority,
    files: ins.manifest.length,
    totalBytes,
  });
  return undefined;
};

export const setContentBundleAccess: Handler<'SetContentBundleAccess'> = (x, ins) => {
  const b = ownedBundle(x, ins.bundle);
  if (isFail(b)) return b;
  const refused = accessProblem(x, ins.access);
  if (refused !== undefined) return refused;
  x.t.contentBundle.set(b.id, { ...b, access: ins.access });
  x.emit({ kind: 'ContentBundleAccessSet', bundle: b.id, access: ins.access });
  return undefined;
};

export const retireContentBundle: Handler<'RetireContentBundle'> = (x, ins) => {
  const b = ownedBundle(x, ins.bundle);
  if (isFail(b)) return b;
  x.t.contentBundle.set(b.id, { ...b, status: { kind: 'Retired' } });
  x.emit({ kind: 'ContentBundleRetired', bundle: b.id });
  return undefined;
};

export const CONTENT_HANDLERS = {
  RegisterContentBundle: registerContentBundle,
  SetContentBundleAccess: setContentBundleAccess,
  RetireContentBundle: retireContentBundle,
} as const;
