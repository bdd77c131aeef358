// The webhooks module's entries in the shared documentation pages (src/modules/docs.ts renders them into
// docs/app-api.md, docs/security.md and docs/errors.md): its route family and the filter names it
// resolves, its outbound target rule and per-owner limits, its gateway error codes and its CLI code.

import { renderModuleConfigDocs } from '../../config/docs.js';
import type { ModuleDocSections } from '../descriptor.js';
import { webhooksConfig } from './config.js';

export const WEBHOOK_DOC_SECTIONS: ModuleDocSections = {
  'config-sections': [renderModuleConfigDocs(webhooksConfig)],
  'app-api-families': [
    '| `webhooks` | `/v1/webhooks/*` (node-local registrations, their deliveries and dead letters; docs/webhooks.md) | a node directory (its store is `<data>/webhooks/`) |',
  ],
  'app-api-id-names': [
    '| event filter of a webhook (`POST /v1/webhooks`) | values of `eq`, `ne`, `in`, `nin` on `account` (account), `definition` (definition) and `asset` (asset), as for the event streams; resolved when the webhook is registered: the webhook stores the resolved filter, so a later rebinding of a name does not move it |',
  ],
  'security-writes': [
    "**Webhook targets** must be global unicast by `ipaddr.js`'s range classification, IPv4 and IPv6 alike,\nan IPv6 address that carries an IPv4 address (mapped, translated, compatible, NAT64, 6to4, Teredo)\njudged by that IPv4 address; site-local and every other special range is refused (422\n`webhook_target_refused`) unless `webhooks.allowed_targets` lists it (the `torana init` configuration\nlists loopback for local receivers). Before, `[::127.0.0.1]`, `[::ffff:0:7f00:1]`, `[2002:7f00:1::]` and\n`[fec0::1]` were accepted. Tests: `src/modules/webhooks/address-range.test.ts`, `test/abuse/webhook-targets.ts`.",
  ],
  'security-sections': [
    '## Webhooks: one owner cannot fill the node\n\nWebhook owners are registered accounts (the rule of "Signed app requests"), and every share is counted per **signing key**\n(one key under several domains is one owner; operator registrations are one owner of their own):\n\n| limit | default | when reached |\n| --- | --- | --- |\n| `webhooks.per_owner_max` | 20 | registrations of one key: 409 `webhook_limit_reached` (others still register) |\n| `webhooks.queue_per_owner_max` | 20,000 | pending deliveries of one owner: that owner\'s oldest pending delivery not yet handed out is dead-lettered (replayable) and counted in `webhook_owner_shed_total{reason="owner_share"}` |\n| `webhooks.queue_total_max` | 100,000 | pending deliveries of the node: the owner holding the most loses its oldest (`reason="total"`), not the newcomer\'s event |\n| `webhooks.in_flight_per_owner_max` | 8 | webhooks of one owner delivering at once: one owner\'s dead or slow targets cannot hold every `webhooks.in_flight_max` slot |\n| `webhooks.secret_overlap_ms` | 86,400,000 (24 h) | how long a rotated-out webhook secret still signs deliveries (the longest overlap a rotation may ask for; 400 `bad_request` above); then it is dropped |\n\nDeliveries stay in order and at least once per webhook: a shed delivery is never one the delivery thread\nholds, and it keeps its id in the dead letters. Test: `test/abuse/signed.test.ts` (a key under fake\ndomains registers nothing; one owner\'s dead targets over many commits, another owner\'s receiver gets\nevery event in order).',
  ],
  'errors-routes': [
    "## Webhooks\n\nRegistered by the node for `/v1/webhooks` (docs/webhooks.md). Registration and the other routes take a\nsigned app request or operator credentials, so `signature_missing`, `request_stale`,\n`request_signature_invalid`, `nonce_reused` and the operator codes apply as well.\n\n| code                         | HTTP status | meaning                                                                                                   |\n| ---------------------------- | ----------- | --------------------------------------------------------------------------------------------------------- |\n| `webhook_not_found`          | 404         | No webhook with this id belongs to the caller (operators see every webhook) (`details.id`).              |\n| `webhook_delivery_not_found` | 404         | The webhook has no dead letter with this delivery id (`details.delivery_id`).                            |\n| `webhook_url_invalid`        | 400         | The URL is not an absolute `http:` or `https:` URL, carries credentials, or is too long (`details.reason`). |\n| `webhook_target_refused`     | 422         | The URL's host is or resolves to a private, loopback, link-local or unique-local address not allowed by `webhooks.allowed_targets` (`details.address`, `details.reason`). |\n| `webhook_limit_reached`      | 409         | The node holds `webhooks.webhooks_max` webhooks, or the account `webhooks.per_owner_max` (`details.limit`). |\n| `webhook_store_unavailable`  | 503         | The webhook store is closed or failed (`details.reason`).                                                |\n| `webhook_queue_full`         | 503         | `POST /v1/webhooks/{id}/test`: the webhook's queue has no room for the test delivery (`details.id`); retry later. |",
  ],
  'operations-alerts': [
    '| `ToranaWebhookDeadLetters` | warning | Webhook deliveries were given up after every retry. | The receiver is down or refusing; see its dead letters (docs/webhooks.md). |',
  ],
  'errors-cli': [
    '| `webhook_test_failed` | Exit 1: `torana webhook test --wait`: the test delivery was not delivered (still pending after a minute, or dead); the message has its `last_error`. |',
  ],
};
