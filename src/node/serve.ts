// Builds the gateway of a started node: the server with its limits, the error registry extended with
// the ledger's codes, every route family enabled by the configuration, then listens.

import { encodeFrame } from '../codec/frame.js';
import type { Config } from '../config/schema.js';
import { AnswerCache, installAnswerCacheMetrics } from '../gateway/answer-cache.js';
import type { GatewayApp } from '../gateway/context.js';
import type { RouteDeps } from '../gateway/deps.js';
import { createErrorRegistry, type ErrorBody } from '../gateway/errors.js';
import type { RouteFamily } from '../gateway/family.js';
import { LEDGER_ERRORS } from '../gateway/ledger-errors.js';
import type { GatewayLimits } from '../gateway/limits.js';
import { ScanGate } from '../gateway/list-scan.js';
import { metricsRoute } from '../gateway/metrics.js';
import { createOperatorAuth, type OperatorWatermark } from '../gateway/operator-auth.js';
import { registerRoutes } from '../gateway/route-table.js';
import { commonRoutes } from '../gateway/routes/common.js';
import { consensusRoutes } from '../gateway/routes/consensus.js';
import { runtimeRoutes } from '../gateway/routes/runtime.js';
import { streamRoutes } from '../gateway/routes/streams.js';
import { transactionBatchRoutes } from '../gateway/routes/transaction-batch.js';
import { registerTransactionSocket } from '../gateway/routes/transaction-ws.js';
import { transactionRoutes } from '../gateway/routes/transactions.js';
import { createGatewayServer } from '../gateway/server.js';
import { ErrorBodyCodec } from '../gateway/views/common.js';
import { createSchemaRegistry } from '../model/schema.js';
import { type LedgerModule, moduleGatewayErrors, nodeFamilies, sessionsWithoutKeys } from './families.js';
import { nodeFiles } from './files.js';
import { readGatewayTls } from './gateway-tls.js';
import { prettyLogStream, usePrettyLogs } from './log-format.js';
import { installNodeMetrics, installQueryMetrics } from './metrics.js';
import type { Node } from './node.js';
import { nodeOperatorSessions } from './operator-sessions.js';
import { openOperatorWatermark } from './operator-watermark.js';
import { gatewayPorts } from './ports.js';
import { devKeysFeature, usesDevelopmentKeys } from './zk-dev-genesis.js';

export interface ServedNode {
  app: GatewayApp;
  url: string;
  /** The route families served (tests reach the services behind a module's routes). */
  families: readonly RouteFamily[];
  close(): Promise<void>;
}

export function gatewayLimits(c: Config): Partial<GatewayLimits> {
  return {
    bodyBytesMax: c.gateway.jsonBodyBytesMax,
    headerBytesMax: c.gateway.headerBytesMax,
    requestTimeoutMs: c.gateway.requestTimeoutMs,
    headersTimeoutMs: c.gateway.headerTimeoutMs,
    keepAliveTimeoutMs: c.gateway.keepAliveTimeoutMs,
    connectionsMax: c.gateway.connectionsMax,
    connectionsPerIpMax: c.gateway.connectionsPerIpMax,
    ratePerSecond: c.gateway.ratePerIpPerS,
    rateBurst: c.gateway.rateBurst,
    sseClientsMax: c.streams.sseClientsMax,
    sseClientsPerIpMax: c.streams.sseClientsPerIpMax,
    sseQueueEventsMax: c.streams.subscriberBufferEventsMax,
    sseQueueBytesMax: c.streams.subscriberBufferBytesMax,
    sseHeartbeatMs: c.streams.sseHeartbeatMs,
    wsClientsMax: c.streams.wsClientsMax,
    wsClientsPerIpMax: c.streams.wsClientsPerIpMax,
    wsFrameBytesMax: c.streams.wsFrameBytesMax,
    wsFirstMessageTimeoutMs: c.streams.wsRequestTimeoutMs,
    wsPingIntervalMs: c.streams.wsPingIntervalMs,
    wsSendQueueMax: c.streams.subscriberBufferEventsMax,
    wsSendBufferBytesMax: c.streams.subscriberBufferBytesMax,
    wsSubscriptionsMax: c.streams.subscriptionsPerConnectionMax,
  };
}

