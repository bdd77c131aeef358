// ISO 20022 bridge routes (gateway-interface.md "ISO 20022 bridge"; reference-notes §9), registered
// only when `iso20022.enabled`: nine submission routes (XML; pacs.008 and pacs.009 also take the flat
// JSON field format), the canonical record, the audit manifest, and five XML reports per message.
// Failures are the bridge's typed errors: 400 malformed or invalid (with the XPath and rule), 422
// business rules, 409 duplicates with the original record, 404 unknown messages or reports.

import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AUDIT_METADATA_KEY } from '../../iso20022/bridge/audit.js';
import { BridgeError } from '../../iso20022/bridge/errors.js';
import {
  type BridgeRecord,
  MESSAGE_ID_BYTES_MAX,
  primaryContext,
  type RoutedKind,
} from '../../iso20022/bridge/record.js';
import type { ReportKind } from '../../iso20022/bridge/reports.js';
import type { GatewayApp } from '../context.js';
import type { RouteDeps } from '../deps.js';
import type { RouteFamily } from '../family.js';
import { PageQuerystring, parsePage } from '../list.js';
import type { FormatOffer } from '../negotiate.js';
import type { OperatorSessionVerifier } from '../operator-auth.js';
import type { BridgePort } from '../ports.js';
import { defineRoute, type RouteDef } from '../route-table.js';
import { type SignedOrSession, signedOrSession } from '../signed-or-session.js';
import { createSignedRequests, type SignedRequests } from '../signed-request.js';
import { respond, viewSchema } from '../view.js';
import { Iso20022AuditPageView, Iso20022RecordView, Iso20022SubmissionView } from '../views/iso20022.js';

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

/** Adds the XML body parser (as text; the route's body limit applies). Other routes refuse XML with 415. */
export function installIso20022Parser(app: GatewayApp, bodyBytesMax: number): void {
  app.addContentTypeParser(
    ['application/xml', 'text/xml'],
    { parseAs: 'string', bodyLimit: bodyBytesMax },
    (_req, body, done) => done(null, body),
  );
}

function bridgeOf(d: RouteDeps): BridgePort {
  const b = d.ports.iso20022;
  if (b === undefined) throw d.errors.create('iso_bridge_unavailable', { reason: 'disabled' });
  return b;
}

/**
 * The participant that signed `req` (app-families.md §1.2 headers, verified by the route's `auth` before
 * the handler runs); 403 `iso_participant_not_authorised` when the account is not a participant.
 */
function signerOf(d: RouteDeps, auth: SignedRequests, req: FastifyRequest): string {
  const account = auth.account(req);
  // The auth hooks ran and passed: an unverified request here is a wiring bug, not a client error.
  if (account === undefined) throw new Error('bridge route reached without a verified signed request');
  mapped(d, () => bridgeOf(d).participant(account));
  return account;
}

/** Bridge failures become registered gateway errors; anything else is a bug and stays one (500). */
function asGatewayError(d: RouteDeps, e: unknown): unknown {
  return e instanceof BridgeError ? d.errors.create(e.code, e.details, e.message) : e;
}

/** A read route's caller: a signed-in operator (any message), else a participant (signerOf). */
function readerOf(d: RouteDeps, auth: SignedOrSession, req: FastifyRequest): void {
  if (auth.session(req) === undefined) signerOf(d, auth, req);
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
  'Signed by a bridge participant (app-families.md §1.2: x-ledger-account, x-ledger-signature, ' +
  'x-ledger-timestamp-ms, x-ledger-nonce); docs/iso20022.md "Participants".';
const READ_AUTH_NOTE = `${AUTH_NOTE} Or an operator sign-in session (Authorization: Bearer, docs/operator.md), which reads every message.`;

function submitRoute(
  d: RouteDeps,
  auth: SignedRequests,
  bodyBytesMax: number,
  [kind, operationId, summary]: (typeof SUBMISSIONS)[number],
) {
  const flat = kind === 'pacs008' || kind === 'pacs009';
  return defineRoute({
    method: 'POST',
    url: `/v1/iso20022/${kind}`,
    operationId,
    summary,
    description: `${AUTH_NOTE} 403 iso_participant_not_authorised when the instructing agent is not one of its BICs or a transfer debits an account it does not act for.`,
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
      let record: BridgeRecord;
      const signer = signerOf(d, auth, req);
      try {
        record = await bridgeOf(d).submit(kind, req.body as string | object, signer);
      } catch (e) {
        throw asGatewayError(d, e);
      }
      return respond(d.schema, req, reply, Iso20022SubmissionView, submission(record), 202);
    },
  });
}

function reportRoute(
  d: RouteDeps,
  auth: SignedOrSession,
  [report, operationId, summary]: (typeof REPORTS)[number],
) {
  return defineRoute({
    method: 'GET',
    url: `/v1/iso20022/messages/:msg_id/${report}`,
    operationId,
    summary,
    description: READ_AUTH_NOTE,
    tags: TAGS,
    visibility: 'public',
    auth,
    formats: XML_ONLY,
    errorStatuses: [404, 503],
    schema: { params: MessageParams, response: { 200: Type.String({ description: `${report} XML` }) } },
    handler: (req, reply) => {
      readerOf(d, auth, req);
      const xml = mapped(d, () => bridgeOf(d).report(req.params.msg_id, report));
      return reply.code(200).type('application/xml; charset=utf-8').send(xml);
    },
  });
}

export function iso20022Routes(
  d: RouteDeps,
  opts: { xmlBodyBytesMax: number; auth: SignedRequests; sessions?: OperatorSessionVerifier },
): RouteDef[] {
  const auth = opts.auth;
  const read = signedOrSession(auth, opts.sessions);
  return [
    ...SUBMISSIONS.map((s) => submitRoute(d, auth, opts.xmlBodyBytesMax, s)),
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
        readerOf(d, read, req);
        const r = mapped(d, () => bridgeOf(d).record(req.params.msg_id));
        return respond(d.schema, req, reply, Iso20022RecordView, r);
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
        readerOf(d, read, req);
        const page = parsePage(req.query, d.limits);
        const bridge = bridgeOf(d);
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
    ...REPORTS.map((r) => reportRoute(d, read, r)),
  ];
}

export interface Iso20022FamilyOptions {
  xmlBodyBytesMax: number;
  /** Freshness window and replay memory of signed bridge requests (`iso20022.request_max_age_ms`, `nonces_max`). */
  requestMaxAgeMs: number;
  noncesMax: number;
  now(): number;
  /** Operator sign-in sessions: read routes accept their bearer tokens too (omitted: participants only). */
  sessions?: OperatorSessionVerifier;
}

/**
 * The bridge's route family (gateway/family.ts): its routes and its XML body parser. An application
 * family, listed by node/families.ts only when the bridge runs (`iso20022.enabled`, in `d.ports.iso20022`).
 */
export function iso20022Family(d: RouteDeps, opts: Iso20022FamilyOptions): RouteFamily {
  const auth = createSignedRequests({
    maxAgeMs: opts.requestMaxAgeMs,
    noncesMax: opts.noncesMax,
    now: opts.now,
  });
  return {
    name: 'iso20022',
    app: true,
    routes: () =>
      iso20022Routes(d, {
        xmlBodyBytesMax: opts.xmlBodyBytesMax,
        auth,
        ...(opts.sessions === undefined ? {} : { sessions: opts.sessions }),
      }),
    install: (app) => installIso20022Parser(app, opts.xmlBodyBytesMax),
  };
}
