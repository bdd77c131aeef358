// `torana multisig …` (docs/multisig.md): register a multisig account, propose, approve and cancel
// proposals, read its spec and proposals. Declarations only; the code is in actions.ts.

import type { Command } from 'commander';
import { clientOptions } from '../../cli/client-options.js';
import { lazyAction } from '../../cli/lazy.js';

const actions = () => import('./actions.js');

export function registerMultisigCommands(program: Command): void {
  const ms = program.command('multisig').description('multisig accounts: signatories, quorum, proposals');
  clientOptions(
    ms
      .command('register <domain> <seed>')
      .description('create the multisig account derived from domain and seed'),
  )
    .requiredOption('--signatory <account=weight...>', 'a signatory and its weight 0..255 (repeat)')
    .requiredOption('--quorum <n>', 'approval weight that executes a proposal')
    .option('--ttl-ms <ms>', 'how long a proposal collects approvals (block time)', '3600000')
    .addHelpText(
      'after',
      '\nExample:\n  torana multisig register wonderland treasury --signatory ed0120…@wonderland=1 --signatory ed0120…@wonderland=1 --quorum 2\n',
    )
    .action(lazyAction(actions, 'multisigRegister'));
  clientOptions(
    ms.command('propose <multisig> <instructions-json>').description('propose a batch (JSON array)'),
  )
    .addHelpText(
      'after',
      '\nExample:\n  torana multisig propose treasury@wonderland \'[{"kind":"Log","level":{"kind":"Info"},"message":"hi"}]\'\n',
    )
    .action(lazyAction(actions, 'multisigPropose'));
  clientOptions(
    ms.command('approve <multisig> <proposal-id>').description('approve a pending proposal'),
  ).action(lazyAction(actions, 'multisigApprove'));
  clientOptions(
    ms
      .command('cancel <multisig> <proposal-id>')
      .description('ask for the cancellation of a pending proposal'),
  ).action(lazyAction(actions, 'multisigCancel'));
  clientOptions(ms.command('spec <multisig>').description('signatories, weights, quorum and TTL')).action(
    lazyAction(actions, 'multisigSpecShow'),
  );
  clientOptions(ms.command('proposals <multisig>').description('proposals (pending unless --status)'))
    .option('--status <list>', 'comma-separated: COLLECTING_SIGNATURES,FINALIZED,CANCELED,EXPIRED')
    .action(lazyAction(actions, 'multisigProposalsShow'));
}
