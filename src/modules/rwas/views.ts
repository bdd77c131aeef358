// Answer types of the RWA lot routes (routes.ts): codec types, so the JSON answer, the codec answer and
// the OpenAPI schema come from one definition (gateway/view.ts). JSON fields are snake_case.

import type { Infer } from '../../codec/codec.js';
import { option, seq, struct } from '../../codec/compound.js';
import { bool, string, u32, varuint } from '../../codec/primitives.js';
import { AccountId, AssetDefinitionId } from '../../model/ids.js';
import { MetadataCodec } from '../../model/metadata.js';
import { NumericCodec } from '../../model/numeric.js';
import {
  freeQuantity,
  RWA_MERGE_LOTS_MAX,
  RwaId,
  type RwaLot,
  RwaParentCodec,
  RwaReference,
  RwaSpec,
} from './model.js';

export const LIST_ITEMS_MAX = 500;

/** A lot in a list: its state without metadata and provenance. `status` absent while it holds some. */
export const RwaItemView = struct('AppRwa', {
  id: RwaId,
  quantity: NumericCodec,
  spec: RwaSpec,
  primaryReference: RwaReference,
  status: option(string(16)),
  ownedBy: AccountId,
  controller: AccountId,
  controls: option(AssetDefinitionId),
  isFrozen: bool,
  heldQuantity: NumericCodec,
});
export type RwaItem = Infer<typeof RwaItemView>;

/** The simple-list envelope of `GET /v1/rwas` and `POST /v1/rwas/query`. */
export const RwaListView = struct('AppRwaList', { items: seq(RwaItemView, LIST_ITEMS_MAX), total: varuint });

/** The envelope of a numbered page (as every `{pagination, items}` list: gateway/list.ts `numberedPagination`). */
const RwaPaginationView = struct('ExplorerRwaPagination', {
  page: varuint,
  perPage: varuint,
  totalPages: varuint,
  totalItems: varuint,
});

/** A page of lots (`GET /v1/explorer/rwas`). */
export const RwaPageView = struct('ExplorerRwaList', {
  pagination: RwaPaginationView,
  items: seq(RwaItemView, LIST_ITEMS_MAX),
});

/** One lot with its provenance, policy and holds (`GET /v1/explorer/rwas/{rwa_id}`). */
export const RwaDetailView = struct('ExplorerRwa', {
  lot: RwaItemView,
  metadata: MetadataCodec,
  /** The lots it was made from, with the quantity taken from each. */
  parents: seq(RwaParentCodec, RWA_MERGE_LOTS_MAX),
  /** Lots made from it so far (splits off it, merges it led). */
  children: u32,
  holds: struct('ExplorerRwaHolds', {
    heldQuantity: NumericCodec,
    freeQuantity: NumericCodec,
    isFrozen: bool,
  }),
});
export type RwaLotDetail = Infer<typeof RwaDetailView>;

const STATUS = { Merged: 'merged', Redeemed: 'redeemed' } as const;

export function rwaItem(l: RwaLot): RwaItem {
  return {
    id: l.id,
    quantity: l.quantity,
    spec: l.spec,
    primaryReference: l.primaryReference,
    ...(l.status === undefined ? {} : { status: STATUS[l.status.kind] }),
    ownedBy: l.ownedBy,
    controller: l.controller,
    ...(l.controls === undefined ? {} : { controls: l.controls }),
    isFrozen: l.isFrozen,
    heldQuantity: l.heldQuantity,
  };
}

export function rwaDetailOf(l: RwaLot): RwaLotDetail {
  return {
    lot: rwaItem(l),
    metadata: l.metadata,
    parents: l.parents,
    children: l.children,
    holds: {
      heldQuantity: l.heldQuantity,
      freeQuantity: { mantissa: freeQuantity(l), scale: l.quantity.scale },
      isFrozen: l.isFrozen,
    },
  };
}
