// The ledger modules of this build, one line each, in tag order (each module's lowest instruction tag):
// the ONE place that imports module descriptors (docs/design/modules.md). Importing this file installs
// the modules into the executor (state/module-host.ts) after checking their claims against the core's
// tag tables; only composition roots import it (node/, the simulator), never a core layer.

import { installModuleEventScopes } from '../gateway/event-scope.js';
import type { RouteFamily } from '../gateway/family.js';
import { DataEventCodec } from '../model/events.js';
import { INSTRUCTION_KINDS, type InstructionKind } from '../model/instructions.js';
import { isRejectionCode } from '../model/rejections.js';
import { SCHEMA } from '../model/schema.js';
import { TABLE_TAGS } from '../state/keys.js';
import { claimProblems, installExecutorModules } from '../state/module-host.js';
import { aliasesModule } from './aliases/descriptor.js';
import { conferenceModule } from './conference/descriptor.js';
import { controlsModule } from './controls/descriptor.js';
import type { LedgerModule, ModuleRouteEnv } from './descriptor.js';
import { ledgerModule } from './ledger.js';
import { multisigModule } from './multisig/descriptor.js';
import { triggersModule } from './triggers/descriptor.js';

export const LEDGER_MODULES: readonly LedgerModule[] = Object.freeze([
  ledgerModule,
  conferenceModule,
  aliasesModule,
  multisigModule,
  controlsModule,
  triggersModule,
]);

/** The lowest instruction tag a module claims (its place in the registry). */
function firstTag(m: LedgerModule): number {
  const tags = Object.keys(m.instructions).map((k) => INSTRUCTION_KINDS.indexOf(k as InstructionKind));
  return tags.length === 0 ? Number.POSITIVE_INFINITY : Math.min(...tags);
}

/**
 * Everything wrong with a list of modules against the core tag tables: instruction kinds claimed by
 * none or by two, table ids likewise, names repeated, the list out of tag order, claimed events,
 * rejection codes or schema types the core does not know. Empty when the build is consistent.
 */
export function registryProblems(modules: readonly LedgerModule[]): string[] {
  const problems = claimProblems(modules.map((m) => ({ name: m.name, handlers: m.instructions })));
  const names = modules.map((m) => m.name);
  names.forEach((n, i) => {
    if (names.indexOf(n) !== i) problems.push(`module ${n} is listed twice`);
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
  const eventKinds = new Set(
    (DataEventCodec.describe(() => ({}) as never) as { variants: { name: string }[] }).variants.map(
      (v) => v.name,
    ),
  );
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

const problems = registryProblems(LEDGER_MODULES);
if (problems.length > 0)
  throw new Error(`the ledger modules do not match the core tag tables: ${problems.join('; ')}`);
installExecutorModules(
  LEDGER_MODULES.map((m) => ({
    name: m.name,
    handlers: m.instructions,
    ...(m.dueWork === undefined ? {} : { dueWork: m.dueWork }),
    ...(m.authorityCheck === undefined ? {} : { authorityCheck: m.authorityCheck }),
    ...(m.transferCheck === undefined ? {} : { transferCheck: m.transferCheck }),
    ...(m.removal === undefined ? {} : { removal: m.removal }),
    ...(m.parties === undefined ? {} : { parties: m.parties }),
    ...(m.touches === undefined ? {} : { touches: m.touches }),
    ...(m.idNaming === undefined ? {} : { idNaming: m.idNaming }),
  })),
);

installModuleEventScopes(LEDGER_MODULES.flatMap((m) => (m.eventScope === undefined ? [] : [m.eventScope])));

/**
 * The route families of the modules that have one (and whose switch is on), in registry order;
 * node/families.ts serves each after the family its `servedAfter` names (gateway/family.ts
 * `placeFamilies`).
 */
export function moduleFamilies(env: ModuleRouteEnv): RouteFamily[] {
  return LEDGER_MODULES.flatMap((m) => {
    const family = m.routes?.(env);
    return family === undefined ? [] : [family];
  });
}
