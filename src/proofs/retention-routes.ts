// What this node can prove, and the operator's pins (docs/ledger-proofs.md "Retention and pins"):
//
//   GET    /v1/proofs/retention                 heights with a state tree, the block log's base, pins
//   POST   /v1/proofs/retention/pins {height}   keep that height provable beyond the window (operator)
//   DELETE /v1/proofs/retention/pins/{height}   stop keeping it (operator)
//
// A pin is node-local: it changes what this node prunes and keeps, never a hash.

import { Type } from 'typebox';
import type { RouteDeps } from '../gateway/deps.js';
import { gatewayError } from '../gateway/errors.js';
import { defineRoute, type RouteDef } from '../gateway/route-table.js';
import { pathHeight } from '../gateway/routes/app-params.js';
import { respond, viewSchema } from '../gateway/view.js';
import { StateTreeVersionError } from '../state/merkle/tree.js';
import type { ProofPins, ProofsPort } from './port.js';
import { oldestKept } from './prove.js';
import { ProofPinChangeView, ProofRetentionView } from './views.js';

const TAGS = ['ledger'];
const formats = { default: 'json', offers: ['json', 'codec'] } as const;

const PinBody = Type.Object(
  {
    height: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'the height to pin' }),
  },
  { additionalProperties: false, examples: [{ height: 1200 }] },
);

function pinsOf(port: ProofsPort): ProofPins {
  if (port.pins === undefined) throw gatewayError('not_found', { reason: 'this node keeps no proof pins' });
  return port.pins;
}

/** Whether the state tree of `height` (≤ the state height) is still stored. */
function treeKept(port: ProofsPort, height: number): boolean {
  try {
    port.prove(new Uint8Array(1), height);
    return true;
  } catch (e) {
    if (e instanceof StateTreeVersionError) return false;
    throw e;
  }
}

function retentionRoute(d: RouteDeps, port: ProofsPort): RouteDef {
  return defineRoute({
    tags: TAGS,
    visibility: 'public',
    formats,
    method: 'GET',
    url: '/v1/proofs/retention',
    operationId: 'proofRetention',
    summary: 'What this node can prove now: the heights with a state tree, the block log base, the pins',
    description:
      'State proofs are served at heights `oldest_height` to `newest_height` (the newest ' +
      '`storage.state_tree_versions_kept`) and at every pinned height; a height below `block_log_base` ' +
      'has no block here (a node restored from a snapshot). A pin whose `complete` is false was set after ' +
      'some of its values changed: those keys answer 409 `state_proof_value_changed` there.',
    schema: { response: { 200: viewSchema(ProofRetentionView) } },
    handler: (req, reply) => {
      const stateHeight = port.stateHeight();
      const pins = port.pins?.list() ?? [];
      return respond(d.schema, req, reply, ProofRetentionView, {
        newestHeight: stateHeight,
        oldestHeight: Math.min(stateHeight, oldestKept(port, stateHeight)),
        versionsKept: port.versionsKept,
        blockLogBase: port.blockLogBase(),
        pinsMax: port.pinsMax,
        pins,
        oldValuesKept: pins.length > 0,
      });
    },
  });
}

function pinRoutes(d: RouteDeps, port: ProofsPort): RouteDef[] {
  const admin = { tags: TAGS, visibility: 'operator' as const, nodeLocal: true, formats };
  return [
    defineRoute({
      ...admin,
      method: 'POST',
      url: '/v1/proofs/retention/pins',
      operationId: 'pinProofHeight',
      summary: "Keep a height's state proofs served beyond the window (operator)",
      description:
        'Keeps the state tree of `height` and the old values its proofs need until the pin is removed; ' +
        'durable across restarts and `torana rebuild`. `height` is a kept height or a future one (at most ' +
        '`storage.state_tree_versions_kept` above the newest); pinned at or above the newest height, every ' +
        'value is kept (`complete`). At most `storage.state_proof_pins_max` pins (409 `proof_pins_full`); a ' +
        'height no longer kept answers 410 `state_proof_height_pruned`. Pinning a pinned height changes nothing.',
      errorStatuses: [400, 404, 409, 410],
      schema: { body: PinBody, response: { 200: viewSchema(ProofPinChangeView) } },
      handler: async (req, reply) => {
        const pins = pinsOf(port);
        const height = req.body.height;
        const stateHeight = port.stateHeight();
        const listed = pins.list().find((p) => p.height === height);
        if (listed !== undefined)
          return respond(d.schema, req, reply, ProofPinChangeView, { ...listed, pinned: true });
        if (height > stateHeight + port.versionsKept)
          throw gatewayError('bad_request', {
            location: 'body',
            height,
            expected: `a height up to ${stateHeight + port.versionsKept}`,
          });
        if (pins.list().length >= port.pinsMax)
          throw gatewayError('proof_pins_full', { pins_max: port.pinsMax });
        if (height < port.blockLogBase() || (height <= stateHeight && !treeKept(port, height)))
          throw gatewayError('state_proof_height_pruned', {
            height,
            oldest_kept: oldestKept(port, stateHeight),
            state_height: stateHeight,
          });
        // Synchronous up to here: the pin holds from the next block applied on.
        const complete = height >= stateHeight;
        await pins.pin(height, complete);
        return respond(d.schema, req, reply, ProofPinChangeView, { height, pinned: true, complete });
      },
    }),
    defineRoute({
      ...admin,
      method: 'DELETE',
      url: '/v1/proofs/retention/pins/:height',
      operationId: 'unpinProofHeight',
      summary: 'Stop keeping a pinned height (operator)',
      description:
        'What only this pin kept is pruned with the next block: a height older than the window then ' +
        'answers 410 `state_proof_height_pruned`. 404 when the height is not pinned.',
      errorStatuses: [400, 404],
      schema: {
        params: Type.Object({ height: Type.String({ maxLength: 20, description: 'a pinned height' }) }),
        response: { 200: viewSchema(ProofPinChangeView) },
      },
      handler: async (req, reply) => {
        const height = pathHeight(req.params.height);
        if (!(await pinsOf(port).unpin(height))) throw gatewayError('not_found', { height, pinned: false });
        return respond(d.schema, req, reply, ProofPinChangeView, { height, pinned: false });
      },
    }),
  ];
}

export function retentionRoutes(d: RouteDeps, port: ProofsPort): RouteDef[] {
  return [retentionRoute(d, port), ...pinRoutes(d, port)];
}
