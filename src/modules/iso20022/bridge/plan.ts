// What mapping one message produces (README "Mapping"): the new record, the ledger instructions its
// signed transaction carries (none for status messages), and changes to records it links to (the
// original of a return, cancellation or status report). Planning is synchronous and reads only the
// committed state and the record store, so two concurrent submissions are planned one after the other.

import { parseAccountId, parseDefinitionId } from '../../../model/ids.js';
import type { Instruction } from '../../../model/instructions.js';
import type { Numeric } from '../../../model/numeric.js';
import type { XmlLimits } from '../limits.js';
import type { ReferenceData } from '../reference-data.js';
import type { DecimalValue } from '../validate/amount.js';
import type { IsoAmount } from '../validate/fields.js';
import { businessRule, fieldError } from './errors.js';
import { type BridgeRecord, RECORD_LINKS_MAX } from './record.js';
import type { RoutedKind } from './routed-kinds.js';
import type { RecordChange } from './store.js';

export interface PlanContext {
  readonly chainId: string;
  readonly bridgeAccount: string;
  readonly reference: ReferenceData;
  readonly nowMs: number;
  readonly xmlLimits: Partial<XmlLimits>;
  /** The raw body (XML text), for supplementary data the library does not extract (securities pins). */
  readonly body: string | object;
  assetScale(definitionId: string): number | undefined;
  record(messageId: string): BridgeRecord | undefined;
  /** True while the original's transaction is being handed to (or sits in) the pipeline. */
  inPipeline(messageId: string): boolean;
}

export interface Plan {
  readonly record: BridgeRecord;
  readonly instructions: readonly Instruction[];
  readonly linked: readonly RecordChange[];
}

export function newRecord(
  ctx: PlanContext,
  kind: RoutedKind,
  messageId: string,
  messageDefinitionId: string,
  creationTime: string | undefined,
): BridgeRecord {
  return {
    messageId,
    kind,
    messageDefinitionId,
    ...(creationTime === undefined ? {} : { creationTime }),
    receivedAtMs: ctx.nowMs,
    updatedAtMs: ctx.nowMs,
    status: 'Pending',
    pacs002Code: 'ACTC',
    ledgerId: ctx.chainId,
    transfers: [],
    transactions: [],
    links: [],
    info: {},
  };
}

/** Adds a link to `original` (refused with 422 once it holds RECORD_LINKS_MAX). */
export function withLink(
  original: BridgeRecord,
  kind: string,
  messageId: string,
  path: string,
): BridgeRecord {
  if (original.links.length >= RECORD_LINKS_MAX) {
    throw businessRule(
      'links_max',
      path,
      `${original.messageId} already has ${RECORD_LINKS_MAX} linked messages`,
    );
  }
  return { ...original, links: [...original.links, { kind, messageId }] };
}

/**
 * An exact decimal in the scale of the asset definition (never floating point). A value with
 * more fraction digits than the definition's scale is refused: ISO minor units finer than the ledger's
 * asset (EUR cents on a whole-euro asset) cannot move exactly.
 */
export function toScale(value: DecimalValue, scale: number): Numeric | undefined {
  if (value.scale <= scale) return { mantissa: value.mantissa * 10n ** BigInt(scale - value.scale), scale };
  const div = 10n ** BigInt(value.scale - scale);
  return value.mantissa % div === 0n ? { mantissa: value.mantissa / div, scale } : undefined;
}

/**
 * A payment amount in the asset's scale. The currency's minor units (ISO 4217) must not exceed the
 * scale, whatever the value: an asset that cannot hold every amount of its currency is a
 * misconfiguration the bridge refuses (422 `amount_scale`) rather than silently rounding.
 */
export function currencyToScale(amount: IsoAmount, scale: number): Numeric | undefined {
  return amount.scale > scale ? undefined : toScale(amount, scale);
}

/** The scale of an asset definition, or a 422 `asset_definition_unknown` at `path`. */
export function scaleOf(ctx: PlanContext, definition: string, path: string): number {
  const scale = ctx.assetScale(definition);
  if (scale === undefined) {
    throw businessRule('asset_definition_unknown', path, `no asset definition ${definition} on this ledger`);
  }
  return scale;
}

/** `[n]` for the n-th (1-based) of several repeated elements, nothing for a single one (README paths). */
export function indexed(path: string, i: number, count: number): string {
  return count > 1 ? `${path}[${i + 1}]` : path;
}

/** A pinned or crosswalked account id in canonical form, or 400 `pin_format` at `path`. */
export function accountIdAt(id: string, path: string): string {
  const p = parseAccountId(id);
  if (p === undefined)
    throw fieldError('pin_format', path, `${id} is not a ledger account id (<public key>@<domain>)`);
  return `${p.signatory}@${p.domain}`;
}

/** A pinned or crosswalked asset definition id, or 400 `pin_format` at `path`. */
export function definitionIdAt(id: string, path: string): string {
  if (parseDefinitionId(id) === undefined)
    throw fieldError('pin_format', path, `${id} is not an asset definition id (<name>#<domain>)`);
  return id;
}
