// Names given on the command line in place of ids: a ledger module may give accounts or asset
// definitions names of its own (docs/design/modules.md "Names in place of ids"); its CLI part resolves
// them at the node. buildProgram (main.ts) installs the modules' resolvers (src/modules/commands.ts);
// id-args.ts asks them. Light: no node, no codec is loaded here (`torana --help`).

import type { ToranaClient } from '../sdk/client.js';

export type IdArgKind = 'account' | 'definition';

/** One module's resolution of its names given where the CLI takes an id. */
export interface CliIdNames {
  /** The id `text` stands for (resolved at the node); undefined when it is none of the module's names. */
  resolve(client: ToranaClient, kind: IdArgKind, text: string): Promise<string | undefined>;
  /** How its names of each kind look, for the usage error of text that is neither an id nor a name. */
  readonly syntax: Readonly<Record<IdArgKind, string>>;
}

let installed: readonly CliIdNames[] = [];

/** Installs the modules' resolvers, in registry order (the first that knows a name resolves it). */
export function installCliIdNames(names: readonly CliIdNames[]): void {
  installed = names;
}

export function installedCliIdNames(): readonly CliIdNames[] {
  return installed;
}
