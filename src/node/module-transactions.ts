// The node's own transaction path as the modules see it (modules/descriptor.ts `NodeTransactions`, handed
// to them by families.ts): a module's node-local service submits the transactions it signs through the
// pipeline's admission, one or many at once, and follows their fate on the chain.

import type { TransactionAdmission, TransactionFate } from '../model/transaction-fate.js';
import type { SubmitResult } from '../pipeline/pipeline.js';
import type { Node } from './node.js';

function admissionOf(r: SubmitResult): TransactionAdmission {
  if (r.ok) return { kind: 'queued' };
  switch (r.kind) {
    case 'duplicate':
      return { kind: 'duplicate' };
    case 'queue_full':
      return { kind: 'busy' };
    case 'rejected':
      return { kind: 'rejected', code: r.rejection.code, message: r.rejection.message };
    case 'codec':
      return { kind: 'rejected', code: r.error.code, message: r.error.message };
  }
}

/** The node's transaction path (the shape of modules/descriptor.ts `NodeTransactions`). */
export function nodeTransactions(node: Node) {
  const { pipeline, ledger } = node;
  return {
    chainId: node.config.node.chainId,
    genesisAuthority: node.genesis.transaction.payload.authority,
    submit: async (bytes: Uint8Array) => admissionOf(await pipeline.submit(bytes)),
    // One batched admission: every check for each, signatures verified together, results in order.
    submitMany: async (bytes: readonly Uint8Array[]) => (await pipeline.admitMany(bytes)).map(admissionOf),
    async status(hash: Uint8Array): Promise<TransactionFate> {
      const s = await pipeline.status(hash);
      if (s?.status === 'Committed') return { kind: 'committed', height: s.blockHeight };
      if (s?.status === 'Rejected') {
        const index = s.reason.instructionIndex;
        return {
          kind: 'rejected',
          height: s.blockHeight,
          code: s.reason.code,
          message: s.reason.message,
          ...(index === undefined ? {} : { instructionIndex: index }),
        };
      }
      if (s?.status === 'Expired') return { kind: 'expired' };
      return { kind: 'unknown' };
    },
    blockTimeMs: (height: number) => ledger.blockSync(height)?.header.creationTimeMs,
  };
}
