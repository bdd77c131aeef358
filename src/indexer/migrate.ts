// The indexer's schema, brought up to date with node-pg-migrate from the SQL migrations beside this file
// (`migrations/*.sql`, shipped in the package as they are). Migrations already applied are recorded in
// `indexer_migrations`; the tool's advisory lock makes two indexers starting together migrate once.

import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runner } from 'node-pg-migrate';
import type { PoolClient } from 'pg';

export const MIGRATIONS_TABLE = 'indexer_migrations';

/**
 * The migrations directory: beside this module when run from source, `src/indexer/migrations` of the
 * package otherwise (the build and test bundles do not copy .sql files), found by walking up.
 */
export function migrationsDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  const beside = join(dir, 'migrations');
  if (existsSync(beside)) return beside;
  for (;;) {
    const candidate = join(dir, 'src', 'indexer', 'migrations');
    if (existsSync(candidate)) return candidate;
    const up = dirname(dir);
    if (up === dir) throw new Error('the indexer migrations (src/indexer/migrations) are missing');
    dir = up;
  }
}

/** Applies the migrations not applied yet; resolves with their names. */
export async function migrate(client: PoolClient): Promise<string[]> {
  const ran = await runner({
    dbClient: client,
    dir: migrationsDir(),
    direction: 'up',
    migrationsTable: MIGRATIONS_TABLE,
    checkOrder: true,
    singleTransaction: true,
    advisoryLockMode: 'wait',
    log: () => undefined,
  });
  return ran.map((m) => m.name);
}
