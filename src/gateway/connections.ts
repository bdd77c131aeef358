// Connection caps (docs/design/testing.md). The total is node's own
// `server.maxConnections` (node drops the extra sockets on accept). The per-IP cap is counted here on the
// 'connection' event: a socket over the cap is destroyed at once, without an HTTP answer, because nothing
// has been read from it yet and answering would cost the resources the cap protects. The client sees
// the connection closed (ECONNRESET / EOF); `http_rejected_requests_total{reason="too_many_connections"}`
// counts it.

import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { GatewayLimits } from './limits.js';
import type { GatewayMetrics } from './metrics.js';
import { clientKey } from './rate-limit.js';

export interface ConnectionCounter {
  /** Open connections from the client key of `address`. */
  count(address: string | undefined): number;
}

export function attachConnectionLimits(
  server: Server,
  limits: Pick<GatewayLimits, 'connectionsMax' | 'connectionsPerIpMax'>,
  metrics: GatewayMetrics,
): ConnectionCounter {
  server.maxConnections = limits.connectionsMax;
  const perIp = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const key = clientKey(socket.remoteAddress);
    const open = perIp.get(key) ?? 0;
    if (open >= limits.connectionsPerIpMax) {
      metrics.rejected.inc({ reason: 'too_many_connections' });
      socket.destroy();
      return;
    }
    perIp.set(key, open + 1);
    metrics.activeConnections.inc({ scheme: 'http' });
    socket.once('close', () => {
      metrics.activeConnections.dec({ scheme: 'http' });
      const left = (perIp.get(key) ?? 1) - 1;
      // Deleting at zero keeps the map bounded by the number of connected clients.
      if (left <= 0) perIp.delete(key);
      else perIp.set(key, left);
    });
  });
  return { count: (address) => perIp.get(clientKey(address)) ?? 0 };
}
