// The CLI command groups of the ledger modules, for cli/main.ts. Each module with commands declares them
// in `./<name>/commands.ts` (one exported registration; its registry entry says `cli: true`, which
// registry.test.ts checks against the folders). They are found beside this file by that convention,
// because `torana --help` must stay light: it may not import registry.ts, whose wire declarations load
// the model and its crypto backend. Declarations only — commander and the command texts, never the node.
// Loaded before any importer runs (top-level await); groups are registered in folder-name order.

import { existsSync, readdirSync } from 'node:fs';
import type { CliRegistration } from './descriptor.js';

/** The module folders beside this file that have `file` (`.ts` in the sources, `.js` once built), sorted. */
function moduleFolders(file: string): string[] {
  const here = new URL('./', import.meta.url);
  return readdirSync(here, { withFileTypes: true })
    .filter(
      (d) =>
        d.isDirectory() &&
        (existsSync(new URL(`${d.name}/${file}.ts`, here)) ||
          existsSync(new URL(`${d.name}/${file}.js`, here))),
    )
    .map((d) => d.name)
    .sort();
}

/** The one function a module's `commands.ts` exports: the registration of its command group. */
async function loadCommands(name: string): Promise<CliRegistration> {
  const exports = (await import(`./${name}/commands.js`)) as Record<string, unknown>;
  const fns = Object.values(exports).filter((v): v is CliRegistration => typeof v === 'function');
  if (fns.length !== 1)
    throw new Error(`src/modules/${name}/commands.ts must export one registration, not ${fns.length}`);
  return fns[0]!;
}

/** The names of the modules that have commands (folder-name order). */
export const MODULES_WITH_COMMANDS: readonly string[] = moduleFolders('commands');

/** Every module's command registration, in the order of MODULES_WITH_COMMANDS. */
export const MODULE_COMMANDS: readonly CliRegistration[] = await Promise.all(
  MODULES_WITH_COMMANDS.map(loadCommands),
);
