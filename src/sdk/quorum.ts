// The one sentence that tells whether a node can commit (GET /status `validators_reachable`,
// `validators_total`, `quorum_needed`): printed by `torana status` and named by a submit-and-wait that
// timed out. Without a quorum no block commits, so a transaction waits in the queue, however long.

export interface QuorumState {
  validatorsReachable: number;
  validatorsTotal: number;
  quorumNeeded: number;
}

/** `quorum: 4/4 validators reachable, 3 needed` or `no quorum: 2/4 validators reachable, 3 needed`. */
export function quorumSentence(q: QuorumState): string {
  const ok = q.validatorsReachable >= q.quorumNeeded;
  return `${ok ? 'quorum' : 'no quorum'}: ${q.validatorsReachable}/${q.validatorsTotal} validators reachable, ${q.quorumNeeded} needed`;
}
