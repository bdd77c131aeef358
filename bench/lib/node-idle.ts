// Waits until a node in its own process has committed everything it was sent: its queue is empty and
// its height has not moved for a whole `block.time_ms` (a non-empty queue never waits longer for its
// block). Two equal commit counts 100 ms apart are not enough: between two blocks of a backlog (each
// with its execution, fsync and `block.min_interval_ms`) the count stands still for longer than that on
// a loaded machine, and a figure that then takes the height as "the last block" waits for an event that
// is not the last one.

import type { HttpNode } from './http-node.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Status {
  blocks: number;
  queue_size: number;
}

async function status(url: string): Promise<Status> {
  return (await (await fetch(`${url}/status`)).json()) as Status;
}

/** The node's height once it is idle; throws after `timeoutMs`. */
export async function waitIdle(
  node: Pick<HttpNode, 'url' | 'blockTimeMs'>,
  timeoutMs: number,
): Promise<number> {
  const t0 = performance.now();
  let before = await status(node.url);
  for (;;) {
    await sleep(before.queue_size === 0 ? node.blockTimeMs + 100 : 100);
    const now = await status(node.url);
    if (before.queue_size === 0 && now.queue_size === 0 && now.blocks === before.blocks) return now.blocks;
    if (performance.now() - t0 > timeoutMs)
      throw new Error(`node not idle in ${timeoutMs} ms (height ${now.blocks}, queue ${now.queue_size})`);
    before = now;
  }
}
