// The conference module's configuration section `[conference]` (docs/conference.md "Routes and CLI"):
// its keys, defaults, bounds and docs, and its switch rules, added to the one configuration schema
// through the registry (src/config/sections.ts). Keys and defaults are the ones the node always had.
import { moduleSection } from '../../config/sections.js';
import {
  BYTES_CEILING,
  bool,
  COUNT_CEILING,
  int,
  ms,
  type SectionValues,
  section,
} from '../../config/spec.js';

const KiB = 1024;
const MiB = 1024 * KiB;

export const conferenceConfig = moduleSection({
  name: 'conference',
  spec: section('The conference app API (docs/conference.md "Routes and CLI").', {
    enabled: bool(
      true,
      'Serve the conference routes under /v1/conference/ (the app API feature of the family); false: not registered (404, not in OpenAPI). Left unset, it follows app_api.enabled; true needs app_api.enabled.',
    ),
    relay_telemetry: bool(
      true,
      'Serve the relay telemetry routes and the conference_relays series (the telemetry feature; needs conference.enabled); false: not registered.',
    ),
    // Signalling (docs/conference.md "Signalling"): the node-local signal box and its routes.
    signal_offers_per_call_max: int(
      256,
      1,
      COUNT_CEILING,
      'Offers one call may hold at once, one per participant (422 conference_signal_offers_full above).',
    ),
    signal_answers_per_call_max: int(
      256,
      1,
      COUNT_CEILING,
      'Committed answers kept per call for the signals routes; the oldest is dropped above.',
    ),
    signal_envelope_bytes_max: int(
      16 * KiB,
      128,
      16 * KiB,
      'Largest signalling envelope (413 conference_signal_envelope_too_large above; JoinConference.answer holds 16 KiB).',
    ),
    signal_ttl_ms: ms(3_600_000, 1, 'How long an offer or answer stays in the signal box.'),
    signal_bytes_max: int(
      64 * MiB,
      KiB,
      BYTES_CEILING,
      'Offer envelope bytes (plus 512 per record) the signal box holds over all calls (503 conference_signal_store_full above).',
    ),
    signal_answer_bytes_max: int(
      64 * MiB,
      KiB,
      BYTES_CEILING,
      "Committed answer envelope bytes (plus 512 per record) the signal box holds over all calls, apart from offers; above, a new answer evicts its own call's oldest answers, or is not kept.",
    ),
    signal_host_bytes_max: int(
      4 * MiB,
      KiB,
      BYTES_CEILING,
      'Offer envelope bytes (plus 512 per record) one host (signer) holds over all its calls (429 conference_signal_host_quota_exceeded above).',
    ),
    signal_host_records_max: int(
      1024,
      1,
      COUNT_CEILING,
      'Offers one host (signer) holds over all its calls (429 conference_signal_host_quota_exceeded above).',
    ),
    signal_body_bytes_max: int(256 * KiB, KiB, 16 * MiB, 'Largest body of POST .../offers (413 above).'),
    signal_backfill_blocks: int(
      1000,
      0,
      COUNT_CEILING,
      'Newest committed blocks read back at start for answers still within signal_ttl_ms (0: none).',
    ),
    signal_offers_per_request_max: int(64, 1, 4096, 'Most offers in one POST .../offers.'),
    signal_page_max: int(500, 1, 10_000, 'Largest page of GET .../signals.'),
  }),
  needs: [
    {
      key: 'enabled',
      needs: 'app_api.enabled',
      why: 'the conference relay, call and signalling routes are part of the application API',
    },
  ],
  follows: { enabled: 'app_api.enabled' },
});

/** The values of `[conference]` (camelCase fields), as `sectionValues(config, conferenceConfig)` gives them. */
export type ConferenceConfig = SectionValues<(typeof conferenceConfig)['spec']['keys']>;
