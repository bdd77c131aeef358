// Comparing the chains of several peers (one block hash per height on every node, equal state roots):
// blocks as GET /v1/explorer/blocks/:height answers them, compared height by height.

/** The fields of an explorer block detail that must agree between peers. */
export interface PeerBlock {
  height: number;
  hash: string;
  prev_hash: string;
  state_root: string;
}

export interface ChainDifference {
  height: number;
  field: 'hash' | 'state_root' | 'prev_hash' | 'height';
  /** Peer index → its value at that height. */
  values: Record<number, string | number>;
}

export interface ChainComparison {
  /** Heights 1..heightsCompared were fetched from every peer. */
  heightsCompared: number;
  peers: number[];
  /** The first height (and field) where two peers disagree; undefined when all agree. */
  difference?: ChainDifference;
}

const FIELDS = ['height', 'hash', 'prev_hash', 'state_root'] as const;

/** `blocks[k][h - 1]` is peer `peers[k]`'s block at height h. */
export function chainDifference(peers: number[], blocks: PeerBlock[][], top: number): ChainComparison {
  for (let h = 1; h <= top; h++) {
    for (const field of FIELDS) {
      const values: Record<number, string | number> = {};
      peers.forEach((p, k) => {
        values[p] = blocks[k]?.[h - 1]?.[field] ?? 'missing';
      });
      if (new Set(Object.values(values)).size > 1)
        return { heightsCompared: top, peers, difference: { height: h, field, values } };
    }
  }
  return { heightsCompared: top, peers };
}
