// The node's HTTP gateway (`src/node/serve.ts`, `serveNode(node)`), loaded by path at run time so the
// bench degrades to "not measured" instead of failing to start if that module is missing or broken.

import type { Node } from '../../src/node/node.js';

export type ServeNode = (
  node: Node,
  opts?: { dir?: string },
) => Promise<{ url: string; close(): Promise<void> }>;

const SERVE_MODULE = new URL('../../src/node/serve.ts', import.meta.url);

/** The gateway's `serveNode`, or the reason it cannot be used. */
export async function findServe(): Promise<{ serve: ServeNode } | { missing: string }> {
  try {
    const mod = (await import(SERVE_MODULE.href)) as { serveNode?: unknown };
    if (typeof mod.serveNode !== 'function') return { missing: 'src/node/serve.ts has no serveNode' };
    return { serve: mod.serveNode as ServeNode };
  } catch (e) {
    return { missing: `src/node/serve.ts does not load: ${(e as Error).message}` };
  }
}

export async function loadServe(): Promise<ServeNode> {
  const found = await findServe();
  if ('missing' in found) throw new Error(found.missing);
  return found.serve;
}
