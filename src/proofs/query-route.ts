// POST /v1/proofs/query (docs/ledger-proofs.md): many state keys at one height in one answer, each with
// its proof against the one header's state root (the SDK's verifyStateBatch checks them together).

import { Type } from 'typebox';
import type { RouteDeps } from '../gateway/deps.js';
import { gatewayError } from '../gateway/errors.js';
import { defineRoute, type RouteDef } from '../gateway/route-table.js';
import { respond, viewSchema } from '../gateway/view.js';
import { blockHash } from '../model/block.js';
import type { ProofsPort } from './port.js';
import { blockAt, proveKey } from './prove.js';
import { STATE_KEY_FORMS, stateKeyOf } from './state-key.js';
import { PROOF_QUERY_KEYS_MAX, ProofBatchView, STATE_KEY_BYTES_MAX } from './views.js';

const KeyForm = Type.Object(
  Object.fromEntries(
    STATE_KEY_FORMS.map((f) => [f, Type.Optional(Type.String({ maxLength: 2 * STATE_KEY_BYTES_MAX }))]),
  ),
  { additionalProperties: false, description: 'exactly one of the key forms of the state-proof route' },
);

const QueryBody = Type.Object(
  {
    height: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'a committed height' }),
    keys: Type.Array(KeyForm, { minItems: 1, maxItems: PROOF_QUERY_KEYS_MAX }),
  },
  {
    additionalProperties: false,
    examples: [
      { height: 1200, keys: [{ asset: 'rose#wonderland#ed0120…@wonderland' }, { domain: 'wonderland' }] },
    ],
  },
);

export function proofQueryRoute(d: RouteDeps, port: ProofsPort): RouteDef {
  return defineRoute({
    tags: ['ledger'],
    visibility: 'public',
    formats: { default: 'json', offers: ['json', 'codec'] },
    method: 'POST',
    url: '/v1/proofs/query',
    operationId: 'proofQuery',
    summary: 'Several state keys at one height, each with its state proof, in one answer',
    description:
      `Up to ${PROOF_QUERY_KEYS_MAX} keys, each named like the state-proof route's query (\`key\`, ` +
      '`account`, `asset`, `definition` or `domain`); the items come in the order asked and verify ' +
      "against the answer's `state_root`, the header's at `height`. Errors as the state-proof route: " +
      '410 `state_proof_height_pruned`, 409 `state_proof_value_changed` (for any key), 404 `not_found`.',
    errorStatuses: [404, 409, 410],
    schema: {
      body: QueryBody,
      response: { 200: viewSchema(ProofBatchView) },
    },
    handler: async (req, reply) => {
      const { height } = req.body;
      const keys = req.body.keys.map((q) => stateKeyOf(q as Record<string, string | undefined>));
      const block = await blockAt(port, height);
      // From here on, synchronous: every proof and value is of one state.
      const stateHeight = port.stateHeight();
      if (height > stateHeight) throw gatewayError('not_found', { height, state_height: stateHeight });
      const items = keys.map((key) => proveKey(port, key, height, stateHeight));
      return respond(d.schema, req, reply, ProofBatchView, {
        height,
        blockHash: blockHash(block.header),
        stateRoot: block.header.stateRoot,
        items,
      });
    },
  });
}
