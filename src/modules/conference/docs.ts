// The conference module's entries in the shared documentation pages (src/modules/docs.ts renders them
// into docs/app-api.md, docs/security.md, docs/dashboard.md, docs/errors.md and docs/data-model.md): its
// route family and the names its routes take, its limits, its dashboard page, its gateway error codes and
// those of the shielded pool and the native asset charge it pays through, its ids, rows and instructions.

import { renderModuleConfigDocs } from '../../config/docs.js';
import type { ModuleDocSections } from '../descriptor.js';
import { conferenceConfig } from './config.js';

export const CONFERENCE_DOC_SECTIONS: ModuleDocSections = {
  'app-api-families': [
    '| `conference` | `/v1/conference/*` (calls, relays, relay telemetry, signalling; docs/conference.md) | `conference.enabled` |',
  ],
  'app-api-id-names': [
    "| `/v1/conference/calls/{call_id}/offers` (POST), `…/offers/{participant}` | each offer's `to`, `participant` (account; an unbound name is 404 with the offer's `index`) |",
    '| CLI `conference create`, `conference usage` | `--billing-account`, `--participant` (account) |',
  ],
  'config-sections': [renderModuleConfigDocs(conferenceConfig)],
  'app-api-switches': [
    '`conference.enabled = true` with `app_api.enabled = false` is a configuration error (`config_invalid_value`,\n' +
      'naming the key). Left unset, `conference.enabled` takes the value of `app_api.enabled`, so\n' +
      '`app_api.enabled = false` alone is enough to turn the whole application API off.',
  ],
  'security-writes': [
    '**The shielded pool.** An append hashes only the path to the root (16 Poseidon hashes; the roots of\nempty subtrees are cached), no longer rewriting the tree. A note holds at least the chain parameter\n`ShieldedNoteMinUnits` (default unset: one whole native unit, 10^scale base units; below it\n`shielded_note_below_minimum`), so the 2^16 leaves, fixed by the circuits, cost 65,536 × the minimum to\nfill, locked for good (before: ≈0.066 gas of one-unit dust filled it, and one 35 KB transaction of\n1,000 dust shields held every validator 36 s). `GET /v1/conference/pool` answers one page (`limit`,\n`offset`, capped by `gateway.list_limit_max`), not the whole tree (≈4.5 MB at the cap). Test:\n`test/abuse/value.ts` (`shieldDust`, `poolPages`).',
    '**Conference signal boxes.** Only a call\'s host posts offers; one host holds at most\n`conference.signal_host_records_max` offers (default 1,024) and `conference.signal_host_bytes_max`\n(4 MiB) over all its calls, so creating more calls gives it no more room (429\n`conference_signal_host_quota_exceeded`, nothing of the request stored; replacing an offer takes no more\nquota); all hosts together at most `conference.signal_bytes_max` (64 MiB; 503 `conference_signal_store_full`);\nother limits in docs/conference.md "Limits". Test: `test/abuse/probe.ts` (`signalQuota`).',
    '**Conference usage is bounded and billed on the running total.** A call records at most (block time −\nits creation time) × `max_participants` of usage in all, and a segment naming a participant at most\nblock time − creation time (a fixed rule, no parameter; beyond it `conference_usage_exceeds_elapsed`),\nso the host or a relay operator cannot bill a billing account for time the call has not existed.\nBilling rounds the running total up, not each segment, so many tiny segments cost what one of the same\ntotal does (before: 1 ms segments at 1 unit per minute cost 60,000× the exact amount). With the entry\nfee at 0 a note spend is refused (`shielded_spend_without_fee`): it would pay nothing yet append a\nchange note, and a chain of them could fill the 65,536-leaf pool tree for free. Test:\n`test/abuse/value.ts` (`usageSplit`, `freeSpends`).',
  ],
  'security-sections': [
    '## Development keys\n\nPrivate conferences and the shielded fee verify Groth16 proofs against verifying keys held in network\nparameters (docs/conference.md "Verifying keys"). `torana init` and testnets set the **development\nkeys** committed in `zk/artifacts/`, made by a reproducible setup from public beacons\n(`scripts/build-circuits.mjs`): anyone can recompute its toxic waste and **forge any proof** — join any\nprivate call, spend notes they do not own and drain the shielded pool. They exist for tests and local\ndevelopment only. A node whose configured keys equal a development key (same BLAKE2b-256 of the key\nJSON as `zk/artifacts/*.vkey.json`) logs one warning at start and lists `conference.dev_keys` in\n`GET /v1/node/capabilities` `features` (`src/node/zk-dev-genesis.ts`, `usesDevelopmentKeys`, tested in\n`src/node/zk-dev-genesis.test.ts`, and through a `torana init` node started as a process in\n`test/abuse/dev-keys.ts`). A production network runs a real multi-party ceremony\n(`node scripts/build-circuits.mjs --help`) and sets its own keys with `SetParameter` before any value\nis shielded. Related limits of the design: the signer of a private join is visible on chain (proofs are\nbound to it, which stops front-running; use a fresh account per private join), and the pool account\naccepts no ordinary debit (`shielded_pool_locked`).',
  ],
  'dashboard-additions': [
    '| conference (`dashboard.ts`) | a page `#/conference` (listed when `/v1/conference/calls` is served): `GET /v1/conference/calls?limit=100` (a table of the public calls: id, title, host, roster (participants now / maximum), status and policy, scheduled start, usage (duration, segments, billed gas), relays in hop order), `GET /v1/conference/relays?limit=100` when relay telemetry is served (id, region, endpoint, operator, health, latency, loss, time and block of the last report) |',
  ],
  'errors-routes': [
    "## Conference signalling\n\nRegistered by the node for the signalling routes under `/v1/conference/calls/{call_id}/` (docs/conference.md\n\"Signalling\"). They need a signed app request, so `signature_missing`, `request_stale`,\n`request_signature_invalid` and `nonce_reused` apply as well, and `conference_not_found` (below) for an\nunknown call.\n\n| code                                         | HTTP status | meaning                                                                                                                                                                   |\n| -------------------------------------------- | ----------- | ------------------------------------------------------------------------------------------------------------------------------------------------------------------------- |\n| `conference_signal_not_host`                 | 403         | Offers are posted by the call's host only; the signer is another account.                                                                                                 |\n| `conference_signal_forbidden`                | 403         | An offer is read by its participant or the call's host only.                                                                                                              |\n| `conference_signal_call_ended`               | 409         | The call has ended: no new offers.                                                                                                                                        |\n| `conference_signal_recipient_invalid`        | 400         | An offer's `to` is not an account id with an Ed25519 key (`details.index`).                                                                                               |\n| `conference_signal_recipient_not_registered` | 422         | An offer's `to` is not a registered account (`details.index`).                                                                                                            |\n| `conference_signal_envelope_invalid`         | 400         | An envelope is shorter than its fixed overhead or its version byte is not 1 (`details.index`).                                                                            |\n| `conference_signal_envelope_too_large`       | 413         | An envelope is above `conference.signal_envelope_bytes_max` (`details.index`, `details.limit`).                                                                           |\n| `conference_signal_offers_full`              | 422         | The call would hold more offers than `conference.signal_offers_per_call_max` (`details.limit`, `count`).                                                                  |\n| `conference_signal_store_full`               | 503         | The signal box holds `conference.signal_bytes_max` of offers; retry after `Retry-After`.                                                                                  |\n| `conference_signal_host_quota_exceeded`      | 429         | The host would hold more offers (all its calls) than `conference.signal_host_bytes_max` / `_records_max` (`details.quota`, `limit`, `wanted`); retry after `Retry-After`. |\n| `conference_signal_offer_not_found`          | 404         | No current (unexpired) offer for this participant in this call.                                                                                                           |",
    '## Conference routes\n\nRegistered by the node for the conference read routes (`docs/conference.md` "Routes and CLI"). The\nsame words are ledger rejection codes (R601, R602) of transactions naming an unknown call or relay.\n\n| code                         | HTTP status | meaning                                                                                      |\n| ---------------------------- | ----------- | -------------------------------------------------------------------------------------------- |\n| `conference_not_found`       | 404         | `GET /v1/conference/calls/{call_id}`: no call has this id (`details.call`).                  |\n| `conference_relay_not_found` | 404         | `GET /v1/conference/relays/{relay_id}`: no relay is registered under this id (`details.relay`). |',
  ],
  'errors-rejections': [
    '| `conference_native_asset_not_configured` | R619 | The native_asset parameter is missing or names no asset definition. |',
    '| `zk_keys_not_configured` | R622 | The zero-knowledge verifying keys are not configured. |',
    '| `zk_proof_invalid` | R623 | The zero-knowledge proof does not verify for this call and action. |',
    '| `nullifier_reused` | R624 | The nullifier has already been spent. |',
    '| `insufficient_shielded_value` | R625 | No note spend pays the entry fee. |',
    '| `unknown_root` | R626 | The note spend names a pool root that is not among the recent roots. |',
    '| `shielded_pool_not_configured` | R627 | The shielded_pool_account or conference_entry_fee parameter is missing or invalid. |',
    '| `shielded_pool_full` | R628 | The shielded pool tree holds 65,536 notes. |',
    '| `shielded_pool_locked` | R629 | The shielded pool account is debited other than by a note spend, or replaced while it backs notes. |',
    '| `shielded_note_below_minimum` | R630 | The note is worth less than the ShieldedNoteMinUnits parameter (unset: one whole native unit). |',
    '| `shielded_spend_without_fee` | R632 | A note spend is refused while the entry fee is zero. |',
  ],
  'errors-cli': [
    "| `nullifier_reused` | Exit 1: `torana conference join/leave --private`: the roster key's nullifier is already spent (read before proving); nothing was proved or sent. The ledger's rejection of the same name (R624) is what the transaction would have met. |",
  ],
  'data-model-ids': [
    '| conference call | `<domain>:<call name>` | `wonderland:standup` |',
    '| conference relay | `<name>` | `eu-1` |',
  ],
  'data-model-entities': [
    'Conference entities (`src/modules/conference/model.ts`, [conference.md](conference.md)): `ConferenceCall` (`id`,\n`host`, `title`, `description`, `policy`, `privacy`, schedule, `max_participants`, `gas_rate_per_minute`,\n`billing_account`, `metadata`, `manifest`, `roster`, `usage` totals, `status` Active/Ended, created and ended\nheight and time) and `ConferenceRelay` (`id`, `operator`, `public_key`, `endpoint`, `region`, `health`,\n`registered_height`). The shielded pool\'s smallest note is the custom parameter `shielded_note_min_units`,\nset by `SetParameter ShieldedNoteMinUnits` (conference.md "Minimum note").',
  ],
  'data-model-instructions': [
    'Conference ([conference.md](conference.md)): `CreateConference`, `JoinConference`,\n`LeaveConference`, `RecordConferenceUsage`, `EndConference`, `SetConferenceRelayManifest`,\n`RegisterConferenceRelay`, `ReportConferenceRelayHealth`, `ShieldAsset`.',
  ],
};
