// Test helper: a started node behind its real gateway on an ephemeral loopback port.

import { type ServedNode, serveNode } from '../../src/node/serve.js';
import { startTestNode, type TestNode } from './node.js';

export interface ServedTestNode extends TestNode {
  url: string;
  served: ServedNode;
  stopAll(): Promise<void>;
}

/** `overrides` are config keys (e.g. `{'telemetry.profile': 'operator'}`); the port is always ephemeral. */
export async function startServedNode(overrides: Record<string, unknown> = {}): Promise<ServedTestNode> {
  const t = await startTestNode({ 'log.level': 'silent', ...overrides });
  const served = await serveNode(t.node, { dir: t.dir });
  return Object.assign(t, {
    url: served.url,
    served,
    async stopAll() {
      await served.close();
      await t.cleanup();
    },
  });
}
