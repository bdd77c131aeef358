// One JSON example of each of this module's instruction kinds.
// The form `torana tx submit` takes (docs/instructions.md). Found by its file name (src/modules/examples.ts):
// the CLI's schema tests check each one against the published schema and the codec, and write them into
// the generated section of this module's docs page, `page`.

import { ALICE, BOB } from '../../cli/example-world.js';
import type { Json } from '../../codec/codec.js';

const CALL = 'wonderland:standup';
const RELAY_KEY = '11'.repeat(32);

export const page = 'docs/conference.md';

export const examples: Readonly<Record<string, Json>> = {
  CreateConference: {
    kind: 'CreateConference',
    call: CALL,
    policy: { kind: 'Authenticated' },
    privacy: { kind: 'Transparent' },
    title: 'Stand-up',
    description: 'daily',
    scheduled_start_ms: '1767225600000',
    scheduled_end_ms: '1767227400000',
    max_participants: 8,
    gas_rate_per_minute: '0.5',
    billing_account: ALICE,
    metadata: {},
    roster_commitments: [],
  },
  JoinConference: { kind: 'JoinConference', call: CALL, participant: BOB },
  LeaveConference: { kind: 'LeaveConference', call: CALL, participant: BOB },
  RecordConferenceUsage: {
    kind: 'RecordConferenceUsage',
    call: CALL,
    participant: BOB,
    segment: 1,
    duration_ms: '60000',
    billed_gas: '0.5',
  },
  EndConference: { kind: 'EndConference', call: CALL },
  SetConferenceRelayManifest: {
    kind: 'SetConferenceRelayManifest',
    call: CALL,
    manifest: {
      hops: [{ relay: 'relay-eu', public_key: RELAY_KEY, weight: 1 }],
      expires_at_ms: '1767229200000',
    },
  },
  RegisterConferenceRelay: {
    kind: 'RegisterConferenceRelay',
    relay: 'relay-eu',
    public_key: RELAY_KEY,
    endpoint: 'wss://relay-eu.example.org',
    region: 'eu-west',
  },
  ReportConferenceRelayHealth: {
    kind: 'ReportConferenceRelayHealth',
    relay: 'relay-eu',
    available: true,
    latency_ms: 42,
    loss_permille: 3,
  },
};
