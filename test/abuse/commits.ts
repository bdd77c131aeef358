// Watching a node's event bus for the final status of given transactions: how the abuse and soak
// scenarios prove that nothing accepted was lost ("what was lost: must be nothing").

import type { Node } from '../../src/node/node.js';
import { toHex } from '../../src/util/hex.js';

export interface CommitWatch {
  /** Adds hashes (lower-case hex) to wait for. */
  expect(hashes: Iterable<string>): void;
  /** Hashes still without a final status. */
  pending(): number;
  /** Final statuses seen, by kind (Committed, Rejected, Expired). */
  finals: Map<string, number>;
  /** Resolves true once every expected hash has a final status, false at the deadline. */
  settled(timeoutMs: number): Promise<boolean>;
  stop(): void;
}

/** Subscribe before submitting: the final events of fast transactions may come before `expect`. */
export function watchCommits(node: Node): CommitWatch {
  const waiting = new Set<string>();
  const early = new Set<string>();
  const finals = new Map<string, number>();
  const off = node.pipeline.events.subscribe((env) => {
    const e = env.event;
    if (e.kind !== 'Transaction') return;
    const kind = e.status.kind;
    if (kind !== 'Committed' && kind !== 'Rejected' && kind !== 'Expired') return;
    const hash = toHex(e.hash);
    finals.set(kind, (finals.get(kind) ?? 0) + 1);
    if (!waiting.delete(hash)) early.add(hash);
  });
  return {
    finals,
    expect(hashes) {
      for (const h of hashes) if (!early.delete(h)) waiting.add(h);
    },
    pending: () => waiting.size,
    async settled(timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (waiting.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      return waiting.size === 0;
    },
    stop: off,
  };
}
