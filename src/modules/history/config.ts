// The transaction history's configuration section `[history]` (docs/history.md): its key, default, bounds
// and docs, added to the one configuration schema through the registry (src/config/sections.ts). The key,
// its default and the place of the section (right after `[query]`) are the ones the node always had, so
// config.toml and `torana config` read as before.
import { moduleSection } from '../../config/sections.js';
import { COUNT_CEILING, int, type SectionValues, section } from '../../config/spec.js';

export const historyConfig = moduleSection({
  name: 'history',
  writtenAfter: 'query',
  spec: section(
    'Transaction history (/v1/transactions/history and the per-account and per-definition lists).',
    {
      scan_entries_max: int(
        1_000_000,
        1,
        COUNT_CEILING,
        'Most index entries one history request reads (422 query_budget_exceeded beyond it).',
      ),
    },
  ),
});

/** The values of `[history]` (camelCase fields), as `sectionValues(config, historyConfig)` gives them. */
export type HistoryConfig = SectionValues<(typeof historyConfig)['spec']['keys']>;
