// The Connect relay's configuration section `[connect]` (docs/connect.md): its keys, defaults, bounds and
// docs, and its switch rules, added to the one configuration schema through the registry
// (src/config/sections.ts).
import { moduleSection } from '../../config/sections.js';
import { bool, int, ms, type SectionValues, section } from '../../config/spec.js';

const KiB = 1024;
const MiB = 1024 * KiB;

export const connectConfig = moduleSection({
  name: 'connect',
  spec: section('The Connect relay between a wallet and an app (docs/connect.md).', {
    enabled: bool(
      true,
      'Serve the Connect relay under /v1/connect/ (an application family); false: not registered (404, not in OpenAPI). Left unset, it follows app_api.enabled.',
    ),
    sessions_max: int(
      1000,
      1,
      1_000_000,
      'Open Connect sessions on this node (503 connect_sessions_full above).',
    ),
    token_ttl_ms: ms(60_000, 1000, 'Time a Connect token stays valid unused.'),
    idle_ms: ms(300_000, 1000, 'Time a Connect session with no socket is kept.'),
    frame_bytes_max: int(64 * KiB, 256, MiB, 'Largest relayed Connect frame (socket closed 1009 above).'),
    frames_per_second: int(20, 1, 10_000, 'Sustained Connect frames per second of one side (1008 above).'),
    frame_burst: int(40, 1, 100_000, 'Connect frames one side may send at once above that rate.'),
    pending_frames_max: int(8, 0, 1024, 'Connect frames held for a side not yet connected.'),
  }),
  needs: [
    {
      key: 'enabled',
      needs: 'app_api.enabled',
      why: 'the Connect relay routes are part of the application API',
    },
  ],
  follows: { enabled: 'app_api.enabled' },
});

/** The values of `[connect]` (camelCase fields), as `sectionValues(config, connectConfig)` gives them. */
export type ConnectConfig = SectionValues<(typeof connectConfig)['spec']['keys']>;
