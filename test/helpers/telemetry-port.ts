// An in-process TelemetryPort (src/modules/telemetry/port.ts) for the telemetry family's unit tests: a chain of
// block creation times (height h at index h - 1, hash derived from h), a manual clock, configured peers,
// header reads that resolve when the test says so, and a p2p channel that records what is broadcast and
// lets the test deliver peer messages.

import type { TelemetryPeer, TelemetryPort } from '../../src/modules/telemetry/port.js';

/** The hash the fake chain gives height `h` (64 hex digits). */
export const fakeHash = (h: number): string => h.toString(16).padStart(64, '0');

export function fakeTelemetryPort(created: number[], peers: TelemetryPeer[] = []) {
  let height = created.length;
  let now = 10_000;
  const listeners = new Set<(h: number, hash: string) => void>();
  const inbound = new Set<(from: string, bytes: Uint8Array) => void>();
  const reads: { height: number; release: () => void }[] = [];
  const sent: Uint8Array[] = [];
  let asked = 0;
  const port: TelemetryPort = {
    self: () => ({
      peerId: 'me',
      url: 'http://x',
      reportedUrl: 'http://x',
      version: 'torana/test',
      chainId: 'c',
      role: 'validator',
      consensus: 'bft',
    }),
    peers: () => peers,
    height: () => height,
    blockAt: (h) => {
      asked++;
      return new Promise((resolve) =>
        reads.push({
          height: h,
          release: () => {
            const c = created[h - 1];
            resolve(c === undefined ? undefined : { createdAtMs: c, hash: fakeHash(h) });
          },
        }),
      );
    },
    onBlockCommitted: (fn) => {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    queueDepth: () => 3,
    broadcast: (bytes) => {
      sent.push(bytes);
      return peers.filter((p) => p.connected).length;
    },
    onPeerMessage: (fn) => {
      inbound.add(fn);
      return () => inbound.delete(fn);
    },
    nowMs: () => now,
  };
  return {
    port,
    listeners,
    inbound,
    sent,
    /** Header reads asked for so far. */
    asked: () => asked,
    /** Lets the oldest header read (asked for on a later turn) resolve. */
    async release() {
      while (reads.length === 0) await new Promise((r) => setImmediate(r));
      reads.shift()!.release();
    },
    /** Commits a block created at `createdAt`, at node time `at`. */
    commit(createdAt: number, at: number) {
      created.push(createdAt);
      height = created.length;
      now = at;
      for (const l of listeners) l(height, fakeHash(height));
    },
    setNow(ms: number) {
      now = ms;
    },
    /** Delivers a p2p telemetry message from `from`. */
    deliver(from: string, bytes: Uint8Array) {
      for (const fn of inbound) fn(from, bytes);
    },
  };
}
