// Reads of the control rows for the routes (docs/controls.md): the committed world state and chain adapted
// to the routes' port (routes.ts `ControlsPort`); rows are copies the caller may keep.

import { tipTimeMs } from '../../gateway/alias-resolver.js';
import type { ChainReader, StateReader } from '../../gateway/ports.js';
import { deepCopy } from '../../state/copy.js';
import type { WorldState } from '../../state/world-state.js';
import type { ControlsPort } from './routes.js';

export function controlReadPort(
  state: WorldState,
  aliases: Pick<StateReader, 'accountAlias' | 'assetAlias'>,
  chain: Pick<ChainReader, 'height' | 'block'>,
): ControlsPort {
  const copyOf = <T>(v: T | undefined): T | undefined => (v === undefined ? undefined : deepCopy(v));
  return {
    assetControl: (id) => copyOf(state.tables.assetControl.get(id)),
    definitionControl: (definition) => copyOf(state.tables.definitionControl.get(definition)),
    accountExists: (id) => state.peek('account', id) !== undefined,
    definitionExists: (id) => state.peek('assetDefinition', id) !== undefined,
    accountAlias: (alias) => aliases.accountAlias(alias),
    assetAlias: (alias) => aliases.assetAlias(alias),
    height: () => chain.height(),
    tipTimeMs: () => tipTimeMs(chain),
  };
}
