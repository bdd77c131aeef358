// The ledger modules' instruction examples, for the CLI's schema tests and the docs they generate. Each
// module with instructions declares one JSON example per kind in `./<name>/examples.ts` (exports `page`, its
// docs page, and `examples`, by kind); they are found beside this file by that convention, as commands.ts
// finds the command groups, so no other file names a module. Never loaded by the node or the SDK.

import { existsSync, readdirSync } from 'node:fs';
import type { Json } from '../codec/codec.js';

/** One module's examples and the docs page whose generated section lists them. */
export interface ModuleExamples {
  readonly module: string;
  readonly page: string;
  readonly examples: Readonly<Record<string, Json>>;
}

/** Every module's examples, in folder-name order. */
export async function moduleExamples(): Promise<ModuleExamples[]> {
  const here = new URL('./', import.meta.url);
  const names = readdirSync(here, { withFileTypes: true })
    .filter(
      (d) =>
        d.isDirectory() &&
        (existsSync(new URL(`${d.name}/examples.ts`, here)) ||
          existsSync(new URL(`${d.name}/examples.js`, here))),
    )
    .map((d) => d.name)
    .sort();
  const out: ModuleExamples[] = [];
  for (const module of names) {
    const m = (await import(`./${module}/examples.js`)) as { page?: unknown; examples?: unknown };
    if (typeof m.page !== 'string' || typeof m.examples !== 'object' || m.examples === null)
      throw new Error(`src/modules/${module}/examples.ts must export page and examples`);
    out.push({ module, page: m.page, examples: m.examples as Record<string, Json> });
  }
  return out;
}
