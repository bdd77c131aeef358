// The explorer's configuration section `[explorer]` (docs/explorer.md, docs/indexer.md "Serving the
// explorer from PostgreSQL"): which committed reads the explorer's and the other read families are served
// over, the node's own ledger or the replica the indexer's database feeds (the descriptor's `readSource`).
// Its keys, defaults, docs and place (right after the history module's section, where the core had it)
// are the ones the node always had, so config.toml and `torana config` read as before.
import { moduleSection } from '../../config/sections.js';
import { ms, oneOf, type SectionValues, section, str } from '../../config/spec.js';

/** Where the explorer and history routes read from. */
export const EXPLORER_BACKENDS = ['embedded', 'postgres'] as const;

export const explorerConfig = moduleSection({
  name: 'explorer',
  writtenAfter: 'history',
  // Served whenever the application API is: `app_api.enabled`'s description names it with the families.
  appFamily: true,
  spec: section(
    'Where the explorer (/v1/explorer/*) and history routes read from (docs/indexer.md "Serving the explorer from PostgreSQL").',
    {
      backend: oneOf(
        EXPLORER_BACKENDS,
        'embedded',
        "embedded: the node's own stores; postgres: the blocks `torana index --pg` wrote into explorer.pg, replayed in memory and followed at their indexed height (header x-torana-indexed-height).",
      ),
      pg: str(
        '',
        'The indexer\'s database for explorer.backend = "postgres": a postgres:// URL or libpq key=value pairs, as `torana index --pg`.',
      ),
      pg_poll_ms: ms(
        500,
        10,
        'How often the postgres backend reads the indexed height and replays the blocks indexed since.',
      ),
    },
  ),
  // The postgres backend reads the indexer's database: it must be named.
  checkDoc:
    '`explorer.backend = "postgres"` with `explorer.pg` empty is `config_invalid_value` naming `explorer.pg`.',
  check: (v) =>
    v.backend === 'postgres' && v.pg === ''
      ? [
          {
            key: 'pg',
            message: 'explorer.backend is "postgres" but explorer.pg is empty: name the indexer\'s database',
          },
        ]
      : [],
});

/** The values of `[explorer]` (camelCase fields), as `sectionValues(config, explorerConfig)` gives them. */
export type ExplorerConfig = SectionValues<(typeof explorerConfig)['spec']['keys']>;
