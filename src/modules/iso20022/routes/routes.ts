// ISO 20022 bridge routes, registered
// only when `iso20022.enabled` (family.ts): nine submission routes (XML; pacs.008 and pacs.009 also take the flat
// JSON field format), the canonical record, the audit manifest, and five XML reports per message.
// Failures are the bridge's typed errors: 400 malformed or invalid (with the XPath and rule), 422
// business rules, 409 a different message under an id already received (the same message sent again
// is answered with its record and the `x-ledger-idempotent-replay: true` header), 404 unknown messages
// or reports.

import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { RouteDeps } from '../../../gateway/deps.js';
import { PageQuerystring, parsePage } from '../../../gateway/list.js';
import type { FormatOffer } from '../../../gateway/negotiate.js';
import type { OperatorSessionVerifier } from '../../../gateway/operator-auth.js';
import { defineRoute, type RouteDef } from '../../../gateway/route-table.js';
import { type SignedOrSession, signedOrSession } from '../../../gateway/signed-or-session.js';
import type { SignedRequests } from '../../../gateway/signed-request.js';
import { respond, viewSchema } from '../../../gateway/view.js';
import { AUDIT_METADATA_KEY } from '../bridge/audit.js';
import { BridgeError } from '../bridge/errors.js';
import { REPLAY_HEADER } from '../bridge/idempotency.js';
import { type BridgeRecord, MESSAGE_ID_BYTES_MAX, primaryContext, type Submitted } from '../bridge/record.js';
import type { ReportKind, RoutedKind } from '../bridge/routed-kinds.js';
import type { BridgePort } from './port.js';
import { Iso20022AuditPageView, Iso20022RecordView, Iso20022SubmissionView } from './views.js';

const JSON_OR_CODEC: FormatOffer = { default: 'json', offers: ['json', 'codec'] };
const XML_ONLY: FormatOffer = { default: 'xml', offers: ['xml'] };
const TAGS = ['iso20022'];

const SUBMISSIONS: ReadonlyArray<readonly [RoutedKind, string, string]> = [
  [
    'pacs008',
    'submitIso20022Pacs008',
    'Submit a pacs.008 FI-to-FI customer credit transfer (XML or flat fields)',
  ],
  [
    'pacs009',
    'submitIso20022Pacs009',
    'Submit a pacs.009 FI credit transfer, Purp SECU only (XML or flat fields)',
  ],
  ['pacs002', 'submitIso20022Pacs002', 'Submit a pacs.002 payment status report about a bridge message'],
  ['pacs004', 'submitIso20022Pacs004', 'Submit a pacs.004 payment return of a settled bridge payment'],
  ['camt056', 'submitIso20022Camt056', 'Submit a camt.056 cancellation request (answered by camt.029)'],
  ['sese023', 'submitIso20022Sese023', 'Submit a sese.023 settlement instruction (DvP in one transaction)'],
  ['sese024', 'submitIso20022Sese024', 'Submit a sese.024 settlement status advice about a sese.023'],
  ['sese025', 'submitIso20022Sese025', 'Submit a sese.025 settlement confirmation about a sese.023'],
  ['colr012', 'submitIso20022Colr012', 'Submit a colr.012 collateral substitution (atomic swap)'],
];

const REPORTS: ReadonlyArray<readonly [ReportKind, string, string]> = [
  ['pacs002', 'getIso20022Pacs002', 'Current payment status of a message as pacs.002 XML'],
  ['pacs004', 'getIso20022Pacs004', 'Current payment return of a message as pacs.004 XML'],
  ['camt029', 'getIso20022Camt029', 'Current cancellation resolution as camt.029 XML'],
  ['sese024', 'getIso20022Sese024', 'Current settlement status of a sese.023 as sese.024 XML'],
  ['sese025', 'getIso20022Sese025', 'Settlement confirmation of a settled sese.023 as sese.025 XML'],
];

const MessageParams = Type.Object(
  { msg_id: Type.String({ minLength: 1, maxLength: MESSAGE_ID_BYTES_MAX }) },
  { additionalProperties: false },
);
const XmlBody = Type.String({ description: 'an ISO 20022 XML message (Document, or AppHdr + Document)' });
const FlatBody = Type.Object({}, { additionalProperties: true, description: 'the flat field format' });

