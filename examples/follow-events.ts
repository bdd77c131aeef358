// Print every committed or rejected transaction as it happens. The stream resumes by itself after a
// dropped connection, without losing events. `--count N` stops after N transactions (used by the tests).

import { clientFromEnv } from './env.js';

const client = clientFromEnv();
const countArg = process.argv.indexOf('--count');
let remaining = countArg > 0 ? Number(process.argv[countArg + 1]) : Number.POSITIVE_INFINITY;
const filter = { in: ['tx_status', ['Committed', 'Rejected']] };

for await (const { id, event } of client.events({ filter })) {
  if (event.kind !== 'Transaction') continue;
  const hash = Buffer.from(event.hash).toString('hex');
  console.log(`#${id} ${hash} ${event.status.kind} in block ${event.blockHeight}`);
  if (--remaining <= 0) break;
}
