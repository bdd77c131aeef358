// The multisig module (docs/multisig.md): accounts whose id is derived from a domain and a seed, that
// act only through proposals their signatories approve up to a quorum, executed as the multisig.
// It builds on the aliases module: onboarding adds that module's RegisterAccountAlias instruction (a
// variant its wire declares) when an `alias` is given, and the routes' selector `multisig_account_alias`
// takes an account alias (resolved through the neutral idName port), so it depends on it and is listed
// after it.

import type { DataEvent } from '../../model/events.js';
import type { RejectionCode } from '../../model/rejections.js';
import type { LedgerModule } from '../descriptor.js';
import { registerMultisigCommands } from './commands.js';
import { MULTISIG_DOC_SECTIONS } from './docs.js';
import { multisigFamily } from './family.js';
import {
  approveMultisig,
  cancelMultisig,
  proposeMultisig,
  registerMultisig,
  setMultisigSpec,
} from './handlers.js';
import { MULTISIG_PARTIES, MULTISIG_REMOVAL, refuseMultisigAuthority } from './hooks.js';
import { multisigReadPort } from './reads.js';
import { MULTISIG_SDK } from './sdk.js';
import { multisigWire } from './wire.js';

export const multisigModule: LedgerModule = {
  name: 'multisig',
  instructions: {
    RegisterMultisig: registerMultisig,
    ProposeMultisig: proposeMultisig,
    ApproveMultisig: approveMultisig,
    CancelMultisig: cancelMultisig,
    SetMultisigSpec: setMultisigSpec,
  },
  tables: (multisigWire.tables ?? []).map((t) => t.name),
  schemaTypes: multisigWire.schemaTypes ?? [],
  events: Object.keys(multisigWire.events ?? {}) as DataEvent['kind'][],
  rejections: Object.keys(multisigWire.rejections ?? {}) as RejectionCode[],
  authorityCheck: refuseMultisigAuthority,
  removal: MULTISIG_REMOVAL,
  parties: MULTISIG_PARTIES,
  routes: (env) =>
    multisigFamily(multisigReadPort(env.state, env.deps.ports.chain), env.deps, env.signedRequests),
  sdk: MULTISIG_SDK,
  cli: registerMultisigCommands,
  docs: 'docs/multisig.md',
  dependsOn: ['aliases'],
  docSections: MULTISIG_DOC_SECTIONS,
};
