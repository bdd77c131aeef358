// `torana iso20022 …` (docs/iso20022.md): submit a message file, read a record, fetch a
// status report as XML, and verify the audit manifest against the anchors recorded on the ledger.

import type { Command } from 'commander';
import { MESSAGE_KINDS_ROUTED, REPORT_KINDS } from '../iso20022/bridge/routed-kinds.js';
import { lazyAction } from './lazy.js';

const actions = () => import('./iso-actions.js');

export const KINDS: readonly string[] = MESSAGE_KINDS_ROUTED;
export const REPORTS: readonly string[] = REPORT_KINDS;

/** The route kind from the Document namespace, e.g. urn:iso:std:iso:20022:tech:xsd:pacs.008.001.09 → pacs008. */
export function kindFromXml(xml: string): string | undefined {
  const m = /urn:iso:std:iso:20022:tech:xsd:([a-z]{4})\.(\d{3})\.\d{3}\.\d{2}/.exec(xml);
  if (m === null) return undefined;
  const kind = `${m[1]}${m[2]}`;
  return KINDS.includes(kind) ? kind : kind === 'colr010' ? 'colr012' : undefined;
}

function options(cmd: Command): Command {
  return cmd
    .option('--url <url>', 'gateway URL (default: the node running in --dir, else client.json)')
    .option('--account <id>', 'account to sign requests as (a bridge participant)')
    .option('--key-file <file>', 'key file of that account');
}

export function registerIsoCommands(program: Command): void {
  const iso = program.command('iso20022').description('the ISO 20022 bridge');
  options(
    iso.command('submit <file>').description('submit an ISO 20022 message (XML, or flat JSON with --type)'),
  )
    .option('--type <kind>', `message type: ${KINDS.join(', ')} (default: from the XML namespace)`)
    .addHelpText(
      'after',
      '\nExample:\n  torana iso20022 submit payment.xml\n  torana iso20022 submit payment.json --type pacs008\n',
    )
    .action(lazyAction(actions, 'submit'));
  options(iso.command('status <msg-id>').description('the bridge record of a message')).action(
    lazyAction(actions, 'status'),
  );
  options(iso.command('report <msg-id>').description('a status report of a message as ISO 20022 XML'))
    .requiredOption('--as <type>', `report type: ${REPORTS.join(', ')}`)
    .addHelpText('after', '\nExample:\n  torana iso20022 report MSG-0001 --as pacs002 > status.xml\n')
    .action(lazyAction(actions, 'report'));
  options(
    iso
      .command('verify-audit')
      .description('verify the audit manifest: hashes, links, proofs and the ledger anchors'),
  ).action(lazyAction(actions, 'verifyAudit'));
}
