// Composition of conference signalling (src/conference/README.md "Signalling"; docs/conference.md): the
// node-local signal box with its limits from `conference.signal_*`, the follower that feeds it committed
// JoinConference answers, and the route table. Registered only when `conference.enabled`.

import { followCommittedAnswers } from '../conference/signal-answers.js';
import { SignalBox } from '../conference/signal-box.js';
import { type SignalCallPort, signalRoutes } from '../conference/signal-routes.js';
import type { RouteDeps } from '../gateway/deps.js';
import type { RouteDef } from '../gateway/route-table.js';
import type { SignedRequests } from '../gateway/signed-request.js';
import type { Node } from './node.js';

export interface ConferenceSignals {
  box: SignalBox;
  routes: RouteDef[];
  /** Stops following committed blocks. */
  close(): void;
}

export function conferenceSignals(
  node: Node,
  deps: RouteDeps,
  calls: SignalCallPort,
  auth: SignedRequests,
  onError: (e: unknown) => void,
): ConferenceSignals {
  const c = node.config.conference;
  const now = () => node.clock.nowMs();
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
    now,
  );
  const stop = followCommittedAnswers(deps.ports.events, deps.ports.chain, calls, box, {
    backfillBlocks: c.signalBackfillBlocks,
    onError,
  });
  const routes = signalRoutes({
    box,
    calls,
    auth,
    errors: deps.errors,
    bodyBytesMax: c.signalBodyBytesMax,
    offersPerRequestMax: c.signalOffersPerRequestMax,
    pageMax: c.signalPageMax,
  });
  return { box, routes, close: stop };
}
