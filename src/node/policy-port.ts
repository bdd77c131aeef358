// GET /v1/policy from the node: the pipeline's admission limits and queue limits, the chain's caps.

import { type PolicyView, policyView } from '../policy/policy.js';
import type { Node } from './node.js';

export function policyPort(node: Node): () => PolicyView {
  return () => {
    const { pipeline } = node;
    return policyView({
      admission: pipeline.admissionLimits(),
      queue: pipeline.queue.limits,
      blockMaxTransactions: pipeline.blockMaxTransactions(),
      blockMaxWeight: node.ledger.state.limit('blockMaxWeight'),
    });
  };
}
