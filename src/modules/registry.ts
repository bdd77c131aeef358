// The ledger modules of this build, one entry each, in tag order (each module's lowest instruction tag):
// the ONE file that names the modules (docs/design/modules.md). It is light — each module's wire
// declarations and SDK functions, never its handlers, routes, due work or commands — so every entry point
// imports it: the node and the simulator (through load.ts), the CLI (through commands.ts) and the SDK
// (`export *` from src/sdk/index.ts: the modules' SDK functions under their names). Importing it declares
// every module's wire pieces (its `wire.ts`) into the core's codecs and tables before any codec use.
// The heavy parts of a module are found by convention from its name, so no other file names it:
// `<name>/descriptor.ts`, loaded by load.ts (only composition roots import it), and `<name>/commands.ts`,
// found by commands.ts (the CLI, whose `--help` must not load the model) — a browser bundle of the SDK
// never reaches handlers, routes or CLI code.
//
// The module list is this file's DEFAULT export (`export *` does not re-export a default), so that the
// SDK's `export *` takes only the modules' SDK functions below.

import { addConfigSections } from '../config/sections.js';
import { addRejectionForms } from '../model/rejection-text.js';
import { aliasInstructions } from './aliases/sdk.js';
import { aliasesWire } from './aliases/wire.js';
import { conferenceConfig } from './conference/config.js';
import { conferenceRejectionForms } from './conference/rejection-forms.js';
import { conferenceInstructions } from './conference/sdk.js';
import { conferenceWire } from './conference/wire.js';
import { connectConfig } from './connect/config.js';
import { contentConfig } from './content/config.js';
import { contentInstructions } from './content/sdk.js';
import { contentWire } from './content/wire.js';
import { controlsRejectionForms } from './controls/rejection-forms.js';
import { controlInstructions } from './controls/sdk.js';
import { controlsWire } from './controls/wire.js';
import type { ModuleEntry } from './entry.js';
import { explorerConfig } from './explorer/config.js';
import { historyConfig } from './history/config.js';
import { iso20022Config } from './iso20022/config.js';
import { multisigInstructions } from './multisig/sdk.js';
import { operatorPasskeysConfig } from './operator/config.js';
// Loading them installs `client.explorer`, the history methods and `client.operatorSignIn` on every client.
import './explorer/sdk.js';
import './history/sdk.js';
import './operator/sdk.js';

export type { OperatorSession, OperatorSessionToken } from './operator/sdk.js';

export {
  type PlanInput,
  type SubscriptionItem,
  type SubscriptionList,
  type SubscriptionPlanList,
  subscriptionDetail,
  subscriptionPlans,
  subscriptionsList,
} from './subscriptions/sdk.js';

import { multisigWire } from './multisig/wire.js';
import { repoInstructions } from './repo/sdk.js';
import { repoWire } from './repo/wire.js';
import { rwasRejectionForms } from './rwas/rejection-forms.js';
import { rwaInstructions } from './rwas/sdk.js';
import { rwasWire } from './rwas/wire.js';
import { subscriptionInstructions } from './subscriptions/sdk.js';
import { subscriptionsWire } from './subscriptions/wire.js';
import { telemetryConfig } from './telemetry/config.js';
import { triggerInstructions } from './triggers/sdk.js';
import { triggersWire } from './triggers/wire.js';
import { webhooksConfig } from './webhooks/config.js';

// The modules' SDK functions (src/sdk/index.ts re-exports them).
export {
  type AccountAliasIndexResolution,
  type AccountAliasList,
  type AccountAliasResolution,
  type AssetAliasLease,
  type AssetAliasResolution,
  aliasesOfAccount,
  resolveAccountAlias,
  resolveAliasIndex,
  resolveAssetAlias,
} from './aliases/sdk.js';
export {
  type CallDetail,
  type CallListOptions,
  type CallSummary,
  type CreateConferenceOptions,
  type JoinConferenceOptions,
  openSignal,
  type PageOptions,
  type RelayEventOptions,
  type RelayHealthSummary,
  type RelayHopLike,
  type RelayItem,
  type RelayListOptions,
  type RelayManifestLike,
  type ShieldedPool,
  type Signal,
  type SignalContext,
  type SignalKeyPair,
  type SignedOption,
  sealSignal,
  type UsageOptions,
} from './conference/sdk.js';
export {
  type ContentAccessInput,
  type ContentBundleJson,
  type ContentClient,
  contentBundle,
  contentBundleId,
  contentFile,
  type DownloadOptions,
  downloadContent,
  uploadContent,
} from './content/sdk.js';
export {
  type AssetTransferControl,
  assetTransferControl,
  type DefinitionTransferControl,
  definitionTransferControl,
  type TransferWindow,
} from './controls/sdk.js';
export type {
  AssetFilterOptions,
  ExplorerClient,
  ExplorerPageOptions,
  ExplorerStreamItem,
  ExplorerStreamOptions,
  InstructionFilterOptions,
  TransactionFilterOptions,
} from './explorer/sdk.js';
export type {
  CallerHistoryOptions,
  HistoryItem,
  HistoryOptions,
  HistoryPage,
} from './history/sdk.js';
export {
  type ApprovalsOptions,
  type MultisigApprovalItem,
  type MultisigApprovalList,
  type MultisigProposalAnswer,
  type MultisigProposalList,
  type MultisigSpecAnswer,
  type MultisigSpecInput,
  type MultisigStatusName,
  multisigAccountId,
  multisigApprovals,
  multisigProposal,
  multisigProposalId,
  multisigProposals,
  multisigSpec,
} from './multisig/sdk.js';
export {
  type RepoAgreementDetail,
  type RepoLegInput,
  type RepoList,
  type RepoTermsInput,
  repoAgreement,
  repoAgreementId,
  repoAgreements,
} from './repo/sdk.js';
export {
  type RwaDetail,
  type RwaList,
  type RwaLotInput,
  type RwaPage,
  rwaChildId,
  rwaDetail,
  rwaLotId,
  rwasList,
} from './rwas/sdk.js';
export {
  type HasHttp,
  type PeerInfo,
  type PeerReport,
  type PeersInfo,
  type Propagation,
  type TelemetryLiveOptions,
  type TelemetrySnapshot,
  telemetryLive,
  telemetryPeersInfo,
  telemetryPropagation,
} from './telemetry/sdk.js';
export {
  type TriggerDueInput,
  type TriggerList,
  type TriggerRepeatInput,
  type TriggerRow,
  triggerDetail,
  triggersList,
} from './triggers/sdk.js';
export {
  type CreateWebhookInput,
  type RotateWebhookSecretInput,
  verifyWebhookSignature,
  type Webhook,
  type WebhookDelivery,
  type WebhookEventType,
  type WebhookEventTypes,
} from './webhooks/sdk.js';

