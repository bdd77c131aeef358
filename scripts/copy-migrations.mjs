#!/usr/bin/env node
// Copies the indexer's SQL migrations (src/indexer/migrations/*.sql) beside the built indexer
// (dist/indexer/migrations/), where src/indexer/migrate.ts looks first. Run by `npm run build` and by
// `prepare` (tsc copies no .sql files; the package ships dist/, not src/).
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const out = join(root, 'dist/indexer/migrations');
rmSync(out, { recursive: true, force: true });
cpSync(join(root, 'src/indexer/migrations'), out, { recursive: true, filter: (p) => !p.endsWith('.md') });
