// The explorer family (README.md): every explorer route over the
// committed state and the block store, and the live streams, composed from the family's port.

import type { RouteDeps } from '../../gateway/deps.js';
import type { RouteFamily } from '../../gateway/family.js';
import type { ExplorerContext } from './context.js';
import { ExplorerFeed } from './feed.js';
import type { ExplorerPort } from './port.js';
import { blockRoutes } from './routes-blocks.js';
import { entityRoutes } from './routes-entities.js';
import { instructionRoutes } from './routes-instructions.js';
import { stateListRoutes } from './routes-state.js';
import { statsRoutes } from './routes-stats.js';
import { streamRoutes } from './routes-streams.js';
import { transactionRoutes } from './routes-transactions.js';
import { ChainTotals } from './totals.js';

export function explorerFamily(
  port: ExplorerPort,
  deps: RouteDeps,
  logError: (what: string, e: unknown) => void,
): RouteFamily {
  const x: ExplorerContext = { port, deps };
  const totals = new ChainTotals();
  const feed = new ExplorerFeed(port, totals, (e) => logError('explorer stream feed', e));
  return {
    name: 'explorer',
    app: true,
    // Its rank in the serving order (docs/design/modules.md "Serving order"): where its routes have always been.
    servedAt: 110,
    routes: () => [
      ...blockRoutes(x),
      ...streamRoutes(x, feed),
      ...transactionRoutes(x),
      ...instructionRoutes(x),
      ...stateListRoutes(x),
      ...entityRoutes(x),
      ...statsRoutes(x, totals),
    ],
    install: () => feed.start(),
    close: async () => feed.close(),
  };
}
