// Supplementary-data pins of the securities messages (README "Securities pins"). The library extracts
// pins from pacs.008/pacs.009 only; sese.023 and colr.012 carry theirs in the same envelope,
// `<root>/SplmtryData/Envlp/Ledger`, children matched by local name in any namespace:
//   sese.023: LedgerId, SourceAccountId (the instructing party's account), TargetAccountId (the
//             counterparty's), AssetDefinitionId (the security), CashAssetDefinitionId (the cash leg;
//             else the currency crosswalk);
//   colr.012: LedgerId, SourceAccountId (collateral giver), TargetAccountId (collateral taker),
//             ReturnedAssetDefinitionId, ReturnedQuantity, DeliveredAssetDefinitionId, DeliveredQuantity.

import type { XmlLimits } from '../limits.js';
import { checkPin } from '../messages/pins.js';
import { Issues } from '../validate/fields.js';
import { parseIsoXml } from '../xml.js';
import { fromIsoErrors } from './errors.js';

export interface Pin {
  readonly value: string | undefined;
  readonly path: string;
}

/** Reads the named pins under `/Document/<root>/SplmtryData/Envlp/Ledger` of an already valid message. */
export function readSecuritiesPins(
  body: string | object,
  root: string,
  names: readonly string[],
  limits: Partial<XmlLimits>,
): Record<string, Pin> {
  const base = `/Document/${root}/SplmtryData/Envlp/Ledger`;
  const out: Record<string, Pin> = {};
  for (const n of names) out[n] = { value: undefined, path: `${base}/${n}` };
  if (typeof body !== 'string') return out;
  const doc = parseIsoXml(body, limits);
  if (!doc.ok) throw fromIsoErrors(doc.errors);
  const ledger = doc.value.document
    ?.child(root)
    .all('SplmtryData')
    .map((s) => s.at('Envlp', 'Ledger'))
    .find((l) => l.exists);
  if (ledger === undefined) return out;
  const is = new Issues();
  for (const n of names) {
    const c = ledger.child(n);
    out[n] = { value: checkPin(is, c.text(), c.path), path: c.path };
  }
  if (!is.ok) throw fromIsoErrors(is.errors);
  return out;
}
