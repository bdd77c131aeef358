// What every LMDB environment the node writes to needs so that a failed write transaction (a full
// disk: ENOSPC, or EIO on a tmpfs) is an error its store handles, never an unhandled promise rejection
// that ends the process. lmdb-js rejects a failed transaction in two places a store does not see by
// default: with event-turn batching (its default) the first write of an event turn starts a batch whose
// promise nobody holds; and every write's error carries `commitError`, a second promise rejected with
// the cause. Stores open with `LMDB_WRITE_OPTIONS` and pass each write error to `settleCommitError`.

/** Writes join a transaction only when batched explicitly (`batch`, `transaction`): no hidden promise. */
export const LMDB_WRITE_OPTIONS = { eventTurnBatching: false } as const;

/**
 * Marks the `commitError` promise of an lmdb-js write error as handled (the error itself carries the
 * failure; the cause is also printed by lmdb-js). Anything else passes through untouched.
 */
export function settleCommitError(e: unknown): void {
  if (typeof e !== 'object' || e === null) return;
  const cause = (e as { commitError?: unknown }).commitError;
  if (cause instanceof Promise) cause.catch(() => undefined);
}

/**
 * Closes an LMDB environment. After a failed write transaction lmdb-js never settles that transaction's
 * flush, and its close waits for it: the close of a failed store is started, not awaited (the store
 * writes nothing more), so a node on a full disk still shuts down.
 */
export async function closeLmdb(env: { close(): Promise<void> }, failed: boolean): Promise<void> {
  const closing = env.close();
  if (!failed) return closing;
  closing.catch(() => undefined);
}