export interface ServeOptions {
  /**
   * The node directory: the modules' stores (`<data>/<module>/`) and the files their configuration
   * names, and where the operator replay mark is kept across restarts (operator-watermark.ts).
   */
  dir?: string;
}

export async function buildGateway(
  node: Node,
  address: () => string,
  watermark?: OperatorWatermark,
  dir?: string,
  modules?: readonly LedgerModule[],
): Promise<GatewayApp> {
  const c = node.config;
  const schema = createSchemaRegistry([ErrorBodyCodec]);
  const errors = createErrorRegistry({ ...LEDGER_ERRORS, ...moduleGatewayErrors() });
  const tls = readGatewayTls(c, dir);
  const app = await createGatewayServer({
    ...(tls === undefined ? {} : { tls }),
    limits: gatewayLimits(c),
    logLevel: c.log.level,
    logAccess: c.log.access,
    ...(usePrettyLogs(c.log.format, process.stdout.isTTY)
      ? { logStream: prettyLogStream(process.stdout) }
      : {}),
    corsOrigins: c.gateway.corsOrigins,
    // The listen address is one of the node's names (a LAN address clients dial directly).
    allowedHosts: [...c.gateway.allowedHosts, c.gateway.host],
    trustedProxies: c.gateway.trustedProxies,
    errors,
    encodeErrorCodec: (body: ErrorBody) =>
      encodeFrame(schema, ErrorBodyCodec, { ...body, details: body.details as never }),
    openapi: { title: 'torana ledger node', version: '1' },
    now: () => node.clock.nowMs(),
  });
  // Answers are serialised by their codec views (gateway/view.ts); response schemas document them.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  if (tls?.keyModeWarning !== undefined) app.log.warn(tls.keyModeWarning);
  const devKeys = usesDevelopmentKeys(node.ledger.state.parameters().custom);
  if (devKeys)
    app.log.warn(
      'the zero-knowledge verifying keys are the DEVELOPMENT keys (zk/artifacts/): anyone can forge private-roster and shielded-fee proofs; set keys from a real ceremony (docs/security.md "Development keys")',
    );
  // `GET /v1/node/capabilities` features: the route families registered below (their names), plus
  // devKeysFeature() while the development verifying keys are configured; sorted.
  const features: string[] = devKeys ? [devKeysFeature()] : [];
  const { ledger } = node;
  // Height and state version only ever grow, so their sum changes whenever either does: a block
  // durable in the log before its writes reach the state (ledger.commit) gets a version of its own.
  const answers = new AnswerCache(() => ledger.height() + ledger.state.version, {
    entriesMax: c.gateway.answerCacheEntriesMax,
    bytesMax: c.gateway.answerCacheBytesMax,
  });
  const deps: RouteDeps = {
    ports: gatewayPorts(node, address),
    errors,
    schema,
    answers,
    limits: {
      listLimitDefault: c.gateway.listLimitDefault,
      listLimitMax: c.gateway.listLimitMax,
      transactionBodyBytesMax: c.gateway.transactionBodyBytesMax,
      transactionBatchItemsMax: c.gateway.transactionBatchItemsMax,
      transactionBatchBodyBytesMax: c.gateway.transactionBatchBodyBytesMax,
      transactionWsInFlightMax: c.gateway.transactionWsInFlightMax,
      transactionWsPendingBytesMax: c.gateway.transactionWsPendingBytesMax,
      queryBodyBytesMax: c.gateway.queryBodyBytesMax,
      fetchSizeMax: c.query.fetchSizeMax,
      filterDepthMax: c.gateway.filterDepthMax,
      listQueryBodyBytesMax: c.gateway.listQueryBodyBytesMax,
      filterValueCharsMax: c.query.filterValueCharsMax,
      workUnitsMax: c.query.workUnitsMax,
    },
    apiVersions: app.gateway.apiVersions,
    features,
    listScans: new ScanGate(c.gateway.listScansConcurrentMax),
    profile: c.telemetry.profile,
  };
  const operatorSessions = nodeOperatorSessions(node, app.log);
  const ctx = {
    profile: c.telemetry.profile,
    operatorAuth: createOperatorAuth({
      operators: c.operator.publicKeys,
      maxAgeMs: c.operator.requestMaxAgeMs,
      noncesMax: c.operator.noncesMax,
      now: () => node.clock.nowMs(),
      audience: { chainId: c.node.chainId, nodeKey: node.nodeKey.publicKeyText() },
      ...(watermark === undefined ? {} : { watermark }),
      sessions: operatorSessions,
      sessionsWithoutKeys: sessionsWithoutKeys(c, modules),
    }),
  };
  installNodeMetrics(app.gateway.metrics.registry, node);
  installQueryMetrics(app.gateway.metrics.registry, deps.ports.queries);
  installAnswerCacheMetrics(app.gateway.metrics.registry, answers);
  app.addHook('onClose', async () => deps.ports.queries.close?.());
  registerTransactionSocket(app, deps);
  registerRoutes(
    app,
    [
      ...commonRoutes(deps),
      ...transactionRoutes(deps),
      ...transactionBatchRoutes(app, deps),
      metricsRoute(app.gateway.metrics),
      ...consensusRoutes(deps),
      ...runtimeRoutes(deps),
      ...streamRoutes(app, deps),
    ],
    ctx,
  );
  const logError = (what: string, e: unknown) => app.log.error({ err: e }, what);
  const families = await nodeFamilies({
    node,
    deps,
    app,
    ...(dir === undefined ? {} : { dir }),
    ...(modules === undefined ? {} : { modules }),
    logError,
    operatorAuth: ctx.operatorAuth,
    operatorSessions,
  });
  for (const family of families) {
    const close = family.close?.bind(family);
    if (close !== undefined) app.addHook('onClose', async () => close());
    // The application API switch (docs/app-api.md): an app family is neither registered nor documented.
    if (family.app && !c.app_api.enabled) continue;
    registerRoutes(app, family.routes(app), { ...ctx, family: { name: family.name, app: family.app } });
    family.install?.(app);
    // Two families may publish under one name (a module's routes kept in the family users know).
    if (!features.includes(family.name)) features.push(family.name);
  }
  features.sort();
  SERVED_FAMILIES.set(app, families);
  return app;
}

