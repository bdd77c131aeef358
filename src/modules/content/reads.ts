// The content routes' port over the committed world state.

import { assetId } from '../../model/ids.js';
import type { WorldState } from '../../state/world-state.js';
import type { ContentPort } from './routes.js';

export function contentReadPort(state: WorldState): ContentPort {
  return {
    bundle: (id) => state.tables.contentBundle.get(id),
    holds: (account, definition) => {
      const a = state.tables.asset.get(assetId(definition, account));
      return a !== undefined && a.value.mantissa > 0n;
    },
  };
}
