// TransferNft and TransferDomain (README.md §Instructions). `source` must name the current owner
// (not_owner): the instruction states who the client believes owns the object, and a stale belief fails
// instead of silently moving an object that changed hands in the meantime.

import { parseNftId } from '../model/ids.js';
import { authorize } from './authorize.js';
import { fail, type Handler } from './exec-context.js';

export const transferNft: Handler<'TransferNft'> = (x, ins) => {
  const nft = x.t.nft.get(ins.id);
  if (nft === undefined) return fail('nft_not_found', `no NFT ${ins.id}`);
  if (!x.t.account.has(ins.destination)) return fail('account_not_found', `no account ${ins.destination}`);
  const domain = parseNftId(ins.id)?.domain;
  const domainOwner = domain === undefined ? undefined : x.t.domain.get(domain)?.ownedBy;
  const denied = authorize(x, [nft.ownedBy, domainOwner]);
  if (denied) return denied;
  if (nft.ownedBy !== ins.source) return fail('not_owner', `${ins.source} does not own ${ins.id}`);
  if (ins.destination === ins.source)
    return fail('same_account', 'source and destination are the same account');
  x.t.nft.set(ins.id, { ...nft, ownedBy: ins.destination });
  x.emit({ kind: 'NftOwnerChanged', id: ins.id, owner: ins.destination });
  return undefined;
};

export const transferDomain: Handler<'TransferDomain'> = (x, ins) => {
  const domain = x.t.domain.get(ins.id);
  if (domain === undefined) return fail('domain_not_found', `no domain ${ins.id}`);
  if (!x.t.account.has(ins.destination)) return fail('account_not_found', `no account ${ins.destination}`);
  const denied = authorize(x, [domain.ownedBy]);
  if (denied) return denied;
  if (domain.ownedBy !== ins.source) return fail('not_owner', `${ins.source} does not own ${ins.id}`);
  if (ins.destination === ins.source)
    return fail('same_account', 'source and destination are the same account');
  x.t.domain.set(ins.id, { ...domain, ownedBy: ins.destination });
  x.emit({ kind: 'DomainOwnerChanged', id: ins.id, owner: ins.destination });
  return undefined;
};
