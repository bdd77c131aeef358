// Loads the heavy part of the ledger modules listed in registry.ts — each module's descriptor, from
// `./<name>/descriptor.ts` by convention, so that this file names no module — checks the descriptors
// against the core's tag tables and the modules' wire declarations, and installs the executor's part
// (state/module-host.ts). Only composition roots import it (node/, the simulator, test helpers that run
// blocks); it finishes loading before any importer runs (top-level await). The SDK and the CLI's
// `--help` import registry.ts alone and never load a descriptor.

import type { Config } from '../config/schema.js';
import type { ErrorSpec } from '../gateway/errors.js';
import { installModuleEventScopes } from '../gateway/event-scope.js';
import type { RouteFamily } from '../gateway/family.js';
import { installIdNameWords } from '../gateway/id-name-words.js';
import { DataEventCodec } from '../model/events.js';
import { INSTRUCTION_KINDS, type InstructionKind } from '../model/instructions.js';
import { isRejectionCode } from '../model/rejections.js';
import { SCHEMA } from '../model/schema.js';
import { TABLE_TAGS } from '../state/keys.js';
import { claimProblems, installExecutorModules } from '../state/module-host.js';
import { undeclaredWire } from '../state/module-wire.js';
import type { LedgerModule, ModuleEntry, ModuleRouteEnv } from './descriptor.js';

export type { LedgerModule };

import { ledgerModule } from './ledger.js';
import LEDGER_MODULE_ENTRIES from './registry.js';

/** The lowest instruction tag a module claims (its place in the registry). */
function firstTag(m: LedgerModule): number {
  const tags = Object.keys(m.instructions).map((k) => INSTRUCTION_KINDS.indexOf(k as InstructionKind));
  return tags.length === 0 ? Number.POSITIVE_INFINITY : Math.min(...tags);
}

/**
 * Everything wrong with a list of modules against the core tag tables: instruction kinds claimed by
 * none or by two, table ids likewise, names repeated, the list out of tag order, a dependency listed
 * after its dependent or missing, claimed events, rejection codes or schema types the core does not know.
 * Empty when the build is consistent.
 */
export function registryProblems(modules: readonly LedgerModule[]): string[] {
  const problems = claimProblems(modules.map((m) => ({ name: m.name, handlers: m.instructions })));
  const names = modules.map((m) => m.name);
  names.forEach((n, i) => {
    if (names.indexOf(n) !== i) problems.push(`module ${n} is listed twice`);
    for (const d of modules[i]!.dependsOn ?? [])
      if (!names.slice(0, i).includes(d))
        problems.push(`${n} depends on ${d}, which is not listed before it`);
  });
  const tables = new Map<string, string>();
  for (const m of modules)
    for (const t of m.tables) {
      if (!Object.hasOwn(TABLE_TAGS, t)) problems.push(`${m.name} claims table ${t}, which has no id`);
      const before = tables.get(t);
      if (before !== undefined) problems.push(`table ${t} is claimed by ${before} and ${m.name}`);
      tables.set(t, m.name);
    }
  for (const t of Object.keys(TABLE_TAGS))
    if (!tables.has(t)) problems.push(`table ${t} is claimed by no module`);
  for (let i = 1; i < modules.length; i++)
    if (firstTag(modules[i - 1]!) > firstTag(modules[i]!))
      problems.push(`${modules[i]!.name} is listed after ${modules[i - 1]!.name} but has a lower tag`);
  const eventKinds = new Set(DataEventCodec.tags);
  for (const m of modules) {
    for (const e of m.events)
      if (!eventKinds.has(e)) problems.push(`${m.name} claims event ${e}, which has no tag`);
    for (const r of m.rejections)
      if (!isRejectionCode(r)) problems.push(`${m.name} claims unknown code ${r}`);
    for (const c of m.schemaTypes)
      if (c.name === undefined || !SCHEMA.has(c.name))
        problems.push(`${m.name}'s schema type ${c.name} is not in the schema registry`);
  }
  return problems;
}

/** A module's descriptor: the export of `./<name>/descriptor.ts` whose `name` is the module's. */
async function loadDescriptor(entry: ModuleEntry): Promise<LedgerModule> {
  if (entry.name === 'ledger') return ledgerModule;
  const exports = (await import(`./${entry.name}/descriptor.js`)) as Record<string, unknown>;
  const found = Object.values(exports).find(
    (v): v is LedgerModule =>
      typeof v === 'object' && v !== null && (v as { name?: unknown }).name === entry.name,
  );
  if (found === undefined) throw new Error(`src/modules/${entry.name}/descriptor.ts exports no descriptor`);
  const problems = entryProblems(entry, found);
  if (problems.length > 0) throw new Error(problems.join('; '));
  return found;
}

