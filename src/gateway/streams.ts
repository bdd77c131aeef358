// Counts the long-lived streams (SSE responses, WebSocket connections) of one server, enforces their
// caps (docs/design/testing.md) and closes them all when the
// server shuts down, since neither is tracked by node's own connection bookkeeping once hijacked or
// upgraded. Each kind also has a cap per client address (rate-limit.ts `clientKey`: IPv4, or the IPv6
// /64), because a few addresses could otherwise hold every slot of the server-wide cap.

import type { GatewayMetrics } from './metrics.js';

export type StreamKind = 'sse' | 'ws';

/** Why `open` refused: the server-wide cap or the cap of the client's address. */
export type StreamRefusal = 'server' | 'address';

export interface StreamTracker {
  /**
   * Registers a stream of client `key`; the refusal when a cap for `kind` is reached. Call the returned
   * release function once on close.
   */
  open(kind: StreamKind, close: () => void, key?: string): (() => void) | StreamRefusal;
  count(kind: StreamKind): number;
  /** Open streams of `kind` from client `key`. */
  countOf(kind: StreamKind, key: string): number;
  /** Asks every open stream to close (server shutdown). */
  closeAll(): void;
}

export function createStreamTracker(
  caps: Record<StreamKind, number>,
  metrics: GatewayMetrics,
  perAddressCaps: Record<StreamKind, number> = caps,
): StreamTracker {
  const open: Record<StreamKind, Set<() => void>> = { sse: new Set(), ws: new Set() };
  // Entries are deleted at zero, so each map is bounded by the number of streaming clients.
  const perKey: Record<StreamKind, Map<string, number>> = { sse: new Map(), ws: new Map() };
  return {
    count: (kind) => open[kind].size,
    countOf: (kind, key) => perKey[kind].get(key) ?? 0,
    open(kind, close, key = 'unknown') {
      const set = open[kind];
      if (set.size >= caps[kind]) return 'server';
      const held = perKey[kind].get(key) ?? 0;
      if (held >= perAddressCaps[kind]) return 'address';
      perKey[kind].set(key, held + 1);
      // A fresh function per stream, so two streams sharing one closer are still two entries.
      const entry = () => close();
      set.add(entry);
      metrics.activeStreams.inc({ kind });
      let released = false;
      return () => {
        if (released) return;
        released = true;
        set.delete(entry);
        const left = (perKey[kind].get(key) ?? 1) - 1;
        if (left <= 0) perKey[kind].delete(key);
        else perKey[kind].set(key, left);
        metrics.activeStreams.dec({ kind });
      };
    },
    closeAll() {
      for (const set of Object.values(open)) for (const close of [...set]) close();
    },
  };
}
