// The ledger-proofs routes (docs/ledger-proofs.md): what a client needs to check a node's answers itself
// instead of trusting the node. Every answer carries only what the node stores; the checks run in the
// client (sdk/proofs.ts, sdk/light-client.ts).
//
//   GET /v1/ledger/headers?from=H&limit=N                      certified headers, the validator rosters
//   GET /v1/ledger/state-proof/{height}?key=|account=|asset=|definition=|domain=
//                                                              a state key's value (or absence) + proof
//   GET /v1/ledger/block/{height}/proof/{entry_hash}           a transaction and its result in the block

import { Type } from 'typebox';
import { encode } from '../codec/frame.js';
import type { RouteDeps } from '../gateway/deps.js';
import { gatewayError } from '../gateway/errors.js';
import { defineRoute, type RouteDef } from '../gateway/route-table.js';
import { pathHash, pathHeight } from '../gateway/routes/app-params.js';
import { respond, viewSchema } from '../gateway/view.js';
import { blockHash, blockMerklePath, resultHashes, TransactionResultCodec } from '../model/block.js';
import { transactionHash } from '../model/transaction.js';
import { bytesEqual, toHex } from '../util/hex.js';
import type { ProofsPort } from './port.js';
import { blockAt, proveKey } from './prove.js';
import { proofQueryRoute } from './query-route.js';
import { retentionRoutes } from './retention-routes.js';
import { STATE_KEY_FORMS, stateKeyOf } from './state-key.js';
import {
  LEDGER_HEADERS_LIMIT_DEFAULT,
  LEDGER_HEADERS_LIMIT_MAX,
  type LedgerCertifiedHeader,
  LedgerEntryProofView,
  LedgerHeadersView,
  LedgerStateProofView,
  STATE_KEY_BYTES_MAX,
} from './views.js';

const TAGS = ['ledger'];
const common = () => ({
  tags: TAGS,
  visibility: 'public' as const,
  formats: { default: 'json', offers: ['json', 'codec'] } as const,
});

const HeadersQuerystring = Type.Object({
  from: Type.Optional(Type.String({ maxLength: 20, description: 'first height, integer >= 1 (default 1)' })),
  limit: Type.Optional(
    Type.String({
      maxLength: 20,
      description: `headers, 1 to ${LEDGER_HEADERS_LIMIT_MAX} (default ${LEDGER_HEADERS_LIMIT_DEFAULT})`,
    }),
  ),
});

const StateProofQuerystring = Type.Object(
  Object.fromEntries(
    STATE_KEY_FORMS.map((f) => [
      f,
      Type.Optional(
        Type.String({
          maxLength: 2 * STATE_KEY_BYTES_MAX,
          description: `the ${f === 'key' ? 'state key in hex' : `${f} id`}`,
        }),
      ),
    ]),
  ),
);

export function integerParam(name: string, text: string | undefined, dflt: number, max: number): number {
  if (text === undefined) return dflt;
  const n = /^[0-9]{1,16}$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > max)
    throw gatewayError('invalid_pagination', {
      field: name,
      value: text.slice(0, 32),
      reason: `expected an integer from 1 to ${max}`,
    });
  return n;
}

function headersRoute(d: RouteDeps, port: ProofsPort): RouteDef {
  return defineRoute({
    ...common(),
    method: 'GET',
    url: '/v1/ledger/headers',
    operationId: 'ledgerHeaders',
    summary: 'Certified block headers from a height, with the validator roster wherever it changes',
    description:
      `Up to \`limit\` (default ${LEDGER_HEADERS_LIMIT_DEFAULT}, at most ${LEDGER_HEADERS_LIMIT_MAX}) committed ` +
      'headers from `from` up, each with its block hash and the commit certificate that certifies it (a ' +
      'height-1 block of a several-validator network carries the genesis certificate, without signers). ' +
      "`validators` is the certifying set's roster on the first item and wherever it changes.",
    schema: { querystring: HeadersQuerystring, response: { 200: viewSchema(LedgerHeadersView) } },
    handler: async (req, reply) => {
      const from = integerParam('from', req.query.from, 1, Number.MAX_SAFE_INTEGER);
      const limit = integerParam(
        'limit',
        req.query.limit,
        LEDGER_HEADERS_LIMIT_DEFAULT,
        LEDGER_HEADERS_LIMIT_MAX,
      );
      const tip = port.chain.height();
      const items: LedgerCertifiedHeader[] = [];
      let prevSet: Uint8Array | undefined;
      for (let h = from; h <= tip && h < from + limit; h++) {
        const block = await port.chain.block(h);
        if (block === undefined) break;
        const setHash = block.certificate.validatorSetHash;
        const changed = prevSet === undefined || !bytesEqual(prevSet, setHash);
        prevSet = setHash;
        const validators = changed ? port.validatorsAt(h, setHash) : undefined;
        items.push({
          height: h,
          hash: blockHash(block.header),
          header: block.header,
          certificate: block.certificate,
          ...(validators === undefined ? {} : { validators }),
        });
      }
      return respond(d.schema, req, reply, LedgerHeadersView, { chainId: port.chainId, tip, items });
    },
  });
}

