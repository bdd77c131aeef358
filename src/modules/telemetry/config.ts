// The telemetry module's configuration keys (docs/telemetry.md): its live feed's interval, its gateway URL
// and its peer reports, added to the one configuration schema through the registry (src/config/sections.ts).
// They are written in the core's `[telemetry]` section (`inCoreSection`), after its `profile`, the
// gateway's visibility gate of every family, which stays core: so config.toml, `torana config` and the
// `TORANA_TELEMETRY_*` names read as before.
import { moduleSection } from '../../config/sections.js';
import { int, ms, type SectionValues, section, str } from '../../config/spec.js';

export const telemetryConfig = moduleSection({
  name: 'telemetry',
  inCoreSection: true,
  spec: section("The telemetry module's keys, in the core section `[telemetry]` after its `profile`.", {
    live_interval_ms: ms(
      5000,
      100,
      'Interval of the snapshots (peers and block propagation) of the GET /v1/telemetry/live SSE stream.',
    ),
    // Peer reports (docs/telemetry.md "Peer reports"; report-codec.ts).
    gossip_interval_ms: ms(
      5000,
      0,
      'How often this node sends its telemetry report (gateway URL, height, queue depth, version, recent block commit times) to its connected peers; 0: neither sent nor accepted. A node of an earlier release disconnects a peer that sends one: keep 0 on every node until all run a release with peer reports.',
    ),
    gateway_url: str(
      '',
      'Gateway URL this node gives in peers-info and in its reports to peers (http:// or https://, at most 512 bytes); empty: http://<gateway.host>:<port>, or none in reports when the host is a wildcard (0.0.0.0, ::).',
    ),
    peer_reports_max: int(4, 1, 64, 'Reports kept per peer (the newest ones); older ones are dropped.'),
    peer_report_stale_ms: ms(
      60_000,
      1,
      'A peer report older than this (by the time it was received) is dropped and no longer counted.',
    ),
    peer_report_min_gap_ms: ms(
      1000,
      0,
      'Reports from one peer closer together than this are refused (counted per peer), bounding the work a peer can cause.',
    ),
  }),
});

/** The module's values of `[telemetry]` (camelCase fields), as `sectionValues(config, telemetryConfig)` gives them. */
export type TelemetryConfig = SectionValues<(typeof telemetryConfig)['spec']['keys']>;