/** What every bridge route closes over: the route deps, the bridge (the family's port), the request auth. */
interface BridgeRoutes {
  d: RouteDeps;
  bridge: BridgePort;
  auth: SignedRequests;
  /** Read routes: a participant's signature or an operator sign-in session. */
  read: SignedOrSession;
}

/**
 * The participant that signed `req` (the `x-ledger-*` headers, verified by the route's `auth` before
 * the handler runs); 403 `iso_participant_not_authorised` when the account is not a participant.
 */
function signerOf({ d, bridge, auth }: BridgeRoutes, req: FastifyRequest): string {
  const account = auth.account(req);
  // The auth hooks ran and passed: an unverified request here is a wiring bug, not a client error.
  if (account === undefined) throw new Error('bridge route reached without a verified signed request');
  mapped(d, () => bridge.participant(account));
  return account;
}

/** A read route's caller: a signed-in operator (any message), else a participant (signerOf). */
function readerOf(r: BridgeRoutes, req: FastifyRequest): void {
  if (r.read.session(req) === undefined) signerOf(r, req);
}

/** Bridge failures become registered gateway errors; anything else is a bug and stays one (500). */
function asGatewayError(d: RouteDeps, e: unknown): unknown {
  return e instanceof BridgeError ? d.errors.create(e.code, e.details, e.message) : e;
}

function mapped<T>(d: RouteDeps, work: () => T): T {
  try {
    return work();
  } catch (e) {
    throw asGatewayError(d, e);
  }
}

function submission(r: BridgeRecord) {
  const c = primaryContext(r);
  return {
    messageId: r.messageId,
    kind: r.kind,
    ...(r.transactionHash === undefined ? {} : { transactionHash: r.transactionHash }),
    status: r.status,
    pacs002Code: r.pacs002Code,
    ...(r.resolution === undefined ? {} : { resolution: r.resolution }),
    ...(r.reasonCode === undefined ? {} : { reasonCode: r.reasonCode }),
    ...(r.reasonProprietary === undefined ? {} : { reasonProprietary: r.reasonProprietary }),
    ledgerId: c.ledgerId,
    ...(c.sourceAccountId === undefined ? {} : { sourceAccountId: c.sourceAccountId }),
    ...(c.targetAccountId === undefined ? {} : { targetAccountId: c.targetAccountId }),
    ...(c.assetDefinitionId === undefined ? {} : { assetDefinitionId: c.assetDefinitionId }),
    transfers: r.transfers,
    ...(r.originalMessageId === undefined ? {} : { originalMessageId: r.originalMessageId }),
  };
}

const AUTH_NOTE =
  'Signed by a bridge participant (headers x-ledger-account, x-ledger-signature, ' +
  'x-ledger-timestamp-ms, x-ledger-nonce); docs/iso20022.md "Participants".';
const READ_AUTH_NOTE = `${AUTH_NOTE} Or an operator sign-in session (Authorization: Bearer, docs/operator.md), which reads every message.`;

function submitRoute(
  r: BridgeRoutes,
  bodyBytesMax: number,
  [kind, operationId, summary]: (typeof SUBMISSIONS)[number],
) {
  const { d, bridge, auth } = r;
  const flat = kind === 'pacs008' || kind === 'pacs009';
  return defineRoute({
    method: 'POST',
    url: `/v1/iso20022/${kind}`,
    operationId,
    summary,
    description: `${AUTH_NOTE} The same message sent again (same id, same body) answers 202 with its record and ${REPLAY_HEADER}: true; a different body under an id already received is 409 iso_duplicate_message. 403 iso_participant_not_authorised when the instructing agent is not one of its BICs or a transfer debits an account it does not act for.`,
    tags: TAGS,
    visibility: 'public',
    auth,
    bodyFormats: flat ? ['xml', 'json'] : ['xml'],
    bodyBytesMax,
    formats: JSON_OR_CODEC,
    errorStatuses: [409, 422, 503],
    schema: {
      body: flat ? Type.Union([XmlBody, FlatBody]) : XmlBody,
      response: { 202: viewSchema(Iso20022SubmissionView) },
    },
    handler: async (req: FastifyRequest, reply: FastifyReply) => {
      let answer: Submitted;
      const signer = signerOf(r, req);
      try {
        answer = await bridge.submit(kind, req.body as string | object, signer);
      } catch (e) {
        throw asGatewayError(d, e);
      }
      if (answer.replayed) reply.header(REPLAY_HEADER, 'true');
      return respond(d.schema, req, reply, Iso20022SubmissionView, submission(answer.record), 202);
    },
  });
}

