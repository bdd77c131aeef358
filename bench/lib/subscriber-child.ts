// One subscriber process of the fan-out figures: connects its share of the subscribers
// (subscribers.ts), prints `READY <open>`, then answers commands read from stdin, one per line:
//   `REPORT <from> <to>`  → `REPORT <json ReceiptReport>` for the block heights from..to;
//   `CLOSE`               → closes every subscriber and exits.
// Usage: node --import tsx bench/lib/subscriber-child.ts <url> <sse> <ws>

import { createInterface } from 'node:readline';
import { connectSubscribers, reportReceipts } from './subscribers.js';

const [url, sseText, wsText] = process.argv.slice(2);
if (url === undefined || sseText === undefined || wsText === undefined) {
  process.stderr.write('usage: subscriber-child.ts <url> <sse> <ws>\n');
  process.exit(2);
}
const subs = await connectSubscribers(url, Number(sseText), Number(wsText));
process.stdout.write(`READY ${subs.open}\n`);
for await (const line of createInterface({ input: process.stdin })) {
  const [command, from, to] = line.split(' ');
  if (command === 'REPORT') {
    const report = reportReceipts(subs.receipts, Number(from), Number(to));
    process.stdout.write(`REPORT ${JSON.stringify(report)}\n`);
  } else if (command === 'CLOSE') break;
}
subs.close();
process.exit(0);
