// The durable record of the newest operator-request timestamp this node accepted: after a
// restart, gateway/operator-auth.ts refuses every request stamped at or before it, so a request captured
// before the restart cannot be replayed after it. One small file in the data directory, replaced
// atomically (fsynced) before the request that raised it is served; saves are serialised so an older mark
// never overwrites a newer one.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { OperatorWatermark } from '../gateway/operator-auth.js';
import { writeFileAtomic } from '../util/atomic-file.js';

export const OPERATOR_WATERMARK_FILE = 'operator-watermark.json';

export async function openOperatorWatermark(dataDir: string): Promise<OperatorWatermark> {
  const path = join(dataDir, OPERATOR_WATERMARK_FILE);
  const text = await readFile(path, 'utf8').catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return undefined;
    throw e;
  });
  let initialMs = Number.NEGATIVE_INFINITY;
  if (text !== undefined) {
    const ms = (JSON.parse(text) as { newest_accepted_ms?: unknown }).newest_accepted_ms;
    if (typeof ms !== 'number' || !Number.isSafeInteger(ms)) {
      throw new Error(`${path}: newest_accepted_ms is not an integer; delete the file to reset it`);
    }
    initialMs = ms;
  }
  let written = initialMs;
  let chain: Promise<void> = Promise.resolve();
  return {
    initialMs,
    save(timestampMs) {
      chain = chain.then(async () => {
        if (timestampMs <= written) return;
        await writeFileAtomic(path, `${JSON.stringify({ newest_accepted_ms: timestampMs })}\n`, 0o600);
        written = timestampMs;
      });
      return chain;
    },
  };
}