/** The modules' instruction builders, spread into the SDK's `instructions` (src/sdk/instructions.ts). */
export const moduleInstructions = {
  ...conferenceInstructions,
  ...aliasInstructions,
  ...multisigInstructions,
  ...controlInstructions,
  ...triggerInstructions,
  ...subscriptionInstructions,
  ...rwaInstructions,
  ...contentInstructions,
  ...repoInstructions,
} as const;

const LEDGER_MODULES: readonly ModuleEntry[] = Object.freeze([
  // The features still in the core folders (modules/ledger.ts): their wire is the core's own.
  { name: 'ledger' },
  {
    name: 'conference',
    wire: conferenceWire,
    cli: true,
    config: conferenceConfig,
    rejectionForms: conferenceRejectionForms,
  },
  { name: 'aliases', wire: aliasesWire, cli: true },
  { name: 'multisig', wire: multisigWire, cli: true, dependsOn: ['aliases'] },
  { name: 'controls', wire: controlsWire, cli: true, rejectionForms: controlsRejectionForms },
  { name: 'triggers', wire: triggersWire, cli: true },
  { name: 'subscriptions', wire: subscriptionsWire, cli: true, dependsOn: ['triggers'] },
  { name: 'rwas', wire: rwasWire, cli: true, rejectionForms: rwasRejectionForms },
  { name: 'content', wire: contentWire, cli: true, config: contentConfig },
  { name: 'repo', wire: repoWire, cli: true, dependsOn: ['triggers'] },
  // Off the ledger: no instructions (so after every module that has some), a route family, its store
  // and workers, CLI commands and SDK methods.
  { name: 'webhooks', cli: true, config: webhooksConfig },
  // Read-only families over the committed chain (the node's or the indexer's replica of it): after
  // webhooks, which is served where history follows it.
  { name: 'explorer', cli: true, config: explorerConfig },
  { name: 'history', cli: true, config: historyConfig },
  // Needs nothing of the ledger (no instruction tag).
  { name: 'connect', cli: true, config: connectConfig },
  // Off the ledger (its own signed transactions go through the node's pipeline): its route family after
  // every other module's served in registry order, where it always was (telemetry's follows it); its
  // section keeps its place after `[operator]` (`writtenAfter`).
  { name: 'iso20022', cli: true, config: iso20022Config },
  // The node's view of its peers and of block propagation, served in its registry place (off the
  // ledger; its configuration keys are the core's `[telemetry]` section, whose `profile` gates every
  // family).
  { name: 'telemetry', cli: true, config: telemetryConfig },
  // Operator sign-in: its routes and passkeys (off the ledger; the passkeys' keys are written in the
  // core's `[operator]` section, whose `public_keys` the gateway's operator authentication reads).
  { name: 'operator', config: operatorPasskeysConfig },
  // The web dashboard: static files of its own and no configuration section of its own (its keys stay
  // the core's `[dashboard]`, where the generated configuration has them).
  { name: 'dashboard' },
]);

// The modules' configuration sections join the one config schema before any process reads it.
addConfigSections(LEDGER_MODULES.flatMap((m) => (m.config === undefined ? [] : [m.config])));
// Their committed rejection forms that carry base units, for readers (src/model/rejection-text.ts).
for (const m of LEDGER_MODULES) if (m.rejectionForms !== undefined) addRejectionForms(m.rejectionForms);

export default LEDGER_MODULES;
