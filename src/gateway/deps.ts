// What every route family receives: the node's ports, the schema registry for codec answers, and the
// limits that shape answers (page sizes). Built once per server by node/serve.ts.

import type { SchemaRegistry } from '../codec/registry.js';
import type { AnswerCache } from './answer-cache.js';
import type { ErrorRegistry } from './errors.js';
import type { ScanGate } from './list-scan.js';
import type { GatewayPorts } from './ports.js';
import type { TelemetryProfile } from './profiles.js';

export interface RouteLimits {
  listLimitDefault: number;
  listLimitMax: number;
  transactionBodyBytesMax: number;
  /** `gateway.transaction_batch_items_max` (default TRANSACTION_BATCH_ITEMS_MAX). */
  transactionBatchItemsMax?: number;
  /** `gateway.transaction_batch_body_bytes_max` (default TRANSACTION_BATCH_BODY_BYTES_MAX). */
  transactionBatchBodyBytesMax?: number;
  /** `gateway.transaction_ws_in_flight_max` (default TRANSACTION_WS_IN_FLIGHT_MAX). */
  transactionWsInFlightMax?: number;
  /** `gateway.transaction_ws_pending_bytes_max` (default 2 × the batch body limit). */
  transactionWsPendingBytesMax?: number;
  queryBodyBytesMax: number;
  fetchSizeMax: number;
  filterDepthMax: number;
  /** `gateway.list_query_body_bytes_max` (default LIST_QUERY_BODY_BYTES_MAX). */
  listQueryBodyBytesMax?: number;
  /** `query.filter_value_chars_max` (default FILTER_VALUE_CHARS_MAX). */
  filterValueCharsMax?: number;
  /** `query.work_units_max` (default QUERY_WORK_UNITS_MAX). */
  workUnitsMax?: number;
}

export interface RouteDeps {
  ports: GatewayPorts;
  errors: ErrorRegistry;
  schema: SchemaRegistry;
  limits: RouteLimits;
  /** Serialised read answers kept per committed state (answer-cache.ts); rendered per request when absent. */
  answers?: AnswerCache;
  /** Bounds concurrent filtered / sorted list scans (`gateway.list_scans_concurrent_max`); none when absent. */
  listScans?: ScanGate;
  apiVersions: { default: number; supported: readonly number[] };
  features: readonly string[];
  /** `telemetry.profile`: WebSocket routes are gated by it as HTTP routes are (ws.ts). */
  profile: TelemetryProfile;
}
