// GET /v1/policy (docs/security.md "The admission policy"): the admission limits this node enforces now. Public and
// node-local (queue and transaction bounds are per node configuration; the chain's parameters lower them).

import { Type } from 'typebox';
import { defineRoute, type RouteDef } from '../gateway/route-table.js';
import type { PolicyView } from './policy.js';

const Int = (description: string) => Type.Integer({ minimum: 0, description });
const OrNull = (description: string) =>
  Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description });

const EXAMPLE: PolicyView = {
  transaction: {
    bytes_max: 65_536,
    instructions_max: 4096,
    metadata_bytes_max: 16_384,
    max_clock_drift_ms: 1000,
    allowed_algorithms: ['ed25519'],
    signatures: 1,
    weight_max: 1_000_000,
  },
  ttl: { refuses_expired: true, queue_expiry_ms: 86_400_000 },
  queue: { capacity: 65_536, per_account_max: 4096, per_key_max: 4096, per_source_max: 16_384 },
  block: {
    max_transactions: 512,
    max_weight: 10_000_000,
    transactions_weight: 8_000_000,
    account_weight: 2_000_000,
  },
  codec: { bytes_max: 1_048_576, items_max: 65_536, depth_max: 32 },
};

export const PolicySchema = Type.Object(
  {
    transaction: Type.Object({
      bytes_max: Int('largest encoded signed transaction (transaction_too_large above)'),
      instructions_max: Int('most instructions in one transaction (too_many_instructions above)'),
      metadata_bytes_max: Int('largest encoded metadata (metadata_too_large above)'),
      max_clock_drift_ms: Int('how far in the future a creation time may be (creation_time_in_future above)'),
      allowed_algorithms: Type.Array(Type.String(), { description: 'signature algorithms admitted' }),
      signatures: Int('signatures one transaction carries: exactly one, by its authority key'),
      weight_max: OrNull('TransactionMaxWeight (transaction_weight_exceeded above)'),
    }),
    ttl: Type.Object({
      refuses_expired: Type.Literal(true, {
        description: 'creation_time_ms + ttl_ms in the past: transaction_expired',
      }),
      queue_expiry_ms: Int('a queued transaction leaves the queue at the earlier of its TTL and this'),
    }),
    queue: Type.Object({
      capacity: Int('transactions queued in all (queue_full above)'),
      per_account_max: Int('queued per authority account (account_queue_full above)'),
      per_key_max: OrNull('queued per signing key across its accounts'),
      per_source_max: OrNull('queued per client address'),
    }),
    block: Type.Object({
      max_transactions: Int('BlockMaxTransactions'),
      max_weight: Int('BlockMaxWeight'),
      transactions_weight: Int("the transactions' share of BlockMaxWeight"),
      account_weight: Int("one authority's share of a block's weight"),
    }),
    codec: Type.Object({
      bytes_max: Int('largest byte or text field'),
      items_max: Int('largest sequence or map'),
      depth_max: Int('deepest nesting'),
    }),
  },
  { examples: [EXAMPLE] },
);

export function policyRoutes(read: () => PolicyView): RouteDef[] {
  return [
    defineRoute({
      method: 'GET',
      url: '/v1/policy',
      operationId: 'getPolicy',
      summary: 'The admission limits this node enforces now (no fees: the chain has none)',
      description:
        "Read from the objects admission uses: this node's configured bounds (transaction, queue, codec) lowered by the chain's parameters (clock drift, size, instruction and weight caps).",
      tags: ['node'],
      visibility: 'public',
      nodeLocal: true,
      schema: { response: { 200: PolicySchema } },
      handler: (_req, reply) => reply.send(read()),
    }),
  ];
}
