// The ISO 20022 bridge's route family (gateway/family.ts; docs/iso20022.md): its routes (routes.ts) over
// the bridge (port.ts), its signed-request verifier and its XML body parser. An application family,
// listed by node/families.ts only when the bridge runs (`iso20022.enabled`).

import type { GatewayApp } from '../../../gateway/context.js';
import type { RouteDeps } from '../../../gateway/deps.js';
import type { RouteFamily } from '../../../gateway/family.js';
import type { OperatorSessionVerifier } from '../../../gateway/operator-auth.js';
import type { SignedRequests } from '../../../gateway/signed-request.js';
import type { BridgePort } from './port.js';
import { iso20022Routes } from './routes.js';

/** Adds the XML body parser (as text; the route's body limit applies). Other routes refuse XML with 415. */
export function installIso20022Parser(app: GatewayApp, bodyBytesMax: number): void {
  app.addContentTypeParser(
    ['application/xml', 'text/xml'],
    { parseAs: 'string', bodyLimit: bodyBytesMax },
    (_req, body, done) => done(null, body),
  );
}

export interface Iso20022FamilyOptions {
  xmlBodyBytesMax: number;
  /** The node's one signed-request verifier (signed-request.ts): participants are registered accounts. */
  signedRequests: SignedRequests;
  /** Operator sign-in sessions: read routes accept their bearer tokens too (omitted: participants only). */
  sessions?: OperatorSessionVerifier;
}

/**
 * The bridge's route family (gateway/family.ts): its routes and its XML body parser. An application
 * family, listed by node/families.ts only when the bridge runs (`iso20022.enabled`).
 */
export function iso20022Family(bridge: BridgePort, d: RouteDeps, opts: Iso20022FamilyOptions): RouteFamily {
  const auth = opts.signedRequests;
  return {
    name: 'iso20022',
    app: true,
    // Its rank in the serving order (docs/design/modules.md "Serving order"): where its routes have always been.
    servedAt: 350,
    routes: () =>
      iso20022Routes(d, bridge, {
        xmlBodyBytesMax: opts.xmlBodyBytesMax,
        auth,
        ...(opts.sessions === undefined ? {} : { sessions: opts.sessions }),
      }),
    install: (app) => installIso20022Parser(app, opts.xmlBodyBytesMax),
  };
}
