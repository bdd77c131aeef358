// The CLI command groups of the ledger modules, for cli/main.ts. Each module with commands declares them
// in `./<name>/commands.ts` (one exported registration; its registry entry says `cli: true`, which
// registry.test.ts checks against the folders). They are found beside this file by that convention,
// because `torana --help` must stay light: it may not import registry.ts, whose wire declarations load
// the model and its crypto backend. Declarations only — commander and the command texts, never the node.
// A module whose names stand in for ids on the command line exports its `CliIdNames` beside it.
// Loaded before any importer runs (top-level await); groups are registered in folder-name order.

import { existsSync, readdirSync } from 'node:fs';
import type { CliIdNames } from '../cli/id-names.js';
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

const isIdNames = (v: unknown): v is CliIdNames =>
  typeof v === 'object' && v !== null && typeof (v as { resolve?: unknown }).resolve === 'function';

/**
 * The one function a module's `commands.ts` exports (the registration of its command group), and the
 * names it accepts in place of ids, when it exports them.
 */
async function loadCommands(name: string): Promise<{ register: CliRegistration; idNames: CliIdNames[] }> {
  const exports = (await import(`./${name}/commands.js`)) as Record<string, unknown>;
  const fns = Object.values(exports).filter((v): v is CliRegistration => typeof v === 'function');
  if (fns.length !== 1)
    throw new Error(`src/modules/${name}/commands.ts must export one registration, not ${fns.length}`);
  return { register: fns[0]!, idNames: Object.values(exports).filter(isIdNames) };
}

/** The names of the modules that have commands (folder-name order). */
export const MODULES_WITH_COMMANDS: readonly string[] = moduleFolders('commands');

const LOADED = await Promise.all(MODULES_WITH_COMMANDS.map(loadCommands));

/** Every module's command registration, in the order of MODULES_WITH_COMMANDS. */
export const MODULE_COMMANDS: readonly CliRegistration[] = LOADED.map((l) => l.register);

/** The modules' names accepted in place of ids on the command line (cli/id-names.ts), in that order. */
export const MODULE_CLI_ID_NAMES: readonly CliIdNames[] = LOADED.flatMap((l) => l.idNames);