/** Where a module's registry entry and its descriptor disagree (CLI commands, dependencies). */
export function entryProblems(entry: ModuleEntry, m: LedgerModule): string[] {
  const problems: string[] = [];
  if ((m.cli !== undefined) !== (entry.cli === true))
    problems.push(`${entry.name}: the registry entry and the descriptor disagree on CLI commands`);
  if ((m.dependsOn ?? []).join() !== (entry.dependsOn ?? []).join())
    problems.push(`${entry.name}: the registry entry and the descriptor disagree on its dependencies`);
  return problems;
}

async function load(): Promise<readonly LedgerModule[]> {
  const missing = undeclaredWire();
  if (missing.length > 0)
    throw new Error(`wire declarations missing from the modules of this build: ${missing.join(', ')}`);
  const modules = Object.freeze(await Promise.all(LEDGER_MODULE_ENTRIES.map(loadDescriptor)));
  const problems = registryProblems(modules);
  if (problems.length > 0)
    throw new Error(`the ledger modules do not match the core tag tables: ${problems.join('; ')}`);
  installExecutorModules(
    modules.map((m) => ({
      name: m.name,
      handlers: m.instructions,
      ...(m.dueWork === undefined ? {} : { dueWork: m.dueWork }),
      ...(m.authorityCheck === undefined ? {} : { authorityCheck: m.authorityCheck }),
      ...(m.transferCheck === undefined ? {} : { transferCheck: m.transferCheck }),
      ...(m.removal === undefined ? {} : { removal: m.removal }),
      ...(m.parties === undefined ? {} : { parties: m.parties }),
      ...(m.touches === undefined ? {} : { touches: m.touches }),
      ...(m.idNaming === undefined ? {} : { idNaming: m.idNaming }),
      ...(m.scheduledRuns === undefined ? {} : { scheduledRuns: m.scheduledRuns }),
      ...(m.scheduledRunMaker === undefined ? {} : { scheduledRunMaker: m.scheduledRunMaker }),
    })),
  );
  installModuleEventScopes(modules.flatMap((m) => (m.eventScope === undefined ? [] : [m.eventScope])));
  installIdNameWords(modules.find((m) => m.idNaming?.words !== undefined)?.idNaming?.words);
  return modules;
}

/** The descriptors of this build, in registry order (loaded and installed when this file was imported). */
export const LEDGER_MODULES: readonly LedgerModule[] = await load();

/**
 * The route families of the modules that have one (and whose switch is on), in registry order;
 * node/families.ts serves each at its rank (`servedAt`, gateway/family.ts `placeFamilies`). `dataDir` is the node's data folder, when served from a node directory: each module's
 * store folder is `<dataDir>/<module name>` (or its descriptor's `storeFolder`; the env's `storeDir`).
 */
export async function moduleFamilies(
  env: Omit<ModuleRouteEnv, 'storeDir'> & { readonly dataDir?: string },
  modules: readonly LedgerModule[] = LEDGER_MODULES,
): Promise<RouteFamily[]> {
  const { dataDir, ...common } = env;
  const out: RouteFamily[] = [];
  // One after the other, in registry order: a family that opens a store or starts workers is built
  // before the next one is asked.
  // A family that fails to build (a store that will not open, a service refusing its configuration)
  // closes the ones built before it, so nothing they started outlives the failed start.
  try {
    for (const m of modules) {
      const family = await m.routes?.({
        ...common,
        ...(dataDir === undefined ? {} : { storeDir: `${dataDir}/${m.storeFolder ?? m.name}` }),
      });
      // A module may serve several families (each at its own rank, `servedAt`).
      if (family !== undefined) out.push(...(Array.isArray(family) ? family : [family as RouteFamily]));
    }
  } catch (e) {
    for (const f of out.reverse()) await f.close?.().catch(() => undefined);
    throw e;
  }
  return out;
}

/**
 * Whether a peer message is one a module claims (descriptor `peerMessages`): node/bft.ts keeps such
 * messages from the consensus engine.
 */
export function modulePeerMessage(
  bytes: Uint8Array,
  modules: readonly LedgerModule[] = LEDGER_MODULES,
): boolean {
  return modules.some((m) => m.peerMessages?.(bytes) === true);
}

/** The gateway error codes the modules declare (descriptor `gatewayErrors`), in registry order. */
/**
 * Whether one of `modules` opens operator sessions by other means than an operator key under `config`
 * (its descriptor's `opensSessionsWithoutKeys`).
 */
export function sessionsWithoutKeys(
  config: Config,
  modules: readonly LedgerModule[] = LEDGER_MODULES,
): boolean {
  return modules.some((m) => m.opensSessionsWithoutKeys?.(config) === true);
}

export function moduleGatewayErrors(): Record<string, ErrorSpec> {
  const out: Record<string, ErrorSpec> = {};
  for (const m of LEDGER_MODULES)
    for (const [code, spec] of Object.entries(m.gatewayErrors ?? {})) {
      if (Object.hasOwn(out, code)) throw new Error(`gateway error ${code} is declared twice`);
      out[code] = spec;
    }
  return out;
}
