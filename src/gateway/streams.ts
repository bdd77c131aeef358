// Counts the long-lived streams (SSE responses, WebSocket connections) of one server, enforces their
// caps (design/testing.md: 1,000 SSE and 100 WebSocket clients by default) and closes them all when the
// server shuts down, since neither is tracked by node's own connection bookkeeping once hijacked or
// upgraded.

import type { GatewayMetrics } from './metrics.js';

export type StreamKind = 'sse' | 'ws';

export interface StreamTracker {
  /** Registers a stream; undefined when the cap for `kind` is reached. Call the result once on close. */
  open(kind: StreamKind, close: () => void): (() => void) | undefined;
  count(kind: StreamKind): number;
  /** Asks every open stream to close (server shutdown). */
  closeAll(): void;
}

export function createStreamTracker(
  caps: Record<StreamKind, number>,
  metrics: GatewayMetrics,
): StreamTracker {
  const open: Record<StreamKind, Set<() => void>> = { sse: new Set(), ws: new Set() };
  return {
    count: (kind) => open[kind].size,
    open(kind, close) {
      const set = open[kind];
      if (set.size >= caps[kind]) return undefined;
      // A fresh function per stream, so two streams sharing one closer are still two entries.
      const entry = () => close();
      set.add(entry);
      metrics.activeStreams.inc({ kind });
      let released = false;
      return () => {
        if (released) return;
        released = true;
        set.delete(entry);
        metrics.activeStreams.dec({ kind });
      };
    },
    closeAll() {
      for (const set of Object.values(open)) for (const close of [...set]) close();
    },
  };
}
