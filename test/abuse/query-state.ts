// Big states for the query-cost scenarios, built in seconds: accounts registered in transactions of many
// instructions each (their signatories are made-up key texts: nobody signs for them), and chains of many
// small transactions. Everything goes through the real pipeline, so the state and the block store are the
// node's own.

import { accountId } from '../../src/model/ids.js';
import type { Instruction } from '../../src/model/instructions.js';
import { submitAndWait } from '../helpers/node.js';
import type { ServedTestNode } from '../helpers/served.js';
import { buildTx } from '../helpers/tx.js';

/** RegisterAccount instructions per transaction: about 80 bytes each, well under the 64 KiB body cap. */
const ACCOUNTS_PER_TX = 600;
/** Transactions in flight while building (far below the queue's per-account cap). */
const IN_FLIGHT = 16;

/** A canonical Ed25519 key text (ed0120 + 64 upper-case hex digits) that nobody holds the secret of. */
function madeUpSignatory(n: number): string {
  return `ed0120${n.toString(16).toUpperCase().padStart(64, '0')}`;
}

async function submitAll(t: ServedTestNode, txs: Instruction[][], inFlight = IN_FLIGHT): Promise<void> {
  let next = 0;
  let nonce = 1_000_000;
  const lane = async () => {
    while (next < txs.length) {
      const instructions = txs[next++]!;
      const tx = buildTx(t.admin, instructions, { chainId: t.chainId, nonce: nonce++ });
      const r = await submitAndWait(t.node, tx);
      if (r.status.kind !== 'Committed') throw new Error(`setup transaction ${r.status.kind}`);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
}

/** Registers domain `domain` and `n` accounts in it; resolves once all are committed. */
export async function registerAccounts(t: ServedTestNode, domain: string, n: number): Promise<void> {
  await submitAll(t, [[{ kind: 'RegisterDomain', id: domain, metadata: new Map() }]]);
  const txs: Instruction[][] = [];
  for (let from = 0; from < n; from += ACCOUNTS_PER_TX) {
    const batch: Instruction[] = [];
    for (let i = from; i < Math.min(n, from + ACCOUNTS_PER_TX); i++)
      batch.push({
        kind: 'RegisterAccount',
        id: accountId(madeUpSignatory(i + 1), domain),
        metadata: new Map(),
      });
    txs.push(batch);
  }
  await submitAll(t, txs);
}

/** Commits `n` one-instruction transactions (Log), so the chain holds at least n transactions. */
export async function logTransactions(t: ServedTestNode, n: number): Promise<void> {
  const txs: Instruction[][] = Array.from({ length: n }, (_, i) => [
    { kind: 'Log', level: { kind: 'Info' }, message: `history ${i}` },
  ]);
  // Many in flight, so blocks fill with hundreds of them (far below the queue's per-account cap).
  await submitAll(t, txs, 256);
}
