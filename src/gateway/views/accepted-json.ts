// The JSON answer of an accepted transaction (`TransactionAcceptedView`, docs/codec.md §5 JSON
// mapping) written directly as text: it is sent once per submission, and walking the view's codec
// to build an object for JSON.stringify cost more than the rest of the route's own work. Every
// value is a hex string, a number or the node's key text, so the text is exactly what the codec's
// JSON form gives (accepted-json.test.ts checks it against `TransactionAcceptedView.toJson`).

import type { Receipt } from '../ports.js';

export interface Accepted {
  txHash: string;
  receipt: Receipt;
  queue: { depth: number; capacity: number };
}

export function transactionAcceptedJson(a: Accepted): string {
  const r = a.receipt;
  return (
    `{"tx_hash":"${a.txHash}","status":"Queued","receipt":{"payload":{"tx_hash":"${r.txHash}",` +
    `"submitted_at_ms":${r.submittedAtMs},"submitted_at_height":${r.submittedAtHeight},` +
    `"node_public_key":${JSON.stringify(r.nodePublicKey)}},"signature":"${r.signature}"},` +
    `"queue":{"depth":${a.queue.depth},"capacity":${a.queue.capacity}}}`
  );
}