function stateProofRoute(d: RouteDeps, port: ProofsPort): RouteDef {
  return defineRoute({
    ...common(),
    method: 'GET',
    url: '/v1/ledger/state-proof/:height',
    operationId: 'ledgerStateProof',
    summary: "A state key's value (or its absence) at a height, with the state tree proof",
    description:
      'Name the key by exactly one of `key` (hex), `account`, `asset` (a holding), `definition` or `domain`. ' +
      "The proof verifies against the header's `state_root` at that height (docs/ledger-proofs.md). Heights " +
      'whose state tree was pruned (older than `storage.state_tree_versions_kept`, and not pinned: ' +
      '`GET /v1/proofs/retention`) answer 410 `state_proof_height_pruned`; a value changed since the ' +
      'height asked for answers 409 `state_proof_value_changed` (the node keeps only the newest values, ' +
      'and the old ones of pinned heights: ask at a newer height).',
    errorStatuses: [404, 409, 410],
    schema: {
      params: Type.Object({ height: Type.String({ maxLength: 20, description: 'a committed height' }) }),
      querystring: StateProofQuerystring,
      response: { 200: viewSchema(LedgerStateProofView) },
    },
    handler: async (req, reply) => {
      const height = pathHeight(req.params.height);
      const key = stateKeyOf(req.query as Record<string, string | undefined>);
      const block = await blockAt(port, height);
      // From here on, synchronous: the proof, the value and the state height are of one state.
      const stateHeight = port.stateHeight();
      if (height > stateHeight) throw gatewayError('not_found', { height, state_height: stateHeight });
      const item = proveKey(port, key, height, stateHeight);
      return respond(d.schema, req, reply, LedgerStateProofView, {
        height,
        blockHash: blockHash(block.header),
        stateRoot: block.header.stateRoot,
        ...item,
      });
    },
  });
}

function entryProofRoute(d: RouteDeps, port: ProofsPort): RouteDef {
  return defineRoute({
    ...common(),
    method: 'GET',
    url: '/v1/ledger/block/:height/proof/:entry_hash',
    operationId: 'ledgerEntryProof',
    summary: "A transaction's inclusion in a block's transactions_root and its result's in results_root",
    description:
      "The audit paths (RFC 6962 §2.1.1 shape, the block roots' domain: leaves as they are, nodes " +
      'H(0x01 ‖ left ‖ right)) of the transaction hash and of the hash of its result encoding, at the ' +
      "same index; check them with the header's `transaction_count` (docs/ledger-proofs.md). 404 when the " +
      'block does not hold that transaction.',
    errorStatuses: [404],
    schema: {
      params: Type.Object({
        height: Type.String({ maxLength: 20, description: 'a committed height' }),
        entry_hash: Type.String({ maxLength: 64, description: 'the transaction hash, 64 hex digits' }),
      }),
      response: { 200: viewSchema(LedgerEntryProofView) },
    },
    handler: async (req, reply) => {
      const height = pathHeight(req.params.height);
      const entry = pathHash(req.params.entry_hash);
      const block = await blockAt(port, height);
      const hashes = block.transactions.map(transactionHash);
      const index = hashes.findIndex((h) => bytesEqual(h, entry));
      if (index < 0) throw gatewayError('not_found', { height, entry_hash: toHex(entry) });
      const result = block.results[index]!;
      return respond(d.schema, req, reply, LedgerEntryProofView, {
        height,
        blockHash: blockHash(block.header),
        entryHash: entry,
        index,
        transactionCount: block.header.transactionCount,
        transactionsRoot: block.header.transactionsRoot,
        transactionsPath: blockMerklePath(index, hashes),
        result,
        resultBytes: encode(TransactionResultCodec, result),
        resultsRoot: block.header.resultsRoot,
        resultsPath: blockMerklePath(index, resultHashes(block.results)),
      });
    },
  });
}

export function proofRoutes(d: RouteDeps, port: ProofsPort): RouteDef[] {
  return [
    headersRoute(d, port),
    stateProofRoute(d, port),
    entryProofRoute(d, port),
    ...retentionRoutes(d, port),
    proofQueryRoute(d, port),
  ];
}
