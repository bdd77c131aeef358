// The RWA lot routes' port over the committed world state (copies the caller may keep).

import { deepCopy } from '../../state/copy.js';
import type { WorldState } from '../../state/world-state.js';
import type { RwaLot } from './model.js';
import type { RwasPort } from './routes.js';

export function rwaReadPort(state: WorldState): RwasPort {
  const t = () => state.tables.rwaLot;
  return {
    ids: () => t().sortedIds(),
    lot: (id) => {
      const v = t().get(id);
      return v === undefined ? undefined : (deepCopy(v) as RwaLot);
    },
    peek: (id) => t().get(id),
  };
}
