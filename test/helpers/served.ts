// Test helper: a started node behind its real gateway on an ephemeral loopback port.

import type { OperatorAudience } from '../../src/gateway/operator-message.js';
import type { Node } from '../../src/node/node.js';
import { type ServedNode, serveNode } from '../../src/node/serve.js';
import type { Clock } from '../../src/util/clock.js';
import { startTestNode, type TestNode } from './node.js';

export interface ServedTestNode extends TestNode {
  url: string;
  served: ServedNode;
  stopAll(): Promise<void>;
}

/** `overrides` are config keys (e.g. `{'telemetry.profile': 'operator'}`); the port is always ephemeral. */
export async function startServedNode(
  overrides: Record<string, unknown> = {},
  opts: { clock?: Clock } = {},
): Promise<ServedTestNode> {
  const t = await startTestNode({ 'log.level': 'silent', ...overrides }, opts);
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

/** The node a signed operator request is meant for (gateway/operator-message.ts). */
export function operatorAudience(node: Node): OperatorAudience {
  return { chainId: node.config.node.chainId, nodeKey: node.nodeKey.publicKeyText() };
}
