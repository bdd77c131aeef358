// The repo agreement routes' port over the committed world state (copies the caller may keep).

import { deepCopy } from '../../state/copy.js';
import type { WorldState } from '../../state/world-state.js';
import type { RepoAgreement } from './model.js';
import type { RepoPort } from './routes.js';

export function repoReadPort(state: WorldState): RepoPort {
  const t = () => state.tables.repoAgreement;
  return {
    ids: () => t().sortedIds(),
    agreement: (id) => {
      const v = t().get(id);
      return v === undefined ? undefined : (deepCopy(v) as RepoAgreement);
    },
    peek: (id) => t().get(id),
  };
}
