// Adapts the committed world state and chain to the transfer control routes' port (controls/port.ts).

import type { ControlsPort } from '../controls/port.js';
import { tipTimeMs } from '../gateway/alias-resolver.js';
import type { ChainReader } from '../gateway/ports.js';
import type { WorldState } from '../state/world-state.js';

export function controlsPort(state: WorldState, chain: Pick<ChainReader, 'height' | 'block'>): ControlsPort {
  return {
    assetControl: (id) => state.assetControl(id),
    definitionControl: (definition) => state.definitionControl(definition),
    accountExists: (id) => state.peek('account', id) !== undefined,
    definitionExists: (id) => state.peek('assetDefinition', id) !== undefined,
    accountAlias: (alias) => state.accountAlias(alias),
    assetAlias: (alias) => state.assetAlias(alias),
    height: () => chain.height(),
    tipTimeMs: () => tipTimeMs(chain),
  };
}