const SERVED_FAMILIES = new WeakMap<GatewayApp, readonly RouteFamily[]>();

/** The route families a gateway built by `buildGateway` serves (registered or not), in order. */
export function servedFamilies(app: GatewayApp): readonly RouteFamily[] {
  return SERVED_FAMILIES.get(app) ?? [];
}

export async function serveNode(node: Node, opts: ServeOptions = {}): Promise<ServedNode> {
  let url = '';
  // Without the node directory (in-process tests) the operator replay mark lives in memory only.
  const watermark =
    opts.dir === undefined ? undefined : await openOperatorWatermark(nodeFiles(opts.dir).data);
  const app = await buildGateway(node, () => url.replace(/^https?:\/\//, ''), watermark, opts.dir);
  try {
    await app.listen({ host: node.config.gateway.host, port: node.config.gateway.port });
  } catch (e) {
    // Stops what the families started (a module's store and workers).
    await app.close();
    throw e;
  }
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr !== null ? addr.port : node.config.gateway.port;
  const scheme = node.config.gateway.tlsCertFile === '' ? 'http' : 'https';
  url = `${scheme}://${node.config.gateway.host}:${port}`;
  // Once serving: the warm-up runs beside the node, never before it is ready.
  node.startWarmUp(app.log);
  return { app, url, families: servedFamilies(app), close: () => app.close() };
}
