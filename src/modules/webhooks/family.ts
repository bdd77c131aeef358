// The webhooks route family (gateway/family.ts; built by the module's descriptor from the node's route
// env): opens the store, loads the registry, starts the intake
// (bus → queues) and the delivery worker, and serves the routes. `close()` stops the intake, lets the
// attempts in flight finish and closes the store; what is pending stays on disk for the next start.

import type { RouteDeps } from '../../gateway/deps.js';
import { compileEventFilter } from '../../gateway/event-filter.js';
import type { RouteFamily } from '../../gateway/family.js';
import type { OperatorAuth } from '../../gateway/operator-auth.js';
import type { SignedRequests } from '../../gateway/signed-request.js';
import { createCallerAuth } from './caller.js';
import { Intake } from './intake.js';
import { localLanes, threadLanes } from './lanes.js';
import { webhookMetrics } from './metrics.js';
import type { WebhooksPort } from './port.js';
import { Registry } from './registry.js';
import { webhookRoutes } from './routes.js';
import { createSender, type Send } from './send.js';
import { WebhookStore } from './store.js';
import { type Resolve, systemResolve, TargetChecker } from './target.js';
import { Worker } from './worker.js';

/** Kept-alive connections per receiver address in the delivery thread (send.ts). */
const SOCKETS_PER_ADDRESS = 4;

export interface WebhooksFamilyOptions {
  operatorAuth: OperatorAuth;
  /** The node's one signed-request verifier: owners are registered accounts. */
  signedRequests: SignedRequests;
  logError(what: string, e: unknown): void;
  /** Injected in tests; the system resolver and HTTP client otherwise. */
  resolve?: Resolve;
  send?: Send;
  random?: () => number;
}

export async function webhooksFamily(
  port: WebhooksPort,
  deps: RouteDeps,
  opts: WebhooksFamilyOptions,
): Promise<RouteFamily> {
  const c = port.config;
  const store = await WebhookStore.open(port.dir, { fsync: port.fsync });
  const never = () => false;
  const registry = new Registry(
    store,
    {
      webhooksMax: c.webhooksMax,
      perOwnerMax: c.perOwnerMax,
      queuePerWebhookMax: c.queuePerWebhookMax,
      queueTotalMax: c.queueTotalMax,
      queuePerOwnerMax: c.queuePerOwnerMax,
      deadLettersPerWebhookMax: c.deadLettersPerWebhookMax,
      recentPerWebhookMax: c.recentPerWebhookMax,
    },
    // A stored filter was checked at registration; one a later, stricter configuration refuses matches nothing.
    (filter) => {
      const r = compileEventFilter(filter, port.filterDepthMax, port.query);
      return r.ok ? r.match : never;
    },
  );
  const metrics = webhookMetrics(registry);
  registry.onShed = (reason) => metrics.shed(reason);
  const targetPolicy = {
    allowPrivate: c.allowPrivateTargets,
    allowed: c.allowedTargets,
    urlCharsMax: c.urlCharsMax,
  };
  const targets = new TargetChecker(targetPolicy, opts.resolve ?? systemResolve);
  const limits = { timeoutMs: c.timeoutMs, responseBytesMax: c.responseBytesMax };
  // An injected client or resolver cannot cross into a thread: the lanes then run in this one.
  const lanes =
    opts.send !== undefined || opts.resolve !== undefined
      ? localLanes(targets, opts.send ?? createSender().send, limits, () => port.nowMs())
      : threadLanes({ policy: targetPolicy, limits, socketsMax: SOCKETS_PER_ADDRESS });
  const worker = new Worker(registry, lanes, {
    attemptsMax: c.attemptsMax,
    retryBaseMs: c.retryBaseMs,
    retryMaxDelayMs: c.retryMaxDelayMs,
    inFlightMax: c.inFlightMax,
    inFlightPerOwnerMax: c.inFlightPerOwnerMax,
    windowMax: c.deliveryWindow,
    nowMs: () => port.nowMs(),
    random: opts.random ?? Math.random,
    counted: (o) => metrics.count(o),
    failed: (e) => opts.logError('webhook delivery', e),
  });
  const intake = new Intake(
    registry,
    port.events,
    {
      nowMs: () => port.nowMs(),
      queued: () => worker.wake(),
      counted: (o) => metrics.count(o),
      missed: (from, to) =>
        opts.logError(
          'webhooks',
          new Error(`events after ${from} up to ${to} are no longer held: any that matched were not queued`),
        ),
      failed: (e) => opts.logError('webhook intake', e),
    },
    port.replay === undefined || port.replayBlocks === undefined
      ? undefined
      : { replay: port.replay, blocks: port.replayBlocks, blocksMax: c.recoveryBlocksMax },
  );
  intake.start();
  worker.wake();
  const auth = createCallerAuth(opts.signedRequests, opts.operatorAuth);
  return {
    name: 'webhooks',
    app: true,
    // Its rank in the serving order (docs/design/modules.md "Serving order"): where its routes have always been.
    servedAt: 410,
    routes: () =>
      webhookRoutes(deps, {
        registry,
        targets,
        auth,
        nowMs: () => port.nowMs(),
        lastEventId: () => intake.seenId,
        filterDepthMax: port.filterDepthMax,
        bodyBytesMax: c.bodyBytesMax,
        secretCharsMax: c.secretCharsMax,
        secretOverlapMs: c.secretOverlapMs,
        replayed: () => worker.wake(),
        rekeyed: (hook) => worker.rekeyed(hook),
      }),
    install: (app) => metrics.install(app.gateway.metrics.registry),
    async close() {
      intake.stop();
      await intake.recovery;
      await worker.stop();
      await store.close();
    },
  };
}
