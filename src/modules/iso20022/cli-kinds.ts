// The message kinds `torana iso20022` takes and the report kinds it fetches, and the kind of an XML file
// from its Document namespace (light: the CLI's `--help` loads it).

import { MESSAGE_KINDS_ROUTED, REPORT_KINDS } from './bridge/routed-kinds.js';

export const KINDS: readonly string[] = MESSAGE_KINDS_ROUTED;
export const REPORTS: readonly string[] = REPORT_KINDS;

/** The route kind from the Document namespace, e.g. urn:iso:std:iso:20022:tech:xsd:pacs.008.001.09 → pacs008. */
export function kindFromXml(xml: string): string | undefined {
  const m = /urn:iso:std:iso:20022:tech:xsd:([a-z]{4})\.(\d{3})\.\d{3}\.\d{2}/.exec(xml);
  if (m === null) return undefined;
  const kind = `${m[1]}${m[2]}`;
  return KINDS.includes(kind) ? kind : kind === 'colr010' ? 'colr012' : undefined;
}
