// The webhooks module's configuration section `[webhooks]` (docs/webhooks.md): its keys, defaults, bounds
// and docs, added to the one configuration schema through the registry (src/config/sections.ts), and the
// loopback receivers the configuration `torana init` writes allows. Keys and defaults are the ones the node
// always had.
import { moduleSection } from '../../config/sections.js';
import {
  BYTES_CEILING,
  bool,
  COUNT_CEILING,
  int,
  list,
  ms,
  type SectionValues,
  section,
} from '../../config/spec.js';

const KiB = 1024;
const MiB = 1024 * KiB;

/** Loopback receivers (`webhooks.allowed_targets`) in the configuration `torana init` writes. */
export const LOCAL_WEBHOOK_TARGETS = ['127.0.0.0/8', '::1/128', 'localhost'];

export const webhooksConfig = moduleSection({
  name: 'webhooks',
  spec: section('Webhooks: node-local registrations and their outbound delivery (docs/webhooks.md).', {
    allow_private_targets: bool(
      false,
      'Allow delivery to private, loopback, link-local and unique-local addresses (every address a host resolves to is checked); `torana init` allows loopback through allowed_targets instead.',
    ),
    allowed_targets: list(
      [],
      'CIDRs (127.0.0.0/8, ::1/128) and host names that may be delivered to even when private (422 webhook_target_refused otherwise).',
    ),
    webhooks_max: int(
      1000,
      1,
      COUNT_CEILING,
      'Registrations this node holds (409 webhook_limit_reached above).',
    ),
    per_owner_max: int(
      20,
      1,
      COUNT_CEILING,
      'Registrations one signing key holds, over every account id of that key (409 webhook_limit_reached above; operators are not capped by it).',
    ),
    url_chars_max: int(2048, 16, 65_536, 'Longest delivery URL.'),
    secret_chars_max: int(256, 1, 4096, 'Longest webhook secret.'),
    secret_overlap_ms: ms(
      86_400_000,
      0,
      'After POST /v1/webhooks/{id}/secret, how long deliveries are signed with the old secret as well as the new one (the longest overlap a rotation may ask for); then the old secret is dropped.',
    ),
    attempts_max: int(12, 1, 1000, 'Delivery attempts before a delivery goes to the dead letters.'),
    retry_base_ms: ms(1000, 1, 'Backoff before the second attempt; it doubles per attempt, with jitter.'),
    retry_max_delay_ms: ms(60_000, 1, 'Longest backoff between two attempts.'),
    timeout_ms: ms(10_000, 1, 'Time one delivery attempt may take (connect, send, answer).'),
    in_flight_max: int(
      64,
      1,
      COUNT_CEILING,
      'Webhooks delivering at the same time (each one attempt at a time, in order); the others wait their turn.',
    ),
    in_flight_per_owner_max: int(
      8,
      1,
      COUNT_CEILING,
      "Webhooks of one owner (signing key) delivering at the same time: one owner's slow or dead targets cannot take every in_flight_max slot.",
    ),
    recovery_blocks_max: int(
      100_000,
      0,
      COUNT_CEILING,
      "Longest chain (in blocks, re-executed from genesis) read back at a start to recover events a crash kept from the webhook intake; above, the gap is logged and recorded in each webhook's last_error instead.",
    ),
    delivery_window: int(
      256,
      1,
      COUNT_CEILING,
      'Oldest pending deliveries of one webhook handed to the delivery thread ahead; it attempts them one after the other and stops at the first failure.',
    ),
    response_bytes_max: int(
      16 * KiB,
      0,
      BYTES_CEILING,
      'Bytes of a receiver answer read (kept for last_error); the rest is dropped and the connection closed.',
    ),
    queue_per_webhook_max: int(
      10_000,
      1,
      COUNT_CEILING,
      'Pending deliveries one webhook holds; above, new events for it are dropped and counted (webhook_deliveries_total{outcome="dropped"}).',
    ),
    queue_total_max: int(
      100_000,
      1,
      COUNT_CEILING,
      "Pending deliveries over all webhooks; above, the owner holding the most pending deliveries loses its oldest one (dead-lettered, counted in webhook_owner_shed_total), not the newcomer's event.",
    ),
    queue_per_owner_max: int(
      20_000,
      1,
      COUNT_CEILING,
      "Pending deliveries over all webhooks of one owner (signing key); above, that owner's oldest pending delivery is dead-lettered and counted (webhook_owner_shed_total), never another owner's.",
    ),
    dead_letters_per_webhook_max: int(
      1000,
      1,
      COUNT_CEILING,
      'Dead letters kept per webhook; above, the oldest is forgotten.',
    ),
    recent_per_webhook_max: int(
      50,
      0,
      10_000,
      'Delivered deliveries kept per webhook for GET .../deliveries.',
    ),
    body_bytes_max: int(16 * KiB, 1024, MiB, 'Largest body of POST /v1/webhooks (413 above).'),
  }),
  // A local (development) setup may deliver to receivers on this machine.
  local: { allowed_targets: LOCAL_WEBHOOK_TARGETS },
});

/** The values of `[webhooks]` (camelCase fields), as `sectionValues(config, webhooksConfig)` gives them. */
export type WebhooksConfig = SectionValues<(typeof webhooksConfig)['spec']['keys']>;
