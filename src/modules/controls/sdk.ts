// The transfer controls module's SDK functions (docs/controls.md): the builders of the four control
// instructions (spread into the SDK's `instructions`; without `account` a rule is definition-wide, every
// holder; windows 'tx' | 'hour' | 'day' | 'week' | 'month'; amounts are decimals at the definition scale)
// and the reads over the module's routes (routes.ts), decoded with the node's own view codecs so the SDK
// and the node cannot drift. Unknown account or definition: a ToranaApiError with code `not_found`. Ids
// may be names in place of ids (resolved by the node). The SDK's public surface (src/sdk/index.ts) re-exports these names.

import type { Instruction } from '../../model/instructions.js';
import { type Numeric, numeric } from '../../model/numeric.js';
import { postJson } from '../../sdk/answers.js';
import type { Http } from '../../sdk/http.js';
import type { ControlWindowKind } from './model.js';
import { AssetTransferControlView, DefinitionTransferControlView } from './views.js';
import { parseWindowName } from './windows.js';

export type TransferWindow = 'tx' | 'hour' | 'day' | 'week' | 'month';

function windowKind(window: TransferWindow): ControlWindowKind {
  const kind = parseWindowName(window);
  if (kind === undefined) throw new RangeError(`window must be tx, hour, day, week or month, not ${window}`);
  return kind;
}

const who = (account: string | undefined) => (account === undefined ? {} : { account });

export const controlInstructions = {
  /** Freezes (or with `frozen` false unfreezes) outgoing transfers of `account`, or of every holder. */
  setTransferFreeze: (definition: string, frozen: boolean, account?: string): Instruction => ({
    kind: 'SetTransferFreeze',
    definition,
    frozen,
    ...who(account),
  }),
  /** Blacklists (or clears) `account` — it may neither send nor receive — or the whole definition. */
  setTransferBlacklist: (definition: string, blacklisted: boolean, account?: string): Instruction => ({
    kind: 'SetTransferBlacklist',
    definition,
    blacklisted,
    ...who(account),
  }),
  /** Adds `account` to (or with `listed` false removes it from) the definition's allow or deny list. */
  setTransferListEntry: (
    definition: string,
    list: 'allow' | 'deny',
    account: string,
    listed = true,
  ): Instruction => ({
    kind: 'SetTransferListEntry',
    definition,
    list: { kind: list === 'allow' ? 'Allow' : 'Deny' },
    account,
    listed,
  }),
  /** Sets the cap of `window` (a decimal, > 0) or removes it (`cap` undefined); per account or for every holder. */
  setTransferCap: (
    definition: string,
    window: TransferWindow,
    cap: string | Numeric | undefined,
    account?: string,
  ): Instruction => ({
    kind: 'SetTransferCap',
    definition,
    window: { kind: windowKind(window) },
    ...who(account),
    ...(cap === undefined ? {} : { cap: typeof cap === 'string' ? numeric(cap) : cap }),
  }),
} as const;

export type AssetTransferControl = ReturnType<typeof AssetTransferControlView.fromJson>;
export type DefinitionTransferControl = ReturnType<typeof DefinitionTransferControlView.fromJson>;

/** Freeze and blacklist flags, caps and usage of `account` for `definition` (all clear without rules). */
export function assetTransferControl(client: { http: Http }, account: string, definition: string) {
  return postJson(
    client.http,
    '/v1/controls/asset-transfer/get',
    { account_id: account, asset_definition_id: definition },
    AssetTransferControlView,
  );
}

/** The definition-wide rules: freeze, blacklist, allow and deny lists, caps. */
export function definitionTransferControl(client: { http: Http }, definition: string) {
  return postJson(
    client.http,
    '/v1/controls/asset-definition/get',
    { asset_definition_id: definition },
    DefinitionTransferControlView,
  );
}

/** The module's SDK functions by name (its descriptor lists them; src/sdk/index.ts exports each). */
export const CONTROL_SDK = { assetTransferControl, definitionTransferControl } as const;
