// `torana iso20022 …` (docs/iso20022.md): submit a message file, read a record, fetch a
// status report as XML, and verify the audit manifest against the anchors recorded on the ledger.

import type { Command } from 'commander';
import { lazyAction } from '../../cli/lazy.js';
import { addStartSwitch } from '../../cli/node-commands.js';
import { KINDS, REPORTS } from './cli-kinds.js';

const actions = () => import('./actions.js');

function options(cmd: Command): Command {
  return cmd
    .option('--url <url>', 'gateway URL (default: the node running in --dir, else client.json)')
    .option('--account <id>', 'account to sign requests as (a bridge participant)')
    .option('--key-file <file>', 'key file of that account');
}

export function registerIsoCommands(program: Command): void {
  addStartSwitch(program, 'iso20022', 'iso20022.enabled', 'enable the ISO 20022 bridge');
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
