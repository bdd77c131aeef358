// Consensus evidence routes: listing (developer profiles), count (always) and
// submission (operator-signed). `POST /v1/consensus/evidence/submit` takes the JSON body
// `{ "evidence_hex": "<hex of the framed or bare codec encoding of a ConsensusEvidence>" }`; the record is
// verified (consensus/evidence.ts) before it is stored. 202 `{status: accepted | duplicate, kind, id}`;
// 400 `evidence_malformed` (not hex, does not decode) or `evidence_invalid` (decodes but proves nothing),
// with `details.reason`.

import { Type } from 'typebox';
import { EVIDENCE_KINDS, type EvidenceKind } from '../../consensus/evidence.js';
import { EVIDENCE_BYTES_MAX } from '../../consensus/evidence-store.js';
import { fromHex } from '../../util/hex.js';
import type { RouteDeps } from '../deps.js';
import { parsePage } from '../list.js';
import { defineRoute, type RouteDef } from '../route-table.js';
import { respond, viewSchema } from '../view.js';
import { EvidenceCountView, EvidenceListView, EvidenceSubmittedView } from '../views/consensus.js';
import { JSON_OR_CODEC, TAGS as tags } from './consensus-shared.js';

const EVIDENCE_HEX_CHARS_MAX = 2 * (EVIDENCE_BYTES_MAX + 64);
/** Body limit of a submission: the hex, its JSON key and some slack for whitespace. */
const EVIDENCE_BODY_BYTES_MAX = EVIDENCE_HEX_CHARS_MAX + 1024;

export function evidenceRoutes(d: RouteDeps): RouteDef[] {
  const evidence = d.ports.consensus.evidence;
  return [
    defineRoute({
      method: 'GET',
      url: '/v1/consensus/evidence',
      operationId: 'listConsensusEvidence',
      summary: 'Stored consensus evidence, newest first, optionally one kind',
      tags,
      visibility: 'developer',
      formats: JSON_OR_CODEC,
      schema: {
        querystring: Type.Object(
          {
            limit: Type.Optional(Type.String({ maxLength: 20, description: 'page size, integer >= 1' })),
            offset: Type.Optional(Type.String({ maxLength: 20, description: 'items to skip, integer >= 0' })),
            kind: Type.Optional(Type.Union(EVIDENCE_KINDS.map((k) => Type.Literal(k)))),
          },
          { additionalProperties: false },
        ),
        response: { 200: viewSchema(EvidenceListView) },
      },
      handler: (req, reply) => {
        const { limit, offset } = parsePage(req.query, d.limits);
        const page = evidence.list({
          offset,
          limit,
          ...(req.query.kind === undefined ? {} : { kind: req.query.kind as EvidenceKind }),
        });
        return respond(d.schema, req, reply, EvidenceListView, {
          total: page.total,
          items: page.items.map((e) => ({ ...e })),
        });
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/consensus/evidence/count',
      operationId: 'countConsensusEvidence',
      summary: 'Number of stored consensus evidence records',
      tags,
      visibility: 'public',
      formats: JSON_OR_CODEC,
      schema: { response: { 200: viewSchema(EvidenceCountView) } },
      handler: (req, reply) => respond(d.schema, req, reply, EvidenceCountView, { count: evidence.count() }),
    }),
    defineRoute({
      method: 'POST',
      url: '/v1/consensus/evidence/submit',
      operationId: 'submitConsensusEvidence',
      summary: 'Submit consensus evidence {evidence_hex}; verified, then stored (operator-signed)',
      tags,
      visibility: 'operator',
      bodyBytesMax: EVIDENCE_BODY_BYTES_MAX,
      formats: JSON_OR_CODEC,
      schema: {
        body: Type.Object(
          { evidence_hex: Type.String({ minLength: 1, maxLength: EVIDENCE_HEX_CHARS_MAX }) },
          { additionalProperties: false },
        ),
        response: { 202: viewSchema(EvidenceSubmittedView) },
      },
      handler: async (req, reply) => {
        const bytes = fromHex(req.body.evidence_hex);
        if (bytes === undefined)
          throw d.errors.create('evidence_malformed', { reason: 'not_hex' }, 'evidence_hex is not hex.');
        const r = await evidence.submit(bytes);
        if (!r.ok) throw d.errors.create(r.code, { reason: r.reason, explanation: r.message });
        return respond(
          d.schema,
          req,
          reply,
          EvidenceSubmittedView,
          { status: r.status, kind: r.kind, id: r.id },
          202,
        );
      },
    }),
  ];
}
