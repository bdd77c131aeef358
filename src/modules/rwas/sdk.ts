// The RWA lots module's SDK functions (docs/rwas.md): the builders of its ten instructions (spread into
// the SDK's `instructions`; quantities are decimals, e.g. '12.500', at the lot's scale), the lot ids a
// registration or a split will give (`rwaLotId`, `rwaChildId`), and the reads over the module's routes
// (routes.ts), decoded with the node's own view codecs so the SDK and the node cannot drift. An unknown
// lot is a ToranaApiError with code `not_found`. The SDK's public surface (src/sdk/index.ts) re-exports
// these names.

import type { Json } from '../../codec/codec.js';
import type { Instruction } from '../../model/instructions.js';
import { type Numeric, numeric } from '../../model/numeric.js';
import { getView, type PageOptions, postJson } from '../../sdk/answers.js';
import type { Http } from '../../sdk/http.js';
import { rwaChildId, rwaLotId } from './model.js';
import { RwaDetailView, RwaListView, type RwaPageView } from './views.js';

const q = (v: string | Numeric): Numeric => (typeof v === 'string' ? numeric(v) : v);

/** What RegisterRwa takes besides the reference (the lot's id is `rwaLotId(signer, reference)`). */
export interface RwaLotInput {
  spec: string;
  /** A decimal; its fraction digits are the lot's scale for good. */
  quantity: string | Numeric;
  owner: string;
  /** The asset definition whose transfer rules the lot obeys. */
  controls?: string;
  metadata?: Record<string, Json>;
}

export const rwaInstructions = {
  /** Registers the lot `rwaLotId(signer, reference)`; the signer becomes its controller. */
  registerRwa: (reference: string, lot: RwaLotInput): Instruction => ({
    kind: 'RegisterRwa',
    reference,
    spec: lot.spec,
    quantity: q(lot.quantity),
    owner: lot.owner,
    ...(lot.controls === undefined ? {} : { controls: lot.controls }),
    metadata: new Map(Object.entries(lot.metadata ?? {})),
  }),
  /** Moves `quantity` to `to`: the whole lot, or a new lot split off it (`rwaChildId(lot, n)`). */
  transferRwa: (lot: string, to: string, quantity: string | Numeric): Instruction => ({
    kind: 'TransferRwa',
    lot,
    to,
    quantity: q(quantity),
  }),
  /** One new lot of 2 to 16 lots of one owner, spec, scale, controls and controller. */
  mergeRwas: (lots: string[]): Instruction => ({ kind: 'MergeRwas', lots }),
  redeemRwa: (lot: string, quantity: string | Numeric): Instruction => ({
    kind: 'RedeemRwa',
    lot,
    quantity: q(quantity),
  }),
  freezeRwa: (lot: string): Instruction => ({ kind: 'FreezeRwa', lot }),
  unfreezeRwa: (lot: string): Instruction => ({ kind: 'UnfreezeRwa', lot }),
  holdRwa: (lot: string, quantity: string | Numeric): Instruction => ({
    kind: 'HoldRwa',
    lot,
    quantity: q(quantity),
  }),
  releaseRwa: (lot: string, quantity: string | Numeric): Instruction => ({
    kind: 'ReleaseRwa',
    lot,
    quantity: q(quantity),
  }),
  /** TransferRwa by the lot's controller (or a `CanControlRwa {rwa}` holder), without the owner. */
  forceTransferRwa: (lot: string, to: string, quantity: string | Numeric): Instruction => ({
    kind: 'ForceTransferRwa',
    lot,
    to,
    quantity: q(quantity),
  }),
  /** The asset definition whose transfer rules the lot obeys; undefined: none. */
  setRwaControls: (lot: string, controls?: string): Instruction => ({
    kind: 'SetRwaControls',
    lot,
    ...(controls === undefined ? {} : { controls }),
  }),
} as const;

export type RwaList = ReturnType<typeof RwaListView.fromJson>;
export type RwaPage = ReturnType<typeof RwaPageView.fromJson>;
export type RwaDetail = ReturnType<typeof RwaDetailView.fromJson>;

/** Lots, by id or `sort`, filtered by `filter` (the list routes' JSON expression). */
export function rwasList(
  client: { http: Http },
  opts: PageOptions & { filter?: unknown; sort?: string } = {},
): Promise<RwaList> {
  const { filter, ...rest } = opts;
  if (filter === undefined) return getView(client.http, '/v1/rwas', { ...rest }, RwaListView);
  return postJson(client.http, '/v1/rwas/query', { ...rest, filter }, RwaListView);
}

/** One lot with its parents, controls and holds. */
export function rwaDetail(client: { http: Http }, id: string): Promise<RwaDetail> {
  return getView(client.http, `/v1/explorer/rwas/${encodeURIComponent(id)}`, {}, RwaDetailView);
}

export { rwaChildId, rwaLotId };

/** The module's SDK functions by name (its descriptor lists them; src/sdk/index.ts exports each). */
export const RWA_SDK = { rwasList, rwaDetail, rwaLotId, rwaChildId } as const;
