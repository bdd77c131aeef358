// Adapts the committed world state and chain to the transfer control routes' port (controls/port.ts).

import type { ControlsPort } from '../controls/port.js';
import { tipTimeMs } from '../gateway/id-resolver.js';
import type { ChainReader } from '../gateway/ports.js';
import type { WorldState } from '../state/world-state.js';

export function controlsPort(state: WorldState, chain: Pick<ChainReader, 'height' | 'block'>): ControlsPort {
  return {
    assetControl: (id) => state.assetControl(id),
    definitionControl: (definition) => state.definitionControl(definition),
    accountExists: (id) => state.peek('account', id) !== undefined,
    definitionExists: (id) => state.peek('assetDefinition', id) !== undefined,
    idName: (kind, text) => state.idName(kind, text),
    idNameForms: (kind) => state.idNameForms(kind),
    height: () => chain.height(),
    tipTimeMs: () => tipTimeMs(chain),
  };
}
