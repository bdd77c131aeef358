// Reads of the control rows for the routes (docs/controls.md): the committed world state and chain adapted
// to the routes' port (routes.ts `ControlsPort`); rows are copies the caller may keep.

import { type IdNameState, tipTimeMs } from '../../gateway/id-resolver.js';
import type { ChainReader } from '../../gateway/ports.js';
import { deepCopy } from '../../state/copy.js';
import type { WorldState } from '../../state/world-state.js';
import type { ControlsPort } from './routes.js';

export function controlReadPort(
  state: WorldState,
  names: IdNameState,
  chain: Pick<ChainReader, 'height' | 'block'>,
): ControlsPort {
  const copyOf = <T>(v: T | undefined): T | undefined => (v === undefined ? undefined : deepCopy(v));
  return {
    assetControl: (id) => copyOf(state.tables.assetControl.get(id)),
    definitionControl: (definition) => copyOf(state.tables.definitionControl.get(definition)),
    accountExists: (id) => state.peek('account', id) !== undefined,
    definitionExists: (id) => state.peek('assetDefinition', id) !== undefined,
    idName: (kind, text) => names.idName(kind, text),
    idNameForms: (kind) => names.idNameForms(kind),
    height: () => chain.height(),
    tipTimeMs: () => tipTimeMs(chain),
  };
}
