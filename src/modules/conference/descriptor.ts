// The conference module (docs/conference.md): calls with a roster (transparent, or private behind
// zero-knowledge roster proofs), usage billed in the native asset, relay registry and manifests, and
// the node-local signalling of offers and answers. The shielded pool and the proof verifier it pays and
// proves through are the core's (state/exec-shielded.ts, state/exec-zk-keys.ts).

import { sectionValues } from '../../config/schema.js';
import type { LedgerModule } from '../descriptor.js';
import { registerConferenceCommands } from './commands.js';
import { conferenceConfig } from './config.js';
import { CONFERENCE_DOC_SECTIONS } from './docs.js';
import { conferenceEventScope } from './event-scope.js';
import * as calls from './exec-calls.js';
import * as relays from './exec-relays.js';
import * as roster from './exec-roster.js';
import * as usage from './exec-usage.js';
import { conferenceFamily } from './family.js';
import { CONFERENCE_GATEWAY_ERRORS } from './gateway-errors.js';
import { ConferenceCallCodec, ConferenceRelayCodec } from './model.js';
import { conferenceReadPort } from './reads.js';
import { CONFERENCE_SDK } from './sdk.js';

export const conferenceModule: LedgerModule = {
  name: 'conference',
  instructions: {
    CreateConference: calls.createConference,
    JoinConference: roster.joinConference,
    LeaveConference: roster.leaveConference,
    RecordConferenceUsage: usage.recordConferenceUsage,
    EndConference: calls.endConference,
    SetConferenceRelayManifest: calls.setConferenceRelayManifest,
    RegisterConferenceRelay: relays.registerConferenceRelay,
    ReportConferenceRelayHealth: relays.reportConferenceRelayHealth,
  },
  tables: ['conferenceCall', 'conferenceRelay'],
  schemaTypes: [ConferenceCallCodec, ConferenceRelayCodec],
  events: [
    'ConferenceRosterSummary',
    'ConferenceRelayManifestUpdated',
    'ConferenceRelayHealthUpdated',
    'ConferenceUsageSummary',
    'ConferenceEnded',
    'ConferenceRelayRegistered',
  ],
  eventScope: conferenceEventScope,
  rejections: [
    'conference_not_found',
    'conference_relay_not_found',
    'conference_ended',
    'conference_not_host',
    'conference_invalid_call',
    'conference_billing_not_allowed',
    'conference_privacy_mismatch',
    'conference_manifest_invalid',
    'conference_manifest_expired',
    'conference_relay_key_mismatch',
    'conference_relay_unavailable',
    'conference_already_joined',
    'conference_roster_full',
    'conference_not_participant',
    'conference_not_self',
    'conference_usage_not_allowed',
    'conference_segment_not_increasing',
    'conference_billing_mismatch',
    'conference_native_asset_not_configured',
    'conference_invalid_relay',
    'conference_not_relay_operator',
    'conference_usage_exceeds_elapsed',
  ],
  // An application family: registered with `app_api.enabled`, built only with `conference.enabled`.
  routes: (env) => {
    const config = sectionValues(env.config, conferenceConfig);
    return config.enabled
      ? conferenceFamily(env.deps, conferenceReadPort(env.state), {
          config,
          signedRequests: env.signedRequests,
          now: env.now,
          onError: (e) => env.logError('conference signals', e),
        })
      : undefined;
  },
  gatewayErrors: CONFERENCE_GATEWAY_ERRORS,
  sdk: CONFERENCE_SDK,
  cli: registerConferenceCommands,
  docs: 'docs/conference.md',
  docSections: CONFERENCE_DOC_SECTIONS,
};
