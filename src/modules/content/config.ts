// The content bundles module's configuration section `[content]` (docs/content.md): its keys, defaults,
// bounds and docs, added to the one configuration schema through the registry (src/config/sections.ts).
import { moduleSection } from '../../config/sections.js';
import { BYTES_CEILING, COUNT_CEILING, int, ms, type SectionValues, section } from '../../config/spec.js';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

export const contentConfig = moduleSection({
  name: 'content',
  spec: section(
    'Content files kept off chain by this node and served by its content routes (docs/content.md); with app_api.enabled.',
    {
      store_bytes_max: int(
        GiB,
        0,
        2 ** 40,
        'Bytes of files this node stores (507 content_store_full above).',
      ),
      upload_bytes_max: int(16 * MiB, 1, BYTES_CEILING, 'Largest file one upload carries (413 above).'),
      cache_max_age_s: int(
        31_536_000,
        0,
        COUNT_CEILING,
        'Cache-Control max-age of a served file (public and immutable when public, else private).',
      ),
      egress_window_ms: ms(60_000, 1000, 'The window the egress budgets below count bytes over.'),
      egress_node_bytes: int(GiB, 1, 2 ** 40, 'Bytes of files served per window by this node (429 above).'),
      egress_client_bytes: int(
        64 * MiB,
        1,
        2 ** 40,
        'Bytes served per window to one client: the signing account, else its address (429 above).',
      ),
    },
  ),
});

/** The values of `[content]` (camelCase fields), as `sectionValues(config, contentConfig)` gives them. */
export type ContentConfig = SectionValues<(typeof contentConfig)['spec']['keys']>;
