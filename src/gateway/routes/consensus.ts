// Consensus routes. Every answer
// comes from the running engine, its settings or the chain. In single-peer mode the certificates, QC,
// validator set, leader, pacemaker and keys are the real ones (signed by the one validator); what the node
// does not run (view changes, reliable payload broadcast) is reported as zeros, empty lists and
// `enabled: false`, never invented. Visibility follows profiles.ts (STATUS_ROUTES, DEVELOPER_ROUTES).

import { Type } from 'typebox';
import { fromHex } from '../../util/hex.js';
import type { RouteDeps } from '../deps.js';
import { gatewayError } from '../errors.js';
import { defineRoute, type RouteDef } from '../route-table.js';
import { serveSse } from '../sse.js';
import { respond, viewSchema } from '../view.js';
import { CommitQcRecordView, ConsensusStatusView, QcView } from '../views/consensus.js';
import { evidenceRoutes } from './consensus-evidence.js';
import { historyRoutes } from './consensus-history.js';
import { roundRoutes } from './consensus-round.js';
import { CODEC_FIRST, SSE_ONLY, signaturesTotal, TAGS as tags } from './consensus-shared.js';
import { consensusStatus, statusFeed } from './consensus-status.js';

function statusRoutes(d: RouteDeps): RouteDef[] {
  const c = d.ports.consensus;
  return [
    defineRoute({
      method: 'GET',
      url: '/v1/consensus/status',
      operationId: 'getConsensusStatus',
      summary: 'Detailed consensus status snapshot (codec by default, JSON on request)',
      tags,
      visibility: 'status',
      formats: CODEC_FIRST,
      schema: { response: { 200: viewSchema(ConsensusStatusView) } },
      handler: (req, reply) => respond(d.schema, req, reply, ConsensusStatusView, consensusStatus(d)),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/consensus/status/sse',
      operationId: 'streamConsensusStatus',
      summary:
        'The consensus status as JSON server-sent events, one per streams.consensus_status_interval_ms',
      tags,
      visibility: 'status',
      formats: SSE_ONLY,
      schema: { response: { 200: Type.String({ description: 'text/event-stream' }) } },
      handler: (req, reply) => serveSse(req, reply, statusFeed(d)),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/consensus/qc',
      operationId: 'getConsensusQc',
      summary: 'Highest and locked quorum certificates (codec by default, JSON on request)',
      tags,
      visibility: 'developer',
      formats: CODEC_FIRST,
      schema: { response: { 200: viewSchema(QcView) } },
      handler: (req, reply) => {
        const { highestQc, lockedQc } = consensusStatus(d);
        return respond(d.schema, req, reply, QcView, {
          ...(highestQc === undefined ? {} : { highestQc }),
          ...(lockedQc === undefined ? {} : { lockedQc }),
        });
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/consensus/commit_qc/:hash',
      operationId: 'getConsensusCommitQc',
      summary: 'The commit certificate of a block, by block hash (codec by default, JSON on request)',
      tags,
      visibility: 'public',
      formats: CODEC_FIRST,
      errorStatuses: [404],
      schema: {
        params: Type.Object({ hash: Type.String({ pattern: '^[0-9a-fA-F]{64}$' }) }),
        response: { 200: viewSchema(CommitQcRecordView) },
      },
      handler: async (req, reply) => {
        const hash = req.params.hash.toLowerCase();
        const height = await c.blockHeightByHash(fromHex(hash, 32)!);
        const block = height === undefined ? undefined : await d.ports.chain.block(height);
        if (block === undefined) {
          throw gatewayError('not_found', { hash, searched_newest_blocks: c.settings().blockHashLookupMax });
        }
        const set = c
          .snapshot()
          .validatorSetHistory.filter((e) => e.height <= block.certificate.height)
          .at(-1);
        return respond(d.schema, req, reply, CommitQcRecordView, {
          height: block.header.height,
          blockHash: hash,
          validatorSetLen: set?.set.size ?? 0,
          signaturesTotal: signaturesTotal(block.certificate),
          certificate: block.certificate,
        });
      },
    }),
  ];
}

export function consensusRoutes(d: RouteDeps): RouteDef[] {
  return [...statusRoutes(d), ...roundRoutes(d), ...historyRoutes(d), ...evidenceRoutes(d)];
}
