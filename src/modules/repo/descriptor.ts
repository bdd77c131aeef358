// The repo agreements module (docs/repo.md): repurchase agreements between a cash borrower (the
// initiator) and a cash lender (the counterparty) — initiate and accept, margin checks against an
// on-ledger price, top-ups and substitutions, early unwind by both parties, unwind at maturity and
// default after an unmet margin call by a ledger-made scheduled run — with the collateral in a locked
// escrow account and every movement through the core's transfer checks; read routes, SDK functions and
// `torana repo`. Its scheduled runs are stored by the triggers module, so it depends on it.

import type { DataEvent } from '../../model/events.js';
import type { RejectionCode } from '../../model/rejections.js';
import type { LedgerModule } from '../descriptor.js';
import { registerRepoCommands } from './commands.js';
import { REPO_DOC_SECTIONS } from './docs.js';
import { REPO_HANDLERS } from './handlers.js';
import { repoParties } from './parties.js';
import { repoReadPort } from './reads.js';
import { repoFamily } from './routes.js';
import { REPO_SDK } from './sdk.js';
import { escrowAuthority, escrowLock, REPO_RUNS } from './settle.js';
import { repoWire } from './wire.js';

export const repoModule: LedgerModule = {
  name: 'repo',
  instructions: REPO_HANDLERS,
  tables: (repoWire.tables ?? []).map((t) => t.name),
  schemaTypes: repoWire.schemaTypes ?? [],
  events: Object.keys(repoWire.events ?? {}) as DataEvent['kind'][],
  rejections: Object.keys(repoWire.rejections ?? {}) as RejectionCode[],
  authorityCheck: escrowAuthority,
  transferCheck: escrowLock,
  scheduledRunMaker: REPO_RUNS,
  parties: repoParties,
  routes: (env) => repoFamily(repoReadPort(env.state), env.deps),
  sdk: REPO_SDK,
  cli: registerRepoCommands,
  docs: 'docs/repo.md',
  docSections: REPO_DOC_SECTIONS,
  dependsOn: ['triggers'],
};
