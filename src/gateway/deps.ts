// What every route family receives: the node's ports, the schema registry for codec answers, and the
// limits that shape answers (page sizes). Built once per server by node/serve.ts.

import type { SchemaRegistry } from '../codec/registry.js';
import type { ErrorRegistry } from './errors.js';
import type { GatewayPorts } from './ports.js';
import type { TelemetryProfile } from './profiles.js';

export interface RouteLimits {
  listLimitDefault: number;
  listLimitMax: number;
  transactionBodyBytesMax: number;
  queryBodyBytesMax: number;
  fetchSizeMax: number;
  filterDepthMax: number;
}

export interface RouteDeps {
  ports: GatewayPorts;
  errors: ErrorRegistry;
  schema: SchemaRegistry;
  limits: RouteLimits;
  apiVersions: { default: number; supported: readonly number[] };
  features: readonly string[];
  /** `telemetry.profile`: WebSocket routes are gated by it as HTTP routes are (ws.ts). */
  profile: TelemetryProfile;
}
