// The conference route family (gateway/family.ts): the relay and call read routes, the signalling routes
// with their node-local signal box and the follower that feeds it committed JoinConference answers, and
// the relay gauge. An application family: registered only with `app_api.enabled` and `conference.enabled`
// (node/families.ts). Nothing starts before `install`: a family the switch leaves out costs nothing.

import type { RouteDeps } from '../../gateway/deps.js';
import type { RouteFamily } from '../../gateway/family.js';
import type { SignedRequests } from '../../gateway/signed-request.js';
import type { ConferenceConfig } from './config.js';
import { installRelayMetrics } from './metrics.js';
import type { ConferenceReadPort } from './read-port.js';
import { conferenceRoutes } from './routes.js';
import { followCommittedAnswers } from './signal-answers.js';
import { SignalBox } from './signal-box.js';
import { signalRoutes } from './signal-routes.js';

export interface ConferenceFamilyOptions {
  config: ConferenceConfig;
  /** The node's one signed-request verifier (signalling and authenticated call reads). */
  signedRequests: SignedRequests;
  /** Node time (ms): signal lifetimes and the freshness of signed requests. */
  now(): number;
  /** A failure of the committed-answer follower. */
  onError(e: unknown): void;
}

export function conferenceFamily(
  d: RouteDeps,
  reader: ConferenceReadPort,
  opts: ConferenceFamilyOptions,
): RouteFamily {
  const c = opts.config;
  const auth = opts.signedRequests;
  const box = new SignalBox(
    {
      offersPerCallMax: c.signalOffersPerCallMax,
      answersPerCallMax: c.signalAnswersPerCallMax,
      envelopeBytesMax: c.signalEnvelopeBytesMax,
      ttlMs: c.signalTtlMs,
      bytesMax: c.signalBytesMax,
      answerBytesMax: c.signalAnswerBytesMax,
      hostBytesMax: c.signalHostBytesMax,
      hostRecordsMax: c.signalHostRecordsMax,
    },
    opts.now,
  );
  let stop: (() => void) | undefined;
  return {
    name: 'conference',
    app: true,
    // Its rank in the serving order (docs/design/modules.md "Serving order"): where its routes have always been.
    servedAt: 300,
    routes: (app) => [
      ...signalRoutes({
        box,
        calls: reader,
        auth,
        errors: d.errors,
        bodyBytesMax: c.signalBodyBytesMax,
        offersPerRequestMax: c.signalOffersPerRequestMax,
        pageMax: c.signalPageMax,
      }),
      ...conferenceRoutes(app, d, reader, { relayTelemetry: c.relayTelemetry, signedRequests: auth }),
    ],
    install(app) {
      if (c.relayTelemetry) installRelayMetrics(app.gateway.metrics.registry, reader);
      stop = followCommittedAnswers(d.ports.events, d.ports.chain, reader, box, {
        backfillBlocks: c.signalBackfillBlocks,
        onError: opts.onError,
      });
    },
    close: async () => stop?.(),
  };
}