function reportRoute(r: BridgeRoutes, [report, operationId, summary]: (typeof REPORTS)[number]) {
  const { d, bridge, read } = r;
  return defineRoute({
    method: 'GET',
    url: `/v1/iso20022/messages/:msg_id/${report}`,
    operationId,
    summary,
    description: READ_AUTH_NOTE,
    tags: TAGS,
    visibility: 'public',
    auth: read,
    formats: XML_ONLY,
    errorStatuses: [404, 503],
    schema: { params: MessageParams, response: { 200: Type.String({ description: `${report} XML` }) } },
    handler: (req, reply) => {
      readerOf(r, req);
      const xml = mapped(d, () => bridge.report(req.params.msg_id, report));
      return reply.code(200).type('application/xml; charset=utf-8').send(xml);
    },
  });
}

export function iso20022Routes(
  d: RouteDeps,
  bridge: BridgePort,
  opts: { xmlBodyBytesMax: number; auth: SignedRequests; sessions?: OperatorSessionVerifier },
): RouteDef[] {
  const { auth } = opts;
  const read = signedOrSession(auth, opts.sessions);
  const r: BridgeRoutes = { d, bridge, auth, read };
  return [
    ...SUBMISSIONS.map((s) => submitRoute(r, opts.xmlBodyBytesMax, s)),
    defineRoute({
      method: 'GET',
      url: '/v1/iso20022/messages/:msg_id',
      operationId: 'getIso20022Message',
      summary: 'The canonical bridge record of one message',
      description: READ_AUTH_NOTE,
      tags: TAGS,
      visibility: 'public',
      auth: read,
      formats: JSON_OR_CODEC,
      errorStatuses: [404, 503],
      schema: { params: MessageParams, response: { 200: viewSchema(Iso20022RecordView) } },
      handler: (req, reply) => {
        readerOf(r, req);
        const record = mapped(d, () => bridge.record(req.params.msg_id));
        return respond(d.schema, req, reply, Iso20022RecordView, record);
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/iso20022/audit/messages',
      operationId: 'getIso20022AuditManifest',
      summary: 'Tamper-evident audit manifest: hash-chained entries, anchors and inclusion proofs (paged)',
      description: READ_AUTH_NOTE,
      tags: TAGS,
      visibility: 'public',
      auth: read,
      formats: JSON_OR_CODEC,
      errorStatuses: [503],
      schema: { querystring: PageQuerystring, response: { 200: viewSchema(Iso20022AuditPageView) } },
      handler: (req, reply) => {
        readerOf(r, req);
        const page = parsePage(req.query, d.limits);
        const a = mapped(d, () => bridge.audit(page.offset, page.limit));
        return respond(d.schema, req, reply, Iso20022AuditPageView, {
          total: a.total,
          chainHead: a.chainHead,
          prevHash: a.prevHash,
          entries: a.entries.map(({ anchorIndex, proof, ...e }) => ({
            ...e,
            ...(anchorIndex === undefined ? {} : { anchorIndex }),
            proof: [...proof],
          })),
          anchors: [...a.anchors],
          ...(a.pendingAnchor === undefined ? {} : { pendingAnchor: a.pendingAnchor }),
          bridgeAccount: bridge.account,
          metadataKey: AUDIT_METADATA_KEY,
        });
      },
    }),
    ...REPORTS.map((report) => reportRoute(r, report)),
  ];
}
